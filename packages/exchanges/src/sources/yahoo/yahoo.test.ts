import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VenueError } from '../../errors.js';
import type { Timeframe } from '../../ports.js';
import { BUILTIN_ASSETS } from '../../universe/assets.js';
import {
  aaplMeta,
  type ChartReply,
  type ChartRequest,
  chart,
  eurusdMeta,
  type Row,
  sec,
  startYahooServer,
  type YahooServer,
} from './fixtures.js';
import { createYahooSource, type YahooSourceOptions } from './index.js';

/** Thursday 2025-02-20 12:00 UTC, before the New York open; AAPL last traded on the 19th. */
const NOW = Date.UTC(2025, 1, 20, 12);
const DAY = 86_400_000;

let server: YahooServer;

beforeAll(async () => {
  server = await startYahooServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

function source(options: YahooSourceOptions = {}) {
  return createYahooSource({ baseUrl: server.baseUrl, now: () => NOW, ...options });
}

async function candlesOf(asset_id: string, timeframe: Timeframe, limit: number, options: YahooSourceOptions = {}) {
  return (await source(options).candles({ asset_id, timeframe, limit })).candles;
}

/** The rejection of `promise`, which must be a VenueError. */
async function venueError(promise: Promise<unknown>): Promise<VenueError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VenueError);
  return error as VenueError;
}

/** A route answering by the requested interval. */
function byInterval(replies: Readonly<Record<string, ChartReply>>): (request: ChartRequest) => ChartReply {
  return (request) => replies[request.params.get('interval') ?? ''] ?? { status: 400, body: 'no interval' };
}

// AAPL daily bars as Yahoo stamps them: at the 09:30 New York open (14:30 UTC in February).
const AAPL_DAYS: readonly Row[] = [
  [sec(2025, 2, 10, 14, 30), 229.57000732421875, 230.58999633789062, 227.1999969482422, 227.64999389648438, 33115600],
  [sec(2025, 2, 11, 14, 30), 228.1999969482422, 235.22999572753906, 228.1300048828125, 232.6199951171875, 53718400],
  [sec(2025, 2, 12, 14, 30), 231.1999969482422, 236.9600067138672, 230.67999267578125, 236.8699951171875, 45243300],
  [sec(2025, 2, 13, 14, 30), 236.91000366210938, 242.33999633789062, 235.57000732421875, 241.52999877929688, 53614100],
  [sec(2025, 2, 14, 14, 30), 241.25, 245.5500030517578, 240.99000549316406, 244.60000610351562, 40896200],
  [sec(2025, 2, 18, 14, 30), 244.14999389648438, 245.17999267578125, 241.83999633789062, 244.47000122070312, 48822500],
  [sec(2025, 2, 19, 14, 30), 244.66000366210938, 246.00999450683594, 243.16000366210938, 244.8699951171875, 32204200],
];

// AAPL hourly bars of 2025-02-19: the session opens at 09:30 New York, so Yahoo's hours start at :30.
const AAPL_HOURS: readonly Row[] = [
  [sec(2025, 2, 19, 14, 30), 244.66, 245.5, 243.9, 245.2, 9_000_000],
  [sec(2025, 2, 19, 15, 30), 245.2, 246.01, 244.8, 245.6, 4_000_000],
  [sec(2025, 2, 19, 16, 30), 245.6, 245.9, 244.1, 244.3, 3_000_000],
  [sec(2025, 2, 19, 17, 30), 244.3, 244.6, 243.16, 243.5, 2_500_000],
  [sec(2025, 2, 19, 18, 30), 243.5, 244.2, 243.3, 244.0, 2_600_000],
  [sec(2025, 2, 19, 19, 30), 244.0, 244.9, 243.8, 244.8, 4_100_000],
  [sec(2025, 2, 19, 20, 30), 244.8, 245.1, 244.6, 244.87, 6_329_951],
];

const col = (rows: readonly Row[], i: 1 | 2 | 3 | 4 | 5) => rows.map((r) => r[i]);

describe('yahoo source: candles', () => {
  it('reads daily bars exactly, dated on the exchange day at 00:00 UTC', async () => {
    server.route('AAPL', () => chart(aaplMeta('1d'), AAPL_DAYS));
    const c = await candlesOf('stock-aapl', 'd1', 3);
    const last3 = AAPL_DAYS.slice(-3);
    expect(Array.from(c.time)).toEqual([Date.UTC(2025, 1, 14), Date.UTC(2025, 1, 18), Date.UTC(2025, 1, 19)]);
    expect(Array.from(c.open)).toEqual(col(last3, 1));
    expect(Array.from(c.high)).toEqual(col(last3, 2));
    expect(Array.from(c.low)).toEqual(col(last3, 3));
    expect(Array.from(c.close)).toEqual(col(last3, 4));
    expect(Array.from(c.volume)).toEqual(col(last3, 5));

    expect(server.requests).toHaveLength(1);
    const params = server.requests[0].params;
    expect(params.get('interval')).toBe('1d');
    expect(params.get('includePrePost')).toBe('false');
    expect(Number(params.get('period1'))).toBeLessThanOrEqual(sec(2025, 2, 14));
    expect(Number(params.get('period2'))).toBeGreaterThan(NOW / 1000);
  });

  it('serves the series under the Yahoo symbol as a spot market of the source', async () => {
    server.route('AAPL', () => chart(aaplMeta('1d'), AAPL_DAYS));
    const series = await source().candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 2 });
    expect(series).toMatchObject({
      asset_id: 'stock-aapl',
      venue: 'yahoo',
      pair: 'AAPL',
      market_type: 'spot',
      timeframe: 'd1',
      source: 'yahoo',
    });
  });

  it('keeps the later row when Yahoo repeats the live day', async () => {
    const live: Row = [sec(2025, 2, 19, 21, 0, 1), 244.66, 246.01, 243.16, 244.87, 32129951];
    server.route('AAPL', () => chart(aaplMeta('1d'), [...AAPL_DAYS, live]));
    const c = await candlesOf('stock-aapl', 'd1', 2);
    expect(Array.from(c.time)).toEqual([Date.UTC(2025, 1, 18), Date.UTC(2025, 1, 19)]);
    expect(Array.from(c.close)).toEqual([244.47000122070312, 244.87]);
    expect(Array.from(c.volume)).toEqual([48822500, 32129951]);
  });

  it('dates summer fx days on London midnight (23:00 UTC the day before), read in winter', async () => {
    const rows: Row[] = [
      [sec(2024, 7, 7, 23), 1.0838, 1.0845, 1.0818, 1.0838, 0],
      [sec(2024, 7, 8, 23), 1.0826, 1.0833, 1.0803, 1.0826, 0],
      [sec(2024, 7, 9, 23), 1.0815, 1.083, 1.0807, 1.0815, 0],
      [sec(2024, 7, 10, 23), 1.0829, 1.0868, 1.0826, 1.0861, 0],
    ];
    // The meta is February's (GMT, offset 0): the summer offset must come from the zone, not from it.
    server.route('EURUSD=X', () => chart(eurusdMeta('1d'), rows));
    const end = Date.UTC(2024, 6, 12);
    const c = (await source().candles({ asset_id: 'fx-eurusd', timeframe: 'd1', limit: 10, end })).candles;
    expect(Array.from(c.time)).toEqual([
      Date.UTC(2024, 6, 8),
      Date.UTC(2024, 6, 9),
      Date.UTC(2024, 6, 10),
      Date.UTC(2024, 6, 11),
    ]);
    expect(Array.from(c.close)).toEqual(col(rows, 4));
    expect(server.requests[0].symbol).toBe('EURUSD=X');
  });

  it('reads intraday bars exactly and folds the live row into its bar', async () => {
    const now = Date.UTC(2025, 1, 20, 15, 10);
    const rows: Row[] = [
      [
        sec(2025, 2, 20, 14, 30),
        244.94000244140625,
        246.22999572753906,
        244.7100067138672,
        245.91000366210938,
        3_115_300,
      ],
      [sec(2025, 2, 20, 14, 45), 245.91000366210938, 246.77999877929688, 245.64999389648438, 246.5, 1_402_116],
      [sec(2025, 2, 20, 15, 0), 246.50999450683594, 246.6999969482422, 245.8000030517578, 246.0, 820_000],
      // The live price as its own row, stamped with the time of the trade.
      [sec(2025, 2, 20, 15, 7, 31), 246.0, 246.9, 245.5, 246.25, 180_000],
    ];
    server.route('AAPL', () => chart(aaplMeta('15m'), rows));
    const c = (await source({ now: () => now }).candles({ asset_id: 'stock-aapl', timeframe: 'm15', limit: 10 }))
      .candles;
    expect(Array.from(c.time)).toEqual([
      Date.UTC(2025, 1, 20, 14, 30),
      Date.UTC(2025, 1, 20, 14, 45),
      Date.UTC(2025, 1, 20, 15),
    ]);
    expect(Array.from(c.open)).toEqual([244.94000244140625, 245.91000366210938, 246.50999450683594]);
    expect(Array.from(c.high)).toEqual([246.22999572753906, 246.77999877929688, 246.9]);
    expect(Array.from(c.low)).toEqual([244.7100067138672, 245.64999389648438, 245.5]);
    expect(Array.from(c.close)).toEqual([245.91000366210938, 246.5, 246.25]);
    expect(Array.from(c.volume)).toEqual([3_115_300, 1_402_116, 1_000_000]);
    expect(server.requests[0].params.get('interval')).toBe('15m');
  });

  it('builds h4 from 60m bars on the UTC 4-hour grid, keeping the first bucket', async () => {
    server.route('AAPL', () => chart(aaplMeta('60m'), AAPL_HOURS));
    const c = await candlesOf('stock-aapl', 'h4', 3);
    expect(Array.from(c.time)).toEqual([
      Date.UTC(2025, 1, 19, 12),
      Date.UTC(2025, 1, 19, 16),
      Date.UTC(2025, 1, 19, 20),
    ]);
    expect(Array.from(c.open)).toEqual([244.66, 245.6, 244.8]);
    expect(Array.from(c.high)).toEqual([246.01, 245.9, 245.1]);
    expect(Array.from(c.low)).toEqual([243.9, 243.16, 244.6]);
    expect(Array.from(c.close)).toEqual([245.6, 244.8, 244.87]);
    expect(Array.from(c.volume)).toEqual([13_000_000, 12_200_000, 6_329_951]);
    const params = server.requests[0].params;
    expect(params.get('interval')).toBe('60m');
    // Asked from the open of a 4-hour candle, so the oldest one is whole.
    expect((Number(params.get('period1')) * 1000) % (4 * 3_600_000)).toBe(0);
  });

  it('gives h1 candles the UTC hour each 60m bar opens in', async () => {
    server.route('AAPL', () => chart(aaplMeta('60m'), AAPL_HOURS));
    const c = await candlesOf('stock-aapl', 'h1', 7);
    expect(Array.from(c.time)).toEqual([14, 15, 16, 17, 18, 19, 20].map((h) => Date.UTC(2025, 1, 19, h)));
    expect(Array.from(c.close)).toEqual(col(AAPL_HOURS, 4));
  });

  it("moves a live row to the 60m bar it belongs to on Yahoo's half-past grid", async () => {
    const now = Date.UTC(2025, 1, 19, 15, 10);
    const live: Row = [sec(2025, 2, 19, 15, 10, 12), 245.2, 245.3, 245.0, 245.1, 500_000];
    server.route('AAPL', () => chart(aaplMeta('60m'), [AAPL_HOURS[0], live]));
    const c = (await source({ now: () => now }).candles({ asset_id: 'stock-aapl', timeframe: 'h1', limit: 5 })).candles;
    // 15:10 is inside the 14:30 bar, which opens in the 14:00 hour.
    expect(Array.from(c.time)).toEqual([Date.UTC(2025, 1, 19, 14)]);
    expect(Array.from(c.close)).toEqual([245.1]);
    expect(Array.from(c.volume)).toEqual([9_500_000]);
  });

  it('drops gaps (null prices) of a gappy series and reads a null volume as 0', async () => {
    const now = Date.UTC(2025, 1, 20, 15);
    const rows: Row[] = [
      [sec(2025, 2, 20, 14, 30), 244.94, 245.5, 244.71, 245.3, 1_200_000],
      [sec(2025, 2, 20, 14, 35), null, null, null, null, null],
      [sec(2025, 2, 20, 14, 40), 245.3, 245.8, 245.1, 245.6, 600_000],
      [sec(2025, 2, 20, 14, 45), null, 245.9, 245.2, 245.7, 0],
      [sec(2025, 2, 20, 14, 50), 245.7, 246.1, 245.6, 246.0, 550_000],
      [sec(2025, 2, 20, 14, 55), 246.0, 246.2, 245.9, 246.1, null],
    ];
    server.route('AAPL', () => chart(aaplMeta('5m'), rows));
    const c = (await source({ now: () => now }).candles({ asset_id: 'stock-aapl', timeframe: 'm5', limit: 10 }))
      .candles;
    expect(Array.from(c.time)).toEqual([30, 40, 50, 55].map((m) => Date.UTC(2025, 1, 20, 14, m)));
    expect(Array.from(c.close)).toEqual([245.3, 245.6, 246.0, 246.1]);
    expect(Array.from(c.volume)).toEqual([1_200_000, 600_000, 550_000, 0]);
  });

  it('returns no candles for a range without trading', async () => {
    server.route('AAPL', () => chart(aaplMeta('1d'), []));
    const c = await candlesOf('stock-aapl', 'd1', 5);
    expect(c.time.length).toBe(0);
  });

  it('uses 1wk bars when they open on Monday, the live week included', async () => {
    const rows: Row[] = [
      [sec(2025, 2, 3, 14, 30), 229.99, 234.0, 225.7, 227.63, 227_383_400],
      [sec(2025, 2, 10, 14, 30), 229.57, 245.55, 227.2, 244.6, 226_587_600],
      // Monday the 17th was a holiday: the running week is stamped on its first session.
      [sec(2025, 2, 18, 14, 30), 244.15, 246.01, 241.84, 244.87, 80_951_951],
    ];
    server.route('AAPL', () => chart(aaplMeta('1wk'), rows));
    const c = await candlesOf('stock-aapl', 'w1', 3);
    expect(Array.from(c.time)).toEqual([Date.UTC(2025, 1, 3), Date.UTC(2025, 1, 10), Date.UTC(2025, 1, 17)]);
    expect(Array.from(c.close)).toEqual([227.63, 244.6, 244.87]);
    expect(server.requests.map((r) => r.params.get('interval'))).toEqual(['1wk']);
    const period1 = Number(server.requests[0].params.get('period1')) * 1000;
    expect(new Date(period1).getUTCDay()).toBe(1); // asked from a Monday
  });

  it('folds days into weeks when Yahoo weeks do not open on Monday', async () => {
    const wednesdays: Row[] = [
      [sec(2025, 2, 5, 14, 30), 228.53, 236.96, 227.63, 232.62, 200_000_000],
      [sec(2025, 2, 12, 14, 30), 231.2, 245.55, 230.68, 244.47, 210_000_000],
      [sec(2025, 2, 19, 14, 30), 244.66, 246.01, 243.16, 244.87, 32_204_200],
    ];
    server.route(
      'AAPL',
      byInterval({ '1wk': chart(aaplMeta('1wk'), wednesdays), '1d': chart(aaplMeta('1d'), AAPL_DAYS) }),
    );
    const c = await candlesOf('stock-aapl', 'w1', 2);
    expect(server.requests.map((r) => r.params.get('interval'))).toEqual(['1wk', '1d']);
    const week1 = AAPL_DAYS.slice(0, 5);
    const week2 = AAPL_DAYS.slice(5);
    expect(Array.from(c.time)).toEqual([Date.UTC(2025, 1, 10), Date.UTC(2025, 1, 17)]);
    expect(Array.from(c.open)).toEqual([week1[0][1], week2[0][1]]);
    expect(Array.from(c.high)).toEqual([245.5500030517578, 246.00999450683594]);
    expect(Array.from(c.low)).toEqual([227.1999969482422, 241.83999633789062]);
    expect(Array.from(c.close)).toEqual([244.60000610351562, 244.8699951171875]);
    const sum = (rows: readonly Row[]) => rows.reduce((s, r) => s + (r[5] ?? 0), 0);
    expect(Array.from(c.volume)).toEqual([sum(week1), sum(week2)]);
  });

  it("clamps intraday reads to Yahoo's history (60 days of 5m, 730 of 60m)", async () => {
    server.route('AAPL', byInterval({ '5m': chart(aaplMeta('5m'), []), '60m': chart(aaplMeta('60m'), []) }));
    const src = source();
    await src.candles({ asset_id: 'stock-aapl', timeframe: 'm5', limit: 100_000 });
    await src.candles({ asset_id: 'stock-aapl', timeframe: 'h4', limit: 100_000 });
    const [m5, h4] = server.requests.map((r) => Number(r.params.get('period1')) * 1000);
    expect(m5).toBeGreaterThanOrEqual(NOW - 60 * DAY);
    expect(m5).toBeLessThan(NOW - 50 * DAY);
    expect(h4).toBeGreaterThanOrEqual(NOW - 730 * DAY);
    expect(h4).toBeLessThan(NOW - 700 * DAY);
  });

  it('does not ask for intraday candles older than Yahoo keeps', async () => {
    server.route('AAPL', () => chart(aaplMeta('5m'), []));
    const series = await source().candles({ asset_id: 'stock-aapl', timeframe: 'm5', limit: 10, end: NOW - 90 * DAY });
    expect(series.candles.time.length).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('serves candles opened before `end`', async () => {
    server.route('AAPL', () => chart(aaplMeta('1d'), AAPL_DAYS));
    const series = await source().candles({
      asset_id: 'stock-aapl',
      timeframe: 'd1',
      limit: 2,
      end: Date.UTC(2025, 1, 18),
    });
    expect(Array.from(series.candles.time)).toEqual([Date.UTC(2025, 1, 13), Date.UTC(2025, 1, 14)]);
    expect(Number(server.requests[0].params.get('period2'))).toBe(sec(2025, 2, 18));
  });
});

describe('yahoo source: errors', () => {
  it('maps an unknown symbol (HTTP 404, chart error Not Found) to unknown_asset', async () => {
    const src = source({ symbols: ['ZZZZQ'] });
    const error = await venueError(src.candles({ asset_id: 'stock-zzzzq', timeframe: 'd1', limit: 5 }));
    expect(error.code).toBe('unknown_asset');
    expect(error.retryable).toBe(false);
    expect(error.venue).toBe('yahoo');
    expect(error.message).toContain('No data found');
    expect(server.requests.map((r) => r.symbol)).toEqual(['ZZZZQ']);
  });

  it('refuses assets it does not serve without asking Yahoo', async () => {
    const error = await venueError(source().candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 5 }));
    expect(error.code).toBe('unknown_asset');
    const wrongPair = await venueError(source().ticker({ asset_id: 'stock-aapl', pair: 'MSFT' }));
    expect(wrongPair.code).toBe('unknown_market');
    expect(server.requests).toHaveLength(0);
  });

  it('maps HTTP 429 to rate_limited with the Retry-After delay', async () => {
    server.route('AAPL', () => ({ status: 429, body: 'Too Many Requests', headers: { 'retry-after': '7' } }));
    const error = await venueError(source().candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 }));
    expect(error.code).toBe('rate_limited');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(7000);
  });

  it('maps HTTP 500 to a retryable network error and 503 to maintenance', async () => {
    server.route('AAPL', () => ({ status: 500, body: 'Internal Server Error' }));
    const e500 = await venueError(source().candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 }));
    expect(e500.code).toBe('network');
    expect(e500.retryable).toBe(true);
    server.route('AAPL', () => ({ status: 503, body: 'Service Unavailable' }));
    const e503 = await venueError(source().ticker({ asset_id: 'stock-aapl' }));
    expect(e503.code).toBe('maintenance');
    expect(e503.retryable).toBe(true);
  });

  it('times out when Yahoo answers later than timeoutMs', async () => {
    server.route('AAPL', () => ({ ...chart(aaplMeta('1d'), AAPL_DAYS), delayMs: 2_000 }));
    const started = Date.now();
    const error = await venueError(
      source({ timeoutMs: 100 }).candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 }),
    );
    expect(error.code).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('maps malformed JSON to a retryable network error', async () => {
    server.route('AAPL', () => ({ body: '{"chart":{"result":[{"meta":{"currency":"USD",' }));
    const error = await venueError(source().candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 }));
    expect(error.code).toBe('network');
    expect(error.retryable).toBe(true);
  });

  it('maps JSON of another shape to a retryable network error, never a TypeError', async () => {
    const shapes: unknown[] = [
      { chart: { result: [{ meta: { symbol: 'AAPL' } }], error: null } },
      { finance: { result: null, error: null } },
      {
        chart: {
          result: [
            {
              meta: aaplMeta('1d'),
              timestamp: [1, 2],
              indicators: { quote: [{ open: [1], high: [1], low: [1], close: [1], volume: [1] }] },
            },
          ],
          error: null,
        },
      },
      { chart: { result: [], error: null } },
    ];
    for (const body of shapes) {
      server.route('AAPL', () => ({ body }));
      const error = await venueError(source().candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 }));
      expect(error.code).toBe('network');
      // Retryable: the source is failing, so its circuit counts it and stored candles may serve.
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/yahoo AAPL 1d: (unexpected chart format|the answer holds no chart|quote arrays)/);
    }
  });

  it('maps a range Yahoo refuses (HTTP 422) to bad_request', async () => {
    server.route('AAPL', () => ({
      status: 422,
      body: {
        chart: {
          result: null,
          error: {
            code: 'Unprocessable Entity',
            description:
              '5m data not available for startTime=1 and endTime=2. The requested range must be within the last 60 days.',
          },
        },
      },
    }));
    const error = await venueError(source().candles({ asset_id: 'stock-aapl', timeframe: 'm5', limit: 5 }));
    expect(error.code).toBe('bad_request');
    expect(error.retryable).toBe(false);
  });

  it('refuses configured symbols it cannot serve', () => {
    expect(() => source({ symbols: ['GC=F'] })).toThrow(VenueError);
  });
});

describe('yahoo source: ticker, markets, assets', () => {
  it('builds the ticker from the chart meta and the daily closes', async () => {
    server.route('AAPL', () => chart(aaplMeta('1d'), AAPL_DAYS));
    const t = await source().ticker({ asset_id: 'stock-aapl' });
    expect(t).toMatchObject({
      venue: 'yahoo',
      pair: 'AAPL',
      asset_id: 'stock-aapl',
      market_type: 'spot',
      last: 244.87,
      bid: null,
      ask: null,
      change_1h_pct: null,
      volume_24h: 32129951,
      time: 1739998801000,
    });
    // Against the close of the 18th (the session before the 19th) and of the 12th (a week before).
    expect(t.change_24h_pct).toBeCloseTo((244.87 / 244.47000122070312 - 1) * 100, 10);
    expect(t.change_7d_pct).toBeCloseTo((244.87 / 236.8699951171875 - 1) * 100, 10);
    expect(t.quote_volume_usd).toBeCloseTo(32129951 * 244.87, 3);
    expect(server.requests[0].params.get('interval')).toBe('1d');
  });

  it('reports no volume for fx, where Yahoo sends 0', async () => {
    const rows: Row[] = [
      [sec(2025, 2, 18), 1.0482, 1.0494, 1.0432, 1.0482, 0],
      [sec(2025, 2, 19), 1.0451, 1.0458, 1.042, 1.0451, 0],
      [sec(2025, 2, 20), 1.0428, 1.0449, 1.0422, 1.0436, 0],
    ];
    server.route('EURUSD=X', () => chart(eurusdMeta('1d'), rows));
    const t = await source().ticker({ asset_id: 'fx-eurusd' });
    expect(t.pair).toBe('EURUSD=X');
    expect(t.last).toBe(1.0436);
    expect(t.volume_24h).toBeNull();
    expect(t.quote_volume_usd).toBeNull();
    expect(t.change_24h_pct).toBeCloseTo((1.0436 / 1.0451 - 1) * 100, 10);
  });

  it('lists one spot market per served asset, quoted in the meta currency', async () => {
    server.route('AAPL', () => chart(aaplMeta('1d'), AAPL_DAYS));
    server.route('OCDO.L', () => chart({ ...aaplMeta('1d'), symbol: 'OCDO.L', currency: 'GBp' }, []));
    const src = source({ symbols: ['OCDO.L'] });
    expect(await src.markets('stock-aapl')).toEqual([
      {
        venue: 'yahoo',
        pair: 'AAPL',
        asset_id: 'stock-aapl',
        market_type: 'spot',
        base: 'AAPL',
        quote: 'USD',
        settle: null,
      },
    ]);
    expect((await src.markets('stock-ocdo-l'))[0]).toMatchObject({ pair: 'OCDO.L', quote: 'GBX' });
    expect(await src.markets('fx-eurusd')).toEqual([
      {
        venue: 'yahoo',
        pair: 'EURUSD=X',
        asset_id: 'fx-eurusd',
        market_type: 'spot',
        base: 'EUR',
        quote: 'USD',
        settle: null,
      },
    ]);
    expect(await src.markets('bitcoin')).toEqual([]);
    expect(await src.fundingRate({ asset_id: 'stock-aapl' })).toBeNull();
    // The fx pair needs no request; the stocks one each.
    expect(server.requests.map((r) => r.symbol)).toEqual(['AAPL', 'OCDO.L']);
  });

  it('lists the built-in stocks and fx pairs plus the configured symbols', async () => {
    const src = source({ symbols: ['NVDA', '^GSPC', 'brk-b', 'EURUSD=X', 'SPY'] });
    const listed = await src.listAssets();
    const ids = listed.map((a) => a.definition.id);
    const builtin = BUILTIN_ASSETS.filter((a) => a.asset_class === 'stocks' || a.asset_class === 'fx').map((a) => a.id);
    expect(ids).toEqual([...builtin, 'index-gspc', 'stock-brk-b']);
    expect(ids).not.toContain('bitcoin');
    expect(listed.find((a) => a.definition.id === 'index-gspc')).toEqual({
      definition: { id: 'index-gspc', symbol: '^GSPC', name: '^GSPC', asset_class: 'stocks' },
      quote_volume_usd: null,
    });
    expect(listed.every((a) => a.quote_volume_usd === null)).toBe(true);
    expect(server.requests).toHaveLength(0);

    // What a read learned shows in the listing: the volume and the name from the meta.
    server.route('AAPL', () => chart(aaplMeta('1d'), AAPL_DAYS));
    server.route('^GSPC', () =>
      chart(
        { ...aaplMeta('1d'), symbol: '^GSPC', instrumentType: 'INDEX', longName: 'S&P 500', regularMarketVolume: 0 },
        [],
      ),
    );
    await src.ticker({ asset_id: 'stock-aapl' });
    await src.candles({ asset_id: 'index-gspc', timeframe: 'd1', limit: 5 });
    expect(server.requests.map((r) => r.symbol)).toEqual(['AAPL', '^GSPC']);
    const after = await src.listAssets();
    expect(after.find((a) => a.definition.id === 'stock-aapl')?.quote_volume_usd).toBeCloseTo(32129951 * 244.87, 3);
    expect(after.find((a) => a.definition.id === 'index-gspc')?.definition.name).toBe('S&P 500');
    expect(after.find((a) => a.definition.id === 'index-gspc')?.quote_volume_usd).toBeNull();
  });
});
