import type { Candles } from '@marketlens/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { VenueError } from '../errors.js';
import { BUILTIN_ASSETS } from '../universe/assets.js';
import { type CcxtSourceOptions, createCcxtSource } from './source.js';
import { BINANCE_KLINE_BASE, binanceFailures, binanceKlines, binanceRoutes } from './testing/fixtures/binance.js';
import { HOUR, NOW } from './testing/fixtures/common.js';
import { startVenueServer, type VenueReply, type VenueServer } from './testing/venue-server.js';

const SPOT = 'api.binance.com';
const FAPI = 'fapi.binance.com';

let server: VenueServer;
let clock = NOW;

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(binanceRoutes());
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  clock = NOW;
});

/** A Binance source whose markets are loaded from the venue's own `exchangeInfo` answers. */
const binance = (over: Partial<CcxtSourceOptions> = {}) =>
  createCcxtSource({
    venue: 'binance',
    proxyUrl: server.proxyUrl,
    rateLimit: false,
    timeoutMs: 2000,
    now: () => clock,
    ...over,
  });

const requestsTo = (path: string) => server.requests.filter((r) => r.url.pathname === path);

/** Makes one endpoint answer `reply` until the next reset. */
const answer = (host: string, path: string, reply: VenueReply) =>
  server.override({ method: 'GET', host, path, reply: () => reply });

/** Candles as rows `[time, open, high, low, close, volume]`. */
const rowsOf = (c: Candles) => [...c.time].map((t, i) => [t, c.open[i], c.high[i], c.low[i], c.close[i], c.volume[i]]);

/** The rows of Binance klines, as numbers. */
const klineRows = (klines: (string | number)[][]) => klines.map((k) => k.slice(0, 6).map(Number));

describe('ccxt source on Binance (real ccxt client, local venue)', () => {
  it('is named after the venue and loads spot, USDⓈ-M and COIN-M listings', async () => {
    const source = await binance();
    expect(source.source).toBe('ccxt:binance');
    expect(source.venue).toBe('binance');
    const markets = await source.markets('bitcoin');
    expect(markets.map((m) => `${m.market_type}:${m.pair}`)).toEqual([
      'spot:BTCUSDT',
      'spot:BTCUSDC',
      'derivatives:BTCUSDT',
      'derivatives:BTCUSD_PERP',
    ]);
    expect(server.requests.map((r) => r.url.pathname).sort()).toEqual([
      '/api/v3/exchangeInfo',
      '/dapi/v1/exchangeInfo',
      '/fapi/v1/exchangeInfo',
    ]);
    expect(server.unmatched).toEqual([]);
  });

  it('lists coins with a spot or perpetual market, ranked by summed USD quote volume, from one read per API', async () => {
    const source = await binance();
    const listed = await source.listAssets();
    // Left out: XRP (a dated future only), ADA (halted), EUR/USDT (fx), ZZZ (unknown).
    expect(listed.map((a) => [a.definition.id, a.quote_volume_usd])).toEqual([
      ['bitcoin', 753_086_358 + 100_000_000 + 2_000_000_000 + 61_000_000],
      // ETH/BTC is quoted in bitcoin: not a USD volume.
      ['ethereum', 400_000_000 + 900_000_000],
      ['solana', 800_000_000],
      ['pepe', 500_000_000],
      ['tron', null],
    ]);
    expect(listed[0].definition).toEqual(BUILTIN_ASSETS.find((a) => a.id === 'bitcoin'));
    for (const path of ['/api/v3/ticker/24hr', '/fapi/v1/ticker/24hr', '/dapi/v1/ticker/24hr']) {
      const reads = requestsTo(path);
      expect(reads, path).toHaveLength(1);
      expect([...reads[0].url.searchParams.keys()], path).toEqual([]);
    }
    // The tickers just read serve prices too.
    expect((await source.ticker({ asset_id: 'solana' })).last).toBe(200);
    expect(requestsTo('/api/v3/ticker/24hr')).toHaveLength(1);
    expect(server.unmatched).toEqual([]);
  });

  it('serves many tickers, asked for at once and again, from one bulk read per API and TTL', async () => {
    const source = await binance();
    const asks = [
      { asset_id: 'bitcoin' },
      { asset_id: 'ethereum' },
      { asset_id: 'solana' },
      { asset_id: 'bitcoin', market_type: 'derivatives' as const },
      { asset_id: 'pepe' },
      { asset_id: 'ethereum', pair: 'ETHBTC' },
    ];
    const tickers = await Promise.all(asks.map((a) => source.ticker(a)));
    for (let i = 0; i < 3; i++) await Promise.all(asks.map((a) => source.ticker(a)));
    expect(tickers.map((t) => `${t.market_type} ${t.pair} ${t.last}`)).toEqual([
      'spot BTCUSDT 61800',
      'spot ETHUSDT 3050',
      'spot SOLUSDT 200',
      'derivatives BTCUSDT 61750.1',
      'derivatives 1000PEPEUSDT 0.0185',
      'spot ETHBTC 0.04935',
    ]);
    expect(tickers[0]).toEqual({
      venue: 'binance',
      pair: 'BTCUSDT',
      asset_id: 'bitcoin',
      market_type: 'spot',
      last: 61800,
      bid: 61799.99,
      ask: 61800,
      change_1h_pct: null,
      change_24h_pct: 1.98,
      change_7d_pct: null,
      volume_24h: 12345.678,
      quote_volume_usd: 753086358,
      time: NOW - 1000,
    });
    expect(tickers[3]).toMatchObject({ asset_id: 'bitcoin', bid: null, quote_volume_usd: 2_000_000_000 });
    expect(tickers[5].quote_volume_usd).toBeNull();
    expect(requestsTo('/api/v3/ticker/24hr')).toHaveLength(1);
    expect(requestsTo('/fapi/v1/ticker/24hr')).toHaveLength(1);
    expect(requestsTo('/dapi/v1/ticker/24hr')).toHaveLength(0);

    clock += 29_999;
    await source.ticker({ asset_id: 'bitcoin' });
    expect(requestsTo('/api/v3/ticker/24hr')).toHaveLength(1);
    clock += 1;
    await Promise.all([source.ticker({ asset_id: 'bitcoin' }), source.ticker({ asset_id: 'ethereum' })]);
    expect(requestsTo('/api/v3/ticker/24hr')).toHaveLength(2);
  });

  it('honours tickerTtlMs', async () => {
    const source = await binance({ tickerTtlMs: 1000 });
    await source.ticker({ asset_id: 'bitcoin' });
    clock += 1000;
    await source.ticker({ asset_id: 'bitcoin' });
    expect(requestsTo('/api/v3/ticker/24hr')).toHaveLength(2);
    await expect(binance({ tickerTtlMs: -1 })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('reads a market no bulk read covers (a dated future) on its own', async () => {
    const source = await binance();
    const ticker = await source.ticker({ asset_id: 'ripple' });
    expect(ticker).toMatchObject({ pair: 'XRPUSDT_250627', market_type: 'derivatives', last: 2.6 });
    const reads = requestsTo('/fapi/v1/ticker/24hr');
    expect(reads.map((r) => r.url.searchParams.get('symbol'))).toEqual(['XRPUSDT_250627']);
  });

  it('serves funding rates from one premiumIndex read per margin family', async () => {
    const source = await binance();
    const [btc, eth, pepe] = await Promise.all(
      ['bitcoin', 'ethereum', 'pepe'].map((asset_id) => source.fundingRate({ asset_id })),
    );
    await source.fundingRate({ asset_id: 'bitcoin', pair: 'BTCUSDT' });
    expect(btc).toEqual({
      venue: 'binance',
      pair: 'BTCUSDT',
      asset_id: 'bitcoin',
      rate: 0.0001,
      interval_hours: 8,
      next_funding_time: NOW + 4 * HOUR,
      mark_price: 61810.12,
      index_price: 61790,
      time: NOW - 1000,
    });
    expect(eth).toMatchObject({ pair: 'ETHUSDT', rate: -0.000025, mark_price: 3049.1 });
    expect(pepe).toMatchObject({ pair: '1000PEPEUSDT', asset_id: 'pepe', rate: 0.0005 });
    const reads = requestsTo('/fapi/v1/premiumIndex');
    expect(reads).toHaveLength(1);
    expect(reads[0].url.searchParams.has('symbol')).toBe(false);

    expect(await source.fundingRate({ asset_id: 'solana' })).toBeNull();
    const inverse = await source.fundingRate({ asset_id: 'bitcoin', pair: 'BTCUSD_PERP' });
    expect(inverse).toMatchObject({ pair: 'BTCUSD_PERP', rate: 0.00005, mark_price: 61702.5 });
    expect(requestsTo('/dapi/v1/premiumIndex')).toHaveLength(1);
    expect(requestsTo('/fapi/v1/premiumIndex')).toHaveLength(1);
  });

  it('serves candles equal to the klines served: spot from /api/v3, perpetual from /fapi/v1', async () => {
    const source = await binance();
    const spot = await source.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 30 });
    expect(spot).toMatchObject({ pair: 'BTCUSDT', market_type: 'spot', timeframe: 'h1' });
    expect(rowsOf(spot.candles)).toEqual(klineRows(binanceKlines(BINANCE_KLINE_BASE.spot).slice(-30)));
    const perp = await source.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 30, market_type: 'derivatives' });
    expect(perp).toMatchObject({ pair: 'BTCUSDT', market_type: 'derivatives' });
    expect(rowsOf(perp.candles)).toEqual(klineRows(binanceKlines(BINANCE_KLINE_BASE.futures).slice(-30)));
    expect(rowsOf(perp.candles)).not.toEqual(rowsOf(spot.candles));
    expect(requestsTo('/fapi/v1/klines')).toHaveLength(1);
  });
});

describe('ccxt source failures are typed VenueErrors', () => {
  it('429 with Retry-After is rate_limited; the failed read is not remembered', async () => {
    const source = await binance();
    answer(SPOT, '/api/v3/ticker/24hr', binanceFailures.rateLimit);
    await expect(source.ticker({ asset_id: 'bitcoin' })).rejects.toMatchObject({
      name: 'VenueError',
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 7000,
      venue: 'binance',
    });
    await expect(source.listAssets()).rejects.toMatchObject({ code: 'rate_limited', retryAfterMs: 7000 });
    // No fallback to per-market reads against a venue that asked to slow down.
    expect(requestsTo('/api/v3/ticker/24hr').every((r) => !r.url.searchParams.has('symbol'))).toBe(true);

    server.reset();
    expect((await source.ticker({ asset_id: 'bitcoin' })).last).toBe(61800);
    expect(requestsTo('/api/v3/ticker/24hr')).toHaveLength(1);
  });

  it.each([
    {
      what: 'a 502 page from a gateway',
      host: FAPI,
      path: '/fapi/v1/ticker/24hr',
      reply: { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
      code: 'network',
    },
    {
      what: "Binance's own 500",
      host: SPOT,
      path: '/api/v3/ticker/24hr',
      reply: {
        status: 500,
        body: { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' },
      },
      code: 'network',
    },
    { what: 'a 504', host: SPOT, path: '/api/v3/ticker/24hr', reply: { status: 504, body: '' }, code: 'timeout' },
  ])('5xx: $what is a retryable $code', async ({ host, path, reply, code }) => {
    const source = await binance();
    answer(host, path, reply);
    const error = await source
      .ticker({ asset_id: 'bitcoin', market_type: host === FAPI ? 'derivatives' : 'spot' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect(error).toMatchObject({ code, retryable: true, venue: 'binance' });
  });

  const truncated = { body: '[{"symbol":"BTCUSDT","lastPrice":"61800.0' };
  it.each([
    { what: 'truncated tickers', path: '/api/v3/ticker/24hr', reply: truncated },
    { what: 'an HTML page for tickers', path: '/api/v3/ticker/24hr', reply: { body: '<html>Just a moment...</html>' } },
    { what: 'an empty body for tickers', path: '/api/v3/ticker/24hr', reply: { body: '' } },
    { what: 'tickers of the wrong shape', path: '/api/v3/ticker/24hr', reply: { body: [1, 2] } },
    { what: 'truncated premiumIndex', path: '/fapi/v1/premiumIndex', reply: truncated },
    { what: 'truncated klines', path: '/api/v3/klines', reply: { body: '[[1736942400000,"6' } },
    { what: 'truncated exchangeInfo', path: '/api/v3/exchangeInfo', reply: { body: '{"timezone":"UTC","symb' } },
  ])('malformed JSON ($what) is a VenueError, never a TypeError', async ({ path, reply }) => {
    const source = await binance();
    answer(path.startsWith('/fapi') ? FAPI : SPOT, path, reply);
    const error = await (async () => {
      if (path === '/fapi/v1/premiumIndex') await source.fundingRate({ asset_id: 'bitcoin' });
      else if (path === '/api/v3/klines') await source.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 5 });
      else if (path === '/api/v3/exchangeInfo') await source.listAssets();
      else await source.ticker({ asset_id: 'bitcoin' });
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ code: 'network', retryable: true, venue: 'binance' });
    // Markets load from three APIs at once: let the other two answer before the next test.
    if (path === '/api/v3/exchangeInfo') await vi.waitFor(() => expect(server.requests).toHaveLength(3));
  });

  it('sandbox reads the testnets', async () => {
    const source = await binance({ sandbox: true });
    // The local venue plays no testnet: only where the requests went matters.
    await expect(source.listAssets()).rejects.toBeInstanceOf(VenueError);
    await vi.waitFor(() => expect(server.requests).toHaveLength(3));
    expect(server.requests.map((r) => `${r.url.host}${r.url.pathname}`).sort()).toEqual([
      'testnet.binance.vision/api/v3/exchangeInfo',
      'testnet.binancefuture.com/dapi/v1/exchangeInfo',
      'testnet.binancefuture.com/fapi/v1/exchangeInfo',
    ]);
  });

  it('a venue without a testnet refuses sandbox mode', async () => {
    await expect(createCcxtSource({ venue: 'kraken', sandbox: true, proxyUrl: server.proxyUrl })).rejects.toMatchObject(
      { name: 'VenueError', code: 'not_supported', venue: 'kraken' },
    );
  });
});
