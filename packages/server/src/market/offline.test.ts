/**
 * The embedded default reaches no network: the exchange catalog's other venues are not read, and a
 * `connection` naming a real venue reads a simulated one under its id. Every outgoing connection
 * of the test is counted (the socket's `connect`), so a call out fails the test even if it were
 * answered.
 */
import { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';

const connect = Socket.prototype.connect;
let outgoing: string[] = [];
beforeEach(() => {
  outgoing = [];
  Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    outgoing.push(JSON.stringify(args[0]));
    this.destroy(new Error('no network in this test'));
    return this;
  } as typeof Socket.prototype.connect;
});
afterEach(() => {
  Socket.prototype.connect = connect;
});

describe('the embedded default, offline', () => {
  it('answers the detail of a real venue without reading it, and says so', async () => {
    const h = harness();
    const auth = { headers: { 'x-api-key': await h.apiKey((await h.signup()).token) } };
    const res = await h.request('/v1/exchanges/binance', auth);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({
      id: 'binance',
      live: false,
      futures_open_interest_usd: null,
      spot_tickers: [],
      futures_tickers: [],
      volume: { spot_24h_usd: null, derivatives_24h_usd: null, total_24h_usd: null },
    });
    const sim = (await (await h.request('/v1/exchanges/marketlens-sim', auth)).json()) as { data: { live: boolean } };
    expect(sim.data.live).toBe(true);
    expect(outgoing).toEqual([]);
  });

  it('serves connection=binance on the analysis routes from a simulated venue under that id', async () => {
    const h = harness();
    const key = await h.apiKey((await h.signup()).token);
    for (const path of [
      '/v2/analysis/bitcoin?connection=binance',
      '/v2/analysis/bitcoin/signal?connection=binance',
      '/v2/analysis/bitcoin/markets?connection=binance',
    ]) {
      const res = await h.request(path, { headers: { 'x-api-key': key } });
      expect(res.status, path).toBe(200);
    }
    expect(outgoing).toEqual([]);
  });
});
