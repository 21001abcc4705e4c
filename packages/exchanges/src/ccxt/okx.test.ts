import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtAccountData } from './account-data.js';
import { createCcxtMarketData } from './market-data.js';
import { DAY, HOUR, NOW } from './testing/fixtures/common.js';
import { okxFailures, okxHistory, okxMarkets, okxRoutes } from './testing/fixtures/okx.js';
import { readAllFills } from './testing/harness.js';
import { startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;
const history = okxHistory();

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(okxRoutes(history));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const common = () => ({
  venue: 'okx',
  proxyUrl: server.proxyUrl,
  markets: okxMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
const credentials = { apiKey: 'key', secret: 'secret', password: 'passphrase' };
const account = () => createCcxtAccountData({ ...common(), connection: 'conn-okx', credentials });

describe('okx account data (real ccxt client, local venue)', () => {
  it('needs the passphrase', async () => {
    await expect(
      createCcxtAccountData({ ...common(), connection: 'c', credentials: { apiKey: 'key', secret: 'secret' } }),
    ).rejects.toMatchObject({ code: 'invalid_credentials', message: 'Invalid credentials: password' });
  });

  it('converts contracts to base units', async () => {
    const [p] = await (await account()).positions();
    expect(p).toMatchObject({
      pair: 'BTC-USDT-SWAP',
      asset_id: 'bitcoin',
      side: 'long',
      size: 0.05,
      entry_price: 59000,
      mark_price: 62000,
      leverage: 10,
      liquidation_price: 53000.7,
      settle: 'USDT',
      opened_at: NOW - 3 * DAY,
      updated_at: NOW - HOUR,
    });
  });

  it('reads the trading and funding accounts', async () => {
    const balances = await (await account()).balances();
    expect(balances.map((b) => [b.account, b.symbol, b.total, b.free, b.used])).toEqual([
      ['trading', 'USDT', 7460.5, 7000.5, 460],
      ['funding', 'ETH', 37.11827078, 37.11827078, 0],
    ]);
  });

  it('pages fills newest-first per instrument type, splitting full windows', async () => {
    const { fills } = await readAllFills(await account(), NOW - 30 * DAY);
    expect(fills).toHaveLength(history.fills.length);
    expect(new Set(fills.map((f) => f.external_id)).size).toBe(history.fills.length);
    const swap = fills.find((f) => f.external_id === 'W600001');
    expect(swap).toMatchObject({ pair: 'BTC-USDT-SWAP', amount: 0.03, realized_pnl: 1.5, fee: 0.072, side: 'sell' });
    const spot = fills.find((f) => f.external_id === 'S601000');
    expect(spot).toMatchObject({ pair: 'BTC-USDT', market_type: 'spot', amount: 0.002 });
  });

  it('reads stop-loss and take-profit algo orders; a trigger entry is not protection', async () => {
    const orders = await (await account()).protectiveOrders();
    expect(orders.map((o) => [o.order_id, o.kind, o.trigger_price, o.amount])).toEqual([
      ['900001', 'stop_loss', 55000, null],
      ['900002', 'stop_loss', 54000, 0.02],
      ['900002', 'take_profit', 70000, 0.02],
    ]);
  });

  it('sums funding bills since open', async () => {
    const opened = NOW - 40 * DAY;
    const funding = await (await account()).fundingSinceOpen('BTC-USDT-SWAP', opened);
    const expected = -history.bills.filter((b) => Number(b.ts) >= opened).reduce((s, b) => s + Number(b.balChg), 0);
    expect(funding).toEqual({ pair: 'BTC-USDT-SWAP', amount: expect.closeTo(expected, 9), settle: 'USDT' });
  });
});

describe('okx market data', () => {
  it('serves UTC-aligned candles, ticker and funding rate', async () => {
    const md = await createCcxtMarketData(common());
    const h1 = await md.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 4, end: NOW - 48 * HOUR });
    expect([...h1.candles.time]).toEqual([52, 51, 50, 49].map((k) => NOW - k * HOUR));
    const d1 = await md.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 2 });
    expect([...d1.candles.time]).toEqual([NOW - 36 * HOUR, NOW - 12 * HOUR]);
    expect(await md.ticker({ asset_id: 'bitcoin' })).toMatchObject({
      pair: 'BTC-USDT',
      last: 61990.1,
      volume_24h: 4100.5,
    });
    expect(await md.fundingRate({ asset_id: 'bitcoin' })).toMatchObject({
      pair: 'BTC-USDT-SWAP',
      rate: 0.00008,
      next_funding_time: NOW + 4 * HOUR,
    });
  });
});

describe('okx failures', () => {
  it('bad key, rate limit, maintenance', async () => {
    const path = '/api/v5/account/positions';
    server.override({ method: 'GET', host: 'www.okx.com', path, reply: () => okxFailures.badKey });
    await expect((await account()).positions()).rejects.toMatchObject({
      code: 'authentication_failed',
      message: 'OKX rejected the API key: Invalid OK-ACCESS-KEY',
    });
    server.reset();
    server.override({ method: 'GET', host: 'www.okx.com', path, reply: () => okxFailures.rateLimit });
    await expect((await account()).positions()).rejects.toMatchObject({ code: 'rate_limited' });
    server.reset();
    server.override({ method: 'GET', host: 'www.okx.com', path, reply: () => okxFailures.maintenance });
    await expect((await account()).positions()).rejects.toMatchObject({ code: 'maintenance', retryable: true });
  });
});
