import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { candleOpenTime } from '../ports.js';
import { createCcxtAccountData } from './account-data.js';
import { createCcxtMarketData } from './market-data.js';
import { DAY, HOUR, NOW } from './testing/fixtures/common.js';
import { krakenFailures, krakenHistory, krakenMarkets, krakenRoutes } from './testing/fixtures/kraken.js';
import { readAllFills } from './testing/harness.js';
import { startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;
const history = krakenHistory();

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(krakenRoutes(history));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const common = () => ({
  venue: 'kraken',
  proxyUrl: server.proxyUrl,
  markets: krakenMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
// Kraken secrets are base64.
const account = () =>
  createCcxtAccountData({
    ...common(),
    connection: 'conn-kr',
    credentials: { apiKey: 'key', secret: 'c2VjcmV0LXNlY3JldA==' },
  });

describe('kraken account data (real ccxt client, local venue)', () => {
  it('reads margin positions, pricing them from cost and value', async () => {
    const [p] = await (await account()).positions();
    expect(p).toMatchObject({
      pair: 'XXBTZUSD',
      asset_id: 'bitcoin',
      market_type: 'spot',
      side: 'long',
      size: 0.1,
      entry_price: 60000,
      mark_price: 62000,
      margin: 1200,
      leverage: 5,
      unrealized_pnl: 200,
      settle: 'USD',
    });
    const call = server.requests.find((r) => r.url.pathname === '/0/private/OpenPositions');
    expect(call?.method).toBe('POST');
    expect(call?.headers['api-key']).toBe('key');
  });

  it('reads balances with Kraken currency ids mapped', async () => {
    const balances = await (await account()).balances();
    expect(balances.map((b) => [b.symbol, b.asset_id, b.total, b.free, b.used])).toEqual([
      ['USD', null, 25435.21, 17185.45, 8249.76],
      ['BTC', 'bitcoin', 1.2, 1.2, 0],
      ['ADA.S', null, 100, 100, 0],
    ]);
  });

  it('pages 50-trade newest-first answers until the start', async () => {
    const { fills } = await readAllFills(await account(), NOW - 15 * DAY);
    expect(fills).toHaveLength(history.trades.length);
    expect(new Set(fills.map((f) => f.external_id)).size).toBe(history.trades.length);
    expect(fills.find((f) => f.pair === 'XETHZUSD')).toMatchObject({
      asset_id: 'ethereum',
      amount: 0.2,
      fee: 0.96,
      fee_currency: 'USD',
    });
  });

  it('reads stop-loss and take-profit orders; Kraken reports no funding', async () => {
    const a = await account();
    const orders = await a.protectiveOrders();
    expect(orders.map((o) => [o.kind, o.trigger_price, o.amount])).toEqual([
      ['stop_loss', 55000, 0.1],
      ['take_profit', 68000, 0.05],
    ]);
    expect(await a.fundingSinceOpen('XXBTZUSD', NOW - DAY)).toEqual({ pair: 'XXBTZUSD', amount: null, settle: 'USD' });
  });
});

describe('kraken market data', () => {
  it('serves hourly candles and builds Monday weeks from days (Kraken weeks start on Thursday)', async () => {
    const md = await createCcxtMarketData(common());
    const h1 = await md.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 3, end: NOW });
    expect([...h1.candles.time]).toEqual([NOW - 3 * HOUR, NOW - 2 * HOUR, NOW - HOUR]);
    const w1 = await md.candles({ asset_id: 'bitcoin', timeframe: 'w1', limit: 3 });
    expect(w1.candles.time.length).toBe(3);
    for (const t of w1.candles.time) {
      expect(candleOpenTime('w1', t)).toBe(t);
      expect(new Date(t).getUTCDay()).toBe(1);
    }
    expect(w1.candles.time[2]).toBe(candleOpenTime('w1', NOW));
    const intervals = server.requests
      .filter((r) => r.url.pathname === '/0/public/OHLC')
      .map((r) => r.url.searchParams.get('interval'));
    expect(intervals).toContain('10080');
    expect(intervals).toContain('1440');
  });

  it('serves the ticker; Kraken spot has no perpetuals', async () => {
    const md = await createCcxtMarketData(common());
    expect(await md.ticker({ asset_id: 'bitcoin' })).toMatchObject({
      pair: 'XXBTZUSD',
      last: 62005,
      bid: 62000,
      ask: 62010,
      volume_24h: 2400.75,
    });
    expect(await md.fundingRate({ asset_id: 'bitcoin' })).toBeNull();
  });
});

describe('kraken failures', () => {
  it('maps Kraken error strings', async () => {
    const path = '/0/private/BalanceEx';
    server.override({ method: 'POST', host: 'api.kraken.com', path, reply: () => krakenFailures.badKey });
    await expect((await account()).balances()).rejects.toMatchObject({
      code: 'authentication_failed',
      message: 'Kraken rejected the API key: EAPI:Invalid key',
    });
    server.reset();
    server.override({ method: 'POST', host: 'api.kraken.com', path, reply: () => krakenFailures.rateLimit });
    await expect((await account()).balances()).rejects.toMatchObject({ code: 'rate_limited' });
    server.reset();
    server.override({ method: 'POST', host: 'api.kraken.com', path, reply: () => krakenFailures.maintenance });
    await expect((await account()).balances()).rejects.toMatchObject({ code: 'maintenance' });
  });
});
