import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VenueError } from '../errors.js';
import { createCcxtAccountData, verifyCcxtCredentials } from './account-data.js';
import { createCcxtMarketData } from './market-data.js';
import { binanceFailures, binanceHistory, binanceMarkets, binanceRoutes } from './testing/fixtures/binance.js';
import { DAY, HOUR, NOW } from './testing/fixtures/common.js';
import { readAllFills } from './testing/harness.js';
import { startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;
const history = binanceHistory();

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(binanceRoutes(history));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const common = () => ({
  venue: 'binance',
  proxyUrl: server.proxyUrl,
  markets: binanceMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
const account = () =>
  createCcxtAccountData({ ...common(), connection: 'conn-1', credentials: { apiKey: 'key', secret: 'secret' } });

describe('binance account data (real ccxt client, local venue)', () => {
  it('reads USDⓈ-M and COIN-M positions with native pairs, sizes in base units and null for unreported values', async () => {
    const positions = await (await account()).positions();
    expect(positions).toHaveLength(3);
    const [btc, eth, inverse] = positions;
    expect(btc).toMatchObject({
      connection: 'conn-1',
      pair: 'BTCUSDT',
      asset_id: 'bitcoin',
      market_type: 'derivatives',
      side: 'long',
      size: 0.5,
      entry_price: 60000,
      mark_price: 62000,
      liquidation_price: 45000.12,
      unrealized_pnl: 1000,
      settle: 'USDT',
      opened_at: null,
      updated_at: NOW - HOUR,
    });
    expect(eth).toMatchObject({
      pair: 'ETHUSDT',
      asset_id: 'ethereum',
      side: 'short',
      size: 2,
      liquidation_price: null,
    });
    expect(btc).toMatchObject({ contract_type: 'linear', maintenance_margin: 124 });
    // COIN-M: 3 contracts of 100 USD, sized in quote units, settled in BTC.
    expect(inverse).toMatchObject({
      pair: 'BTCUSD_PERP',
      side: 'long',
      size: 300,
      settle: 'BTC',
      contract_type: 'inverse',
    });
    const paths = server.requests.map((r) => r.url.pathname);
    expect(paths).toContain('/fapi/v3/positionRisk');
    expect(paths).toContain('/dapi/v1/positionRisk');
    expect(server.unmatched).toEqual([]);
  });

  it('reads spot, futures and funding balances, skipping empty lines', async () => {
    const balances = await (await account()).balances();
    const line = (account: string, symbol: string) =>
      balances.find((b) => b.account === account && b.symbol === symbol);
    expect(line('spot', 'BTC')).toEqual({
      connection: 'conn-1',
      symbol: 'BTC',
      asset_id: 'bitcoin',
      account: 'spot',
      total: 0.5,
      free: 0.4,
      used: 0.1,
    });
    expect(line('spot', 'USDT')).toMatchObject({ asset_id: 'tether', total: 1200 });
    expect(line('spot', 'ETH')).toBeUndefined();
    expect(line('spot', 'LDBNB')).toMatchObject({ asset_id: null, total: 3 });
    // ccxt's futures total is the margin balance: wallet plus unrealized pnl.
    expect(line('futures', 'USDT')).toMatchObject({ total: 11100 });
    expect(line('futures', 'USDC')).toBeUndefined();
    expect(line('funding', 'USDT')).toMatchObject({ total: 25 });
  });

  it('pages through every fill since a time: spot by startTime, futures in 7-day windows, symbols discovered', async () => {
    const since = NOW - 30 * DAY;
    const { fills, pages } = await readAllFills(await account(), since);
    const spot = fills.filter((f) => f.market_type === 'spot');
    const futures = fills.filter((f) => f.market_type === 'derivatives');
    expect(spot).toHaveLength(history.spotTrades.length);
    expect(new Set(spot.map((f) => f.external_id)).size).toBe(history.spotTrades.length);
    expect(futures).toHaveLength(history.futuresTrades.length);
    expect(new Set(futures.map((f) => `${f.pair}:${f.external_id}`)).size).toBe(history.futuresTrades.length);
    expect(pages).toBeGreaterThan(3);
    const pepe = futures.find((f) => f.pair === '1000PEPEUSDT');
    expect(pepe).toMatchObject({ asset_id: 'pepe', amount: 1000, price: 0.015 });
    const closing = futures.find((f) => f.pair === 'BTCUSDT' && f.side === 'sell');
    expect(closing).toMatchObject({
      realized_pnl: 1.25,
      fee: 0.24,
      fee_currency: 'USDT',
      order_id: expect.any(String),
    });
    // No futures request spans more than Binance's 7-day limit.
    for (const r of server.requests.filter((q) => q.url.pathname === '/fapi/v1/userTrades')) {
      const start = Number(r.url.searchParams.get('startTime'));
      const end = Number(r.url.searchParams.get('endTime'));
      expect(end - start).toBeLessThanOrEqual(7 * DAY);
    }
    expect(server.unmatched).toEqual([]);
  });

  it('rejects a tampered cursor', async () => {
    await expect((await account()).fills({ since: 0, cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: 'bad_request',
    });
  });

  it('finds stop-loss and take-profit orders among regular and algo orders, ignoring entries', async () => {
    const orders = await (await account()).protectiveOrders();
    const sorted = [...orders].sort((a, b) => a.trigger_price - b.trigger_price);
    expect(sorted).toEqual([
      {
        connection: 'conn-1',
        order_id: '3359',
        pair: 'ETHUSDT',
        side: 'buy',
        kind: 'take_profit',
        trigger_price: 2500,
        amount: 1,
      },
      {
        connection: 'conn-1',
        order_id: '3358',
        pair: 'BTCUSDT',
        side: 'sell',
        kind: 'stop_loss',
        trigger_price: 57000,
        amount: null,
      },
      {
        connection: 'conn-1',
        order_id: '4000000001',
        pair: 'BTCUSDT',
        side: 'sell',
        kind: 'take_profit',
        trigger_price: 70000,
        amount: 0.2,
      },
    ]);
    expect(server.requests.some((r) => r.url.pathname === '/fapi/v1/openAlgoOrders')).toBe(true);
  });

  it('sums funding paid since a position opened (negative = received)', async () => {
    const opened = NOW - 10 * DAY;
    const funding = await (await account()).fundingSinceOpen('BTCUSDT', opened);
    const expected = history.income
      .filter((i) => i.symbol === 'BTCUSDT' && i.time >= opened)
      .reduce((s, i) => s - Number(i.income), 0);
    expect(funding.settle).toBe('USDT');
    expect(funding.amount).toBeCloseTo(expected, 10);
    expect(funding.amount).toBeGreaterThan(0);
  });

  it('answers null funding for a spot pair', async () => {
    const a = await account();
    expect(await a.fundingSinceOpen('NOSUCHPAIR', NOW - DAY)).toEqual({
      pair: 'NOSUCHPAIR',
      amount: null,
      settle: null,
    });
  });
});

describe('binance market data', () => {
  it('serves candles, paging forward from the window start, with the live candle last', async () => {
    const md = await createCcxtMarketData(common());
    const series = await md.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 5 });
    expect(series).toMatchObject({ venue: 'binance', pair: 'BTCUSDT', market_type: 'spot', timeframe: 'h1' });
    expect([...series.candles.time]).toEqual([4, 3, 2, 1, 0].map((k) => NOW - k * HOUR));
    const ended = await md.candles({ asset_id: 'bitcoin', timeframe: 'h4', limit: 3, end: NOW - 8 * HOUR });
    expect([...ended.candles.time]).toEqual([NOW - 20 * HOUR, NOW - 16 * HOUR, NOW - 12 * HOUR]);
  });

  it('serves the ticker and the funding rate', async () => {
    const md = await createCcxtMarketData(common());
    const ticker = await md.ticker({ asset_id: 'bitcoin' });
    expect(ticker).toMatchObject({
      pair: 'BTCUSDT',
      market_type: 'spot',
      last: 61800,
      bid: 61799.99,
      ask: 61800,
      change_24h_pct: 1.98,
      volume_24h: 12345.678,
      quote_volume_usd: 753086358,
    });
    const funding = await md.fundingRate({ asset_id: 'bitcoin' });
    expect(funding).toMatchObject({
      pair: 'BTCUSDT',
      rate: 0.0001,
      interval_hours: 8,
      next_funding_time: NOW + 4 * HOUR,
      mark_price: 61810.12,
    });
    expect(await md.fundingRate({ asset_id: 'usd-coin' })).toBeNull();
  });

  it('lists the markets of an asset, default first', async () => {
    const md = await createCcxtMarketData(common());
    const markets = await md.markets('bitcoin');
    expect(markets.map((m) => `${m.market_type}:${m.pair}`)).toEqual([
      'spot:BTCUSDT',
      'spot:BTCUSDC',
      'derivatives:BTCUSDT',
      'derivatives:BTCUSD_PERP',
    ]);
    // Binance's ccxt markets carry tick sizes (precision mode TICK_SIZE): the market's quoting step.
    expect(markets[0]).toMatchObject({ quote: 'USDT', tick_size: 0.01 });
    await expect(md.candles({ asset_id: 'no-such-asset', timeframe: 'h1', limit: 1 })).rejects.toMatchObject({
      code: 'unknown_asset',
    });
  });
});

describe('binance failures map to typed VenueErrors', () => {
  it('a rejected key says so in Binance terms', async () => {
    server.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/account',
      reply: () => binanceFailures.badKey,
    });
    const error = await verifyCcxtCredentials({ ...common(), credentials: { apiKey: 'bad', secret: 'bad' } }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(VenueError);
    expect(error).toMatchObject({ code: 'authentication_failed', retryable: false, venue: 'binance' });
    expect(error.message).toBe('Binance rejected the API key: Invalid API-key, IP, or permissions for action.');
  });

  it('a rejected key on a futures endpoint is still an authentication failure', async () => {
    server.override({
      method: 'GET',
      host: 'fapi.binance.com',
      path: '/fapi/v3/positionRisk',
      reply: () => binanceFailures.badKey,
    });
    await expect((await account()).positions()).rejects.toMatchObject({ code: 'authentication_failed' });
  });

  it('rate limiting carries Retry-After', async () => {
    server.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/account',
      reply: () => binanceFailures.rateLimit,
    });
    await expect((await account()).balances()).rejects.toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 7000,
    });
  });

  it('maintenance', async () => {
    server.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/ticker/24hr',
      reply: () => binanceFailures.maintenance,
    });
    const md = await createCcxtMarketData(common());
    await expect(md.ticker({ asset_id: 'bitcoin' })).rejects.toMatchObject({ code: 'maintenance', retryable: true });
  });

  it('a venue that does not answer in time', async () => {
    server.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/ticker/24hr',
      reply: () => ({ body: {}, delayMs: 1500 }),
    });
    const md = await createCcxtMarketData({ ...common(), timeoutMs: 200 });
    await expect(md.ticker({ asset_id: 'bitcoin' })).rejects.toMatchObject({ code: 'timeout', retryable: true });
  });

  it('an unreachable venue is a network error', async () => {
    const md = await createCcxtMarketData({ ...common(), proxyUrl: 'http://127.0.0.1:9/' });
    await expect(md.ticker({ asset_id: 'bitcoin' })).rejects.toMatchObject({ code: 'network', retryable: true });
  });

  it('missing credential fields are listed before anything is sent', async () => {
    await expect(
      createCcxtAccountData({ ...common(), connection: 'c', credentials: { apiKey: ' ' } }),
    ).rejects.toMatchObject({ code: 'invalid_credentials', message: 'Invalid credentials: apiKey, secret' });
    expect(server.requests).toEqual([]);
  });
});
