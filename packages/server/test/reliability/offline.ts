import { createSimulatedAccount } from '@marketlens/exchanges';
import type { ServerConfig } from '../../src/platform/deps.js';
import { type Harness, harness } from '../support/harness.js';

/**
 * A harness that never reaches the network, whatever a request names: a `connection` venue is
 * the simulated one, credentials of a new exchange connection are accepted without a venue
 * call, and a connected account is the simulated demo account. The reliability tests draw
 * venue ids from the document (binance, bybit, ...), so without this they would call real venues.
 * The rate limit is lifted unless `config` sets one.
 */
export function offlineHarness(config: Partial<ServerConfig> = {}): Harness {
  let ref: Harness | undefined;
  const ready = (): Harness => {
    if (!ref) throw new Error('harness not ready');
    return ref;
  };
  const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 }, ...config }, undefined, {
    marketFor: () => ready().market,
    verifyCredentials: async () => {},
    accountFor: (connection) => createSimulatedAccount(ready().market, { connection: connection.id }),
    requestSync: () => {},
  });
  ref = h;
  return h;
}
