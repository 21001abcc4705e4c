/**
 * End to end on real-market sources: the built server (`dist/main.js`) started with a config
 * that names a loopback Binance (real ccxt client through `proxyUrl`, Binance's wire format) and a
 * loopback Yahoo chart API, and with a folder of the real series of ../shared/data.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, roundTripCostPct } from '@marketlens/core';
import { createCcxtSource, splitClosed } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir, sharedDataSkipReason } from '../../../core/src/testing/shared-data.js';
import { binanceRoutes } from '../../../exchanges/src/ccxt/testing/fixtures/binance.js';
import {
  startVenueServer,
  type VenueRequest,
  type VenueServer,
} from '../../../exchanges/src/ccxt/testing/venue-server.js';
import { chart, startYahooServer, type YahooServer } from '../../../exchanges/src/sources/yahoo/fixtures.js';
import { type Running, startMain, stop } from '../../test/support/main-process.js';
import { signalWire } from '../analysis/analysis.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A deterministic price path: the same open time always gives the same candle. */
function candleAt(symbol: string, t: number): [number, number, number, number, number, number] {
  const seed = [...symbol].reduce((a, ch) => a + ch.charCodeAt(0), 0);
  const k = t / HOUR;
  const mid = (symbol.startsWith('ETH') ? 3000 : 60_000) * (1 + 0.2 * Math.sin(k / 97 + seed) + 0.05 * Math.sin(k / 7));
  const open = mid * (1 + 0.01 * Math.sin(k / 3));
  const close = mid * (1 + 0.01 * Math.cos(k / 5));
  const high = Math.max(open, close) * 1.01;
  const low = Math.min(open, close) * 0.99;
  return [t, open, high, low, close, 100 + 50 * Math.abs(Math.sin(k))];
}

const STEP: Record<string, number> = {
  '1h': HOUR,
  '4h': 4 * HOUR,
  '1d': DAY,
  '1w': 7 * DAY,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
};

/** Binance klines for any window asked, in Binance's row shape, up to the live candle. */
function klines(request: VenueRequest): unknown[] {
  const q = request.url.searchParams;
  const symbol = q.get('symbol') ?? '';
  const step = STEP[q.get('interval') ?? '1h'];
  const limit = Number(q.get('limit') ?? 500);
  const now = Date.now();
  const end = Math.min(Number(q.get('endTime') ?? now), now);
  let start = q.get('startTime') === null ? end - (limit - 1) * step : Number(q.get('startTime'));
  start = Math.ceil(start / step) * step;
  const rows: unknown[] = [];
  for (let t = start; t <= end && rows.length < limit; t += step) {
    const [time, o, h, l, c, v] = candleAt(symbol, t);
    rows.push([
      time,
      o.toFixed(2),
      h.toFixed(2),
      l.toFixed(2),
      c.toFixed(2),
      v.toFixed(5),
      time + step - 1,
      '0',
      1,
      '0',
      '0',
      '0',
    ]);
  }
  return rows;
}

describe('the server on real-market sources (loopback Binance and Yahoo)', () => {
  let venue: VenueServer;
  let yahoo: YahooServer;
  let server: Running | undefined;
  const get = (path: string) => fetch(`${server?.url}${path}`, { headers: { 'x-session-token': server?.token ?? '' } });
  const klineCalls = (symbol: string, interval: string) =>
    venue.requests.filter(
      (r) =>
        r.url.pathname === '/api/v3/klines' &&
        r.url.searchParams.get('symbol') === symbol &&
        r.url.searchParams.get('interval') === interval,
    ).length;

  beforeAll(async () => {
    venue = await startVenueServer();
    venue.routes(binanceRoutes());
    venue.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/klines',
      reply: (r) => ({ body: klines(r) }),
    });
    yahoo = await startYahooServer();
    yahoo.route('AAPL', (r) => {
      const p1 = Number(r.params.get('period1') ?? 0) * 1000;
      const p2 = Math.min(Number(r.params.get('period2') ?? Date.now() / 1000) * 1000, Date.now());
      const rows = [];
      for (let t = Math.ceil(p1 / DAY) * DAY; t <= p2; t += DAY) {
        const [, o, h, l, c, v] = candleAt('AAPL', t);
        rows.push([t / 1000 + 14.5 * 3600, o / 300, h / 300, l / 300, c / 300, Math.round(v * 1000)] as const);
      }
      return chart(
        {
          currency: 'USD',
          symbol: 'AAPL',
          exchangeName: 'NMS',
          instrumentType: 'EQUITY',
          gmtoffset: -18000,
          timezone: 'EST',
          exchangeTimezoneName: 'America/New_York',
          regularMarketPrice: (rows.at(-1)?.[4] as number) ?? 1,
          chartPreviousClose: (rows.at(-2)?.[4] as number) ?? 1,
          regularMarketTime: Math.floor(Date.now() / 1000),
          dataGranularity: r.params.get('interval') ?? '1d',
        },
        rows,
      );
    });
    server = await startMain({
      market: [
        { source: 'ccxt:binance', proxyUrl: venue.proxyUrl },
        { source: 'yahoo', baseUrl: yahoo.baseUrl },
      ],
      marketBackfill: 500,
      marketRefreshMs: 0,
      marketWarmMs: 0,
      // The backtest record's job reads the same series in the background; a read of it started
      // during the outage is shared by the request right after recovery (one upstream call per
      // series), which is then served stale. The outage test is about requests alone.
      backtestIntervalMs: 0,
      // 200 concurrent analyses from one address are 4,000 units: above the default budget.
      rateLimit: 10_000,
    });
  }, 60_000);

  afterAll(async () => {
    await stop(server);
    await venue?.close();
    await yahoo?.close();
  });

  it('publishes core analyze() of the venue candles, saying where they come from', async () => {
    const res = await get('/v2/analysis/bitcoin?limit=400');
    const body = (await res.json()) as { data: Record<string, unknown> & { signal: unknown; indicators: unknown } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ venue: 'binance', data_source: 'ccxt:binance', stale: false, pair: 'BTCUSDT' });
    const direct = await createCcxtSource({ venue: 'binance', proxyUrl: venue.proxyUrl, rateLimit: false });
    // The server analyses the newest 400 closed candles (the live day is reported beside them).
    const series = await direct.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 401 });
    const { closed } = splitClosed(series.candles, 'd1', Date.now(), 400);
    expect(closed.time.length).toBe(400);
    const funding = await direct.fundingRate({ asset_id: 'bitcoin' });
    const expected = analyze(closed, {
      market: { funding: funding?.rate ?? null },
      plan: { costPct: roundTripCostPct({ assetClass: 'coins' }) },
    });
    expect(body.data.indicators).toEqual(JSON.parse(JSON.stringify(expected.indicators)));
    // As published: the declined plan's time is an ISO date-time (signalWire).
    expect(body.data.signal).toEqual(JSON.parse(JSON.stringify(signalWire(expected.signal))));
    expect(body.data.as_of).toBe(new Date(expected.as_of).toISOString());
  });

  it('makes one upstream call for 200 concurrent requests of a cold series', async () => {
    const before = klineCalls('ETHUSDT', '1d');
    const answers = await Promise.all(Array.from({ length: 200 }, () => get('/v2/analysis/ethereum')));
    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(klineCalls('ETHUSDT', '1d') - before).toBe(1);
  });

  it('serves stale candles through an outage, 503 SourceUnavailable with nothing stored, and recovers', async () => {
    expect((await get('/v2/analysis/bitcoin?limit=300')).status).toBe(200);
    // Binance down: its load balancer's 503 page, on every klines call.
    venue.reset();
    venue.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/klines',
      reply: () => ({ status: 503, body: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>' }),
    });
    const stale = await get('/v2/analysis/bitcoin?limit=310');
    const body = (await stale.json()) as { data: { stale: boolean } };
    expect(stale.status, JSON.stringify(body)).toBe(200);
    expect(body.data.stale).toBe(true);
    const none = await get('/v2/analysis/solana');
    expect(none.status).toBe(503);
    expect(await none.json()).toMatchObject({ success: false, code: 'SourceUnavailable' });
    venue.reset();
    venue.override({
      method: 'GET',
      host: 'api.binance.com',
      path: '/api/v3/klines',
      reply: (r) => ({ body: klines(r) }),
    });
    const back = await get('/v2/analysis/bitcoin?limit=320');
    expect(back.status).toBe(200);
    expect(((await back.json()) as { data: { stale: boolean } }).data.stale).toBe(false);
  });

  it('serves stocks from Yahoo, and refuses assets no source has', async () => {
    const aapl = await get('/v2/analysis/stock-aapl?limit=200');
    const body = (await aapl.json()) as { data: Record<string, unknown> };
    expect(aapl.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ data_source: 'yahoo', venue: 'yahoo', pair: 'AAPL' });
    const unknown = await get('/v2/analysis/onchain-ethereum-pepe');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: 'UnknownAsset' });
    const assets = (await (await get('/v2/assets/?limit=500')).json()) as {
      data: { id: string }[] | { items: { id: string }[] };
    };
    const ids = JSON.stringify(assets.data);
    expect(ids).toContain('"bitcoin"');
    expect(ids).not.toContain('onchain-');
  });
});

describe.skipIf(!sharedDataDir)(`the server on files:DIR (skips when ${sharedDataSkipReason})`, () => {
  let server: Running | undefined;
  afterAll(() => stop(server));

  it('serves the real series of ../shared/data', async () => {
    const data = sharedDataDir ?? '';
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-files-'));
    for (const [id, tf, file] of [
      ['stock-nvda', 'd1', 'nvda-1999-2014-d1.csv'],
      ['stock-orcl', 'd1', 'orcl-1995-2014-d1.csv'],
      ['ripple', 'h1', 'xrp-usdt-perp-h1.json'],
    ] as const) {
      mkdirSync(join(dir, id));
      symlinkSync(join(data, file), join(dir, id, `${tf}.${file.endsWith('.json') ? 'json' : 'csv'}`));
    }
    server = await startMain({}, { MARKETLENS_MARKET: `files:${dir}` });
    const res = await fetch(`${server.url}/v2/analysis/stock-nvda`, { headers: { 'x-session-token': server.token } });
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ data_source: `files:${dir}`, venue: 'files', stale: false });
    expect(String(body.data.as_of)).toMatch(/^2014-/);
    const btc = await fetch(`${server.url}/v2/analysis/bitcoin`, { headers: { 'x-session-token': server.token } });
    expect(btc.status).toBe(400);
  });
});
