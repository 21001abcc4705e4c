import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtAccountData } from './account-data.js';
import { createCcxtMarketData } from './market-data.js';
import { bybitFailures, bybitHistory, bybitMarkets, bybitRoutes } from './testing/fixtures/bybit.js';
import { DAY, HOUR, NOW } from './testing/fixtures/common.js';
import { readAllFills } from './testing/harness.js';
import { startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;
const history = bybitHistory();

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(bybitRoutes(history));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const common = () => ({
  venue: 'bybit',
  proxyUrl: server.proxyUrl,
  markets: bybitMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
const account = () =>
  createCcxtAccountData({ ...common(), connection: 'conn-by', credentials: { apiKey: 'key', secret: 'secret' } });

describe('bybit account data (real ccxt client, local venue)', () => {
  it('reads linear positions per settle coin, with the open time Bybit reports', async () => {
    const positions = await (await account()).positions();
    expect(positions).toEqual([
      {
        connection: 'conn-by',
        pair: 'BTCUSDT',
        asset_id: 'bitcoin',
        market_type: 'derivatives',
        side: 'long',
        size: 0.25,
        entry_price: 58000,
        mark_price: 62000.1,
        margin: 1450,
        leverage: 10,
        liquidation_price: 52500.5,
        unrealized_pnl: 1000.025,
        settle: 'USDT',
        contract_type: 'linear',
        // ccxt derives it from the bankruptcy price, which Bybit no longer fills in.
        maintenance_margin: null,
        opened_at: NOW - 5 * DAY,
        updated_at: NOW - HOUR,
      },
    ]);
    const calls = server.requests.filter((r) => r.url.pathname === '/v5/position/list').map((r) => r.url.searchParams);
    expect(calls.map((q) => `${q.get('category')}:${q.get('settleCoin') ?? ''}`)).toEqual([
      'linear:USDT',
      'linear:USDC',
      'inverse:',
    ]);
  });

  it('reads the unified and funding wallets', async () => {
    const balances = await (await account()).balances();
    expect(balances.map((b) => [b.account, b.symbol, b.total])).toEqual([
      ['unified', 'USDT', 14000.45],
      ['unified', 'BTC', 0.025],
      ['funding', 'USDT', 1010],
    ]);
    expect(balances[0].asset_id).toBe('tether');
  });

  it('pages newest-first 7-day windows back to the start without losing or repeating a fill', async () => {
    const { fills, pages } = await readAllFills(await account(), NOW - 25 * DAY);
    expect(fills).toHaveLength(history.trades.length);
    expect(new Set(fills.map((f) => f.external_id)).size).toBe(history.trades.length);
    expect(pages).toBeGreaterThanOrEqual(4);
    const linear = fills.find((f) => f.external_id === 'exec-linear-1');
    expect(linear).toMatchObject({
      pair: 'BTCUSDT',
      market_type: 'derivatives',
      side: 'sell',
      amount: 0.01,
      realized_pnl: 2.5,
    });
    const spot = fills.find((f) => f.external_id === 'exec-spot-1000');
    expect(spot).toMatchObject({ market_type: 'spot', fee: 0.36 });
    for (const r of server.requests.filter((q) => q.url.pathname === '/v5/execution/list')) {
      const span = Number(r.url.searchParams.get('endTime')) - Number(r.url.searchParams.get('startTime'));
      expect(span).toBeLessThanOrEqual(7 * DAY);
    }
    expect(server.unmatched).toEqual([]);
  });

  it('takes the conditional stop order, ignores the entry order, and adds the take-profit kept on the position', async () => {
    const orders = await (await account()).protectiveOrders();
    expect(orders).toEqual([
      {
        connection: 'conn-by',
        order_id: 'sl-1',
        pair: 'BTCUSDT',
        side: 'sell',
        kind: 'stop_loss',
        trigger_price: 55000,
        amount: null,
      },
      {
        connection: 'conn-by',
        order_id: 'BTCUSDT:position',
        pair: 'BTCUSDT',
        side: 'sell',
        kind: 'take_profit',
        trigger_price: 75000,
        amount: null,
      },
    ]);
  });

  it('sums funding fees (Bybit: positive fee = paid) over 7-day windows', async () => {
    const opened = NOW - 15 * DAY;
    const funding = await (await account()).fundingSinceOpen('BTCUSDT', opened);
    const expected = history.funding
      .filter((f) => Number(f.execTime) >= opened)
      .reduce((s, f) => s + Number(f.execFee), 0);
    expect(funding).toEqual({ pair: 'BTCUSDT', amount: expect.closeTo(expected, 9), settle: 'USDT' });
  });
});

describe('bybit market data', () => {
  it('serves candles from a venue that answers newest-first', async () => {
    const md = await createCcxtMarketData(common());
    const series = await md.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 3, end: NOW - 10 * HOUR });
    expect([...series.candles.time]).toEqual([NOW - 13 * HOUR, NOW - 12 * HOUR, NOW - 11 * HOUR]);
    const d1 = await md.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 2, end: NOW - 12 * HOUR });
    expect([...d1.candles.time]).toEqual([NOW - 60 * HOUR, NOW - 36 * HOUR]);
  });

  it('serves tickers and the funding rate with its interval', async () => {
    const md = await createCcxtMarketData(common());
    expect(await md.ticker({ asset_id: 'bitcoin' })).toMatchObject({
      last: 62000,
      bid: 61999.9,
      change_24h_pct: 3.3333,
    });
    expect(await md.fundingRate({ asset_id: 'bitcoin' })).toMatchObject({
      pair: 'BTCUSDT',
      rate: 0.0001,
      interval_hours: 8,
      next_funding_time: NOW + 4 * HOUR,
    });
    expect((await md.markets('ethereum')).map((m) => m.pair)).toEqual(['ETHPERP']);
  });
});

describe('bybit failures', () => {
  it('a rejected key', async () => {
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/position/list',
      reply: () => bybitFailures.badKey,
    });
    await expect((await account()).positions()).rejects.toMatchObject({
      code: 'authentication_failed',
      message: 'Bybit rejected the API key: API key is invalid.',
    });
  });

  it('too many requests', async () => {
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/market/tickers',
      reply: () => bybitFailures.rateLimit,
    });
    const md = await createCcxtMarketData(common());
    await expect(md.ticker({ asset_id: 'bitcoin' })).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 2000,
    });
  });

  it('maintenance', async () => {
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/market/tickers',
      reply: () => bybitFailures.maintenance,
    });
    const md = await createCcxtMarketData(common());
    await expect(md.ticker({ asset_id: 'bitcoin' })).rejects.toMatchObject({ code: 'maintenance' });
  });
});
