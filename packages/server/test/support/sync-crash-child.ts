/**
 * Test-only entry (bundled and run as a child process by crash.test.ts): a real server over the
 * data directory MARKETLENS_DATA_DIR whose simulated venue serves fills in pages of CRASH_PAGE_SIZE,
 * each after CRASH_PAGE_DELAY_MS, on the fixed clock CRASH_NOW. Prints `READY <url>` once listening.
 */
import { type AccountData, createSimulatedAccount, createSimulatedVenue } from '@marketlens/exchanges';
import { optionsFromEnv } from '../../src/config/server-env.js';
import { startServer } from '../../src/server.js';

const now = Number(process.env.CRASH_NOW);
const delay = Number(process.env.CRASH_PAGE_DELAY_MS ?? '0');
const pageSize = Number(process.env.CRASH_PAGE_SIZE ?? '5');
const clock = (): number => now;
const market = createSimulatedVenue({ now: clock });

function slowAccount(connection: string): AccountData {
  const inner = createSimulatedAccount(market, { connection });
  return {
    connection: inner.connection,
    venue: inner.venue,
    positions: () => inner.positions(),
    balances: () => inner.balances(),
    protectiveOrders: () => inner.protectiveOrders(),
    fundingSinceOpen: (pair, opened) => inner.fundingSinceOpen(pair, opened),
    fills: async (request) => {
      await new Promise((r) => setTimeout(r, delay));
      return inner.fills({ ...request, limit: pageSize });
    },
  };
}

const options = optionsFromEnv({ ...process.env, PORT: '0', MARKETLENS_NEWS_FEEDS: '' });
const running = await startServer(options, undefined, market, {
  now: clock,
  accountFor: (c) => slowAccount(c.id),
});
process.stdout.write(`READY ${running.url}\n`);
