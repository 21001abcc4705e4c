#!/usr/bin/env node
// Market data through the candle store, in one run (needs `pnpm build`: reads the dist of core,
// exchanges and server):
//   1. warm     `market.candles()` + core `analyze()` of a 500-candle d1 and h1 series, (a) from
//               createMarketSources whose store (SQLite, createSqliteStorage) already holds the
//               series within refreshMs, at the server's default depth (backfill 5,000) and at the
//               analysis depth (backfill 500), and (b) from createSimulatedVenue() directly. The
//               source behind the store is the simulated venue itself, so every path analyses the
//               same candles and only where they come from differs. Interleaved rounds, medians;
//               also candles() alone and the store's get() alone. Target: (a) within 10% of (b).
//   2. cold     a series never read before, through the composite and the SQLite store, from a
//               loopback Binance (a child process speaking Binance's REST shapes) via real ccxt
//               HTTP (ccxt's `proxyUrl`): wall time per series over --series series, with backfill
//               5,000 (5 kline pages of 1,000) and 500, with ccxt's request throttle on (what the
//               server runs) and off.
//   3. size     the SQLite candle store holding --assets assets x 7 timeframes x 5,000 candles:
//               file size after a WAL checkpoint, bytes per candle, write time, read time of one
//               series (median of 1,000 random gets). --quick: 100 assets, scaled to 1,000.
// Prints a table per part; exits 0 (a report, not a test).
//   node scripts/bench-market.mjs [--quick] [--assets 1000] [--series 20] [--rounds 15] [--parts 1,2,3]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const flag = (name) => process.argv.includes(`--${name}`);
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP = { '5m': 300_000, '15m': 900_000, '30m': 1_800_000, '1h': HOUR, '4h': 4 * HOUR, '1d': DAY };
const CHART_DEPTH = 5_000;
const TIMEFRAMES = ['m5', 'm15', 'm30', 'h1', 'h4', 'd1', 'w1'];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (x, digits = 0) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// ---------------------------------------------------------------------------------------------
// The loopback Binance (child process, so its work runs beside the client, not inside its loop)
// ---------------------------------------------------------------------------------------------

/** A deterministic price path: the same (symbol, open time) always gives the same candle. */
function candleAt(seed, level, t) {
  const k = t / HOUR;
  const mid = level * (1 + 0.2 * Math.sin(k / 97 + seed) + 0.05 * Math.sin(k / 7));
  const open = mid * (1 + 0.01 * Math.sin(k / 3));
  const close = mid * (1 + 0.01 * Math.cos(k / 5));
  return [t, open, Math.max(open, close) * 1.01, Math.min(open, close) * 0.99, close, 100 + 50 * Math.abs(Math.sin(k))];
}

/** `GET /api/v3/klines`: rows from startTime forward (or the newest ones up to endTime), at most limit, up to now. */
function klines(q) {
  const symbol = q.get('symbol') ?? '';
  const step = STEP[q.get('interval') ?? '1h'];
  if (step === undefined) return { status: 400, body: { code: -1120, msg: 'Invalid interval.' } };
  const seed = [...symbol].reduce((a, ch) => a + ch.charCodeAt(0), 0);
  const level = 10 + (seed % 997) * 37;
  const limit = Math.min(Number(q.get('limit') ?? 500), 1000);
  const now = Date.now();
  const end = Math.min(Number(q.get('endTime') ?? now), now);
  let start = q.get('startTime') === null ? end - (limit - 1) * step : Number(q.get('startTime'));
  start = Math.ceil(start / step) * step;
  const rows = [];
  for (let t = start; t <= end && rows.length < limit; t += step) {
    const [time, o, h, l, c, v] = candleAt(seed, level, t);
    rows.push([time, o.toFixed(2), h.toFixed(2), l.toFixed(2), c.toFixed(2), v.toFixed(5), time + step - 1, '0', 1]);
  }
  return { body: rows };
}

async function serveVenue() {
  const { BUILTIN_ASSETS } = await import('@marketlens/exchanges');
  const coins = BUILTIN_ASSETS.filter((a) => a.asset_class === 'coins' && !a.is_stablecoin).slice(0, 40);
  const info = (symbols) => ({ timezone: 'UTC', serverTime: Date.now(), rateLimits: [], exchangeFilters: [], symbols });
  const spot = info(
    coins.map((a) => ({
      symbol: `${a.symbol}USDT`,
      status: 'TRADING',
      baseAsset: a.symbol,
      quoteAsset: 'USDT',
      baseAssetPrecision: 8,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      orderTypes: ['LIMIT', 'MARKET'],
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [],
      permissions: [],
      permissionSets: [['SPOT']],
    })),
  );
  const tickers = coins.map((a, i) => ({
    symbol: `${a.symbol}USDT`,
    lastPrice: '100.00000000',
    volume: '1000.00000000',
    quoteVolume: String(1e9 / (i + 1)),
    openTime: Date.now() - DAY,
    closeTime: Date.now(),
  }));
  const stats = { requests: 0, klines: 0, rows: 0, bytes: 0, ms: 0 };
  const routes = {
    'api.binance.com/api/v3/exchangeInfo': () => ({ body: spot }),
    'fapi.binance.com/fapi/v1/exchangeInfo': () => ({ body: info([]) }),
    'dapi.binance.com/dapi/v1/exchangeInfo': () => ({ body: info([]) }),
    'api.binance.com/api/v3/ticker/24hr': () => ({ body: tickers }),
    'api.binance.com/api/v3/klines': (q) => klines(q),
  };
  const server = createServer((req, res) => {
    const t0 = performance.now();
    // ccxt's proxyUrl: GET /<target URL>, URI-encoded when it has a query.
    const rest = (req.url ?? '/').slice(1);
    let url = null;
    try {
      url = new URL(/^https?%3A/i.test(rest) ? decodeURIComponent(rest) : rest);
    } catch {}
    const route = url === null ? undefined : routes[url.host + url.pathname];
    const reply =
      route === undefined ? { status: 404, body: { msg: `no route for ${req.url}` } } : route(url.searchParams);
    const body = JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
    res.end(body);
    stats.requests++;
    if (url?.pathname === '/api/v3/klines') {
      stats.klines++;
      stats.rows += Array.isArray(reply.body) ? reply.body.length : 0;
      stats.bytes += body.length;
      stats.ms += performance.now() - t0;
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (m) => {
    if (m === 'stats') process.send({ stats: { ...stats } });
  });
  process.on('disconnect', () => server.close());
  process.send({ proxyUrl: `http://127.0.0.1:${server.address().port}/`, coins: coins.map((a) => a.id) });
}

function startVenue() {
  const child = fork(fileURLToPath(import.meta.url), ['venue'], { stdio: 'inherit' });
  const ready = new Promise((resolve) => child.once('message', resolve));
  const stats = () =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve(m.stats));
      child.send('stats');
    });
  return { child, ready, stats };
}

// ---------------------------------------------------------------------------------------------
// 1. Warm analysis: from the SQLite store vs the simulated venue
// ---------------------------------------------------------------------------------------------

/** The simulated venue as a market source (what `testSource` in the exchanges tests does). */
function simulatedSource(venue, BUILTIN_ASSETS, ids) {
  return {
    source: 'bench:simulated',
    venue: venue.venue,
    candles: (r) => venue.candles(r),
    ticker: (r) => venue.ticker(r),
    fundingRate: (r) => venue.fundingRate(r),
    markets: (id) => venue.markets(id),
    listAssets: async () =>
      BUILTIN_ASSETS.filter((a) => ids.includes(a.id)).map((definition) => ({ definition, quote_volume_usd: null })),
  };
}

/**
 * Microseconds per op of each case: after a warm-up (every case run for `warmMs`, so the JIT has
 * settled), `rounds` interleaved rounds (the order flips every round so drift and the machine's
 * other tenants land on all cases), each `n` sequential ops. Returns the median and the spread of
 * the per-round means.
 */
async function interleaved(cases, rounds, warmMs = 500) {
  for (const c of cases) {
    const until = performance.now() + warmMs;
    while (performance.now() < until) await c.op();
  }
  // About 150 ms per round of the first case.
  const t0 = performance.now();
  for (let k = 0; k < 10; k++) await cases[0].op();
  const n = Math.max(10, Math.round(150 / ((performance.now() - t0) / 10)));
  const per = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? cases.map((_, i) => i) : cases.map((_, i) => cases.length - 1 - i);
    for (const i of order) {
      const t = performance.now();
      for (let k = 0; k < n; k++) await cases[i].op();
      per[i].push(((performance.now() - t) * 1000) / n);
    }
  }
  return { n, per, results: per.map((xs) => ({ us: median(xs), lo: Math.min(...xs), hi: Math.max(...xs) })) };
}

async function warmAnalysis(ml, rounds) {
  const { analyze } = ml.core;
  const { createSimulatedVenue, createMarketSources, BUILTIN_ASSETS } = ml.exchanges;
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-market-'));
  const storage = ml.server.createSqliteStorage(join(dir, 'marketlens.db'), { candles: { maxBytes: 4 * 1024 ** 3 } });
  const reads = { hit: 0, miss: 0, stale: 0 };
  const venue = createSimulatedVenue();
  // Two composites on the one SQLite store: the server's default depth (marketBackfill 5,000, the
  // deepest chart) and a store kept at the analysis depth (500). refreshMs long enough that every
  // timed read is warm (the server's 30 s would refresh a series at most twice a minute).
  const stores = [];
  for (const backfill of [CHART_DEPTH, 500]) {
    const source = simulatedSource(createSimulatedVenue(), BUILTIN_ASSETS, ['bitcoin']);
    source.source = `bench:simulated-${backfill}`;
    const market = await createMarketSources({
      sources: [source],
      store: storage.candles,
      stored: { backfill, refreshMs: 3_600_000, onRead: (r) => reads[r]++ },
    });
    stores.push({ backfill, source: source.source, market });
  }
  const rows = [];
  let sink = 0;
  let same = true;
  for (const timeframe of ['d1', 'h1']) {
    const request = { asset_id: 'bitcoin', timeframe, limit: 500 };
    const simulated = await venue.candles(request);
    for (const s of stores) {
      await s.market.candles(request); // the backfill: served from the store from here on
      const served = await s.market.candles(request);
      const key = { source: s.source, instrument: 'bitcoin@spot', timeframe };
      s.depth = (await storage.candles.get(key)).candles.time.length;
      same &&= served.candles.time.length === 500 && served.candles.time[0] === simulated.candles.time[0];
      s.get = async () => {
        sink += (await storage.candles.get(key)).candles.time.length;
      };
    }
    const full = (m) => async () => {
      const s = await m.candles(request);
      sink += analyze(s.candles).as_of_index;
    };
    const only = (m) => async () => {
      sink += (await m.candles(request)).candles.close[499];
    };
    // Each store path against the simulated venue in its own interleaved pairs (so one path's
    // garbage is not charged to the other store path); the ratio is the median of the per-round
    // ratios. Then candles() alone and the store's get() alone, interleaved.
    const sim = [];
    for (const s of stores) {
      const { n, per, results } = await interleaved([{ op: full(s.market) }, { op: full(venue) }], rounds);
      const ratios = per[0].map((x, r) => x / per[1][r]);
      rows.push({ timeframe, name: `store (${fmt(s.depth)} stored)`, full: results[0], n, ratio: median(ratios) });
      sim.push(...per[1]);
    }
    rows.push({
      timeframe,
      name: 'simulated venue',
      full: { us: median(sim), lo: Math.min(...sim), hi: Math.max(...sim) },
      ratio: null,
    });
    const alone = await interleaved(
      [...stores.map((s) => ({ op: only(s.market) })), { op: only(venue) }, ...stores.map((s) => ({ op: s.get }))],
      rounds,
    );
    const k = stores.length;
    const added = rows.slice(-k - 1);
    added.forEach((row, i) => {
      row.only = alone.results[i];
      row.get = i < k ? alone.results[k + 1 + i] : null;
    });
  }
  for (const s of stores) s.market.close();
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
  if (sink === Number.NEGATIVE_INFINITY) console.log(sink);

  console.log('\n## 1. Warm analysis: market.candles() + analyze() of 500 candles, SQLite store vs simulated venue\n');
  console.log(
    `bitcoin spot; after a warm-up, ${rounds} interleaved rounds of each store path against the simulated venue: µs per op = median of the per-round means [min-max of them], ratio = median of the per-round ratios; candles() and get() alone: a separate interleaved run\n`,
  );
  console.log(
    '| series | path | candles + analyze µs | ratio | verdict (<= 1.10) | candles() µs | of which store.get() µs |',
  );
  console.log('|---|---|---:|---:|---|---:|---:|');
  const spread = (x) => `${fmt(x.us, 1)} [${fmt(x.lo, 0)}-${fmt(x.hi, 0)}]`;
  for (const r of rows) {
    const verdict = r.ratio === null ? '' : r.ratio <= 1.1 ? 'PASS' : 'MISS';
    console.log(
      `| ${r.timeframe} | ${r.name} | ${spread(r.full)} | ${r.ratio === null ? '1' : r.ratio.toFixed(3)} | ${verdict} | ${spread(r.only)} | ${r.get === null ? '' : spread(r.get)} |`,
    );
  }
  console.log(
    `\nstore reads: ${reads.miss} misses (the backfills), ${reads.stale} stale, ${fmt(reads.hit)} hits; ` +
      `same candles on every path: ${same ? 'yes' : 'NO'}; ops per case per round: ${rows
        .filter((r) => r.n !== undefined)
        .map((r) => r.n)
        .join(', ')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Cold fetch: a new series through the composite + SQLite store from the loopback Binance
// ---------------------------------------------------------------------------------------------

async function coldFetch(ml, venue, count) {
  const { createCcxtSource, createMarketSources, createMemoryCandleStore } = ml.exchanges;
  const { proxyUrl, coins } = await venue.ready;
  const tfs = ['h1', 'd1'];
  // Series never read before: (coin, timeframe), the first coin kept back for the warm-up read.
  const series = [];
  for (const id of coins.slice(1)) for (const timeframe of tfs) series.push({ asset_id: id, timeframe, limit: 500 });
  const measured = series.slice(0, count);
  const rows = [];
  for (const throttle of [true, false]) {
    // One ccxt client per setting, markets loaded once (not a per-series cost), JIT warmed on one read.
    const source = await createCcxtSource({ venue: 'binance', proxyUrl, rateLimit: throttle });
    const warm = await createMarketSources({ sources: [source], store: createMemoryCandleStore() });
    await warm.candles({ asset_id: coins[0], timeframe: 'h1', limit: 500 });
    await warm.candles({ asset_id: coins[0], timeframe: 'd1', limit: 500 });
    warm.close();
    for (const backfill of [5_000, 500]) {
      const dir = mkdtempSync(join(tmpdir(), 'ml-bench-market-'));
      const storage = ml.server.createSqliteStorage(join(dir, 'marketlens.db'), {
        candles: { maxBytes: 4 * 1024 ** 3 },
      });
      const reads = { hit: 0, miss: 0, stale: 0 };
      const market = await createMarketSources({
        sources: [source],
        store: storage.candles,
        stored: { backfill, onRead: (r) => reads[r]++ },
      });
      const before = await venue.stats();
      const ms = [];
      let candles = 0;
      for (const request of measured) {
        const t = performance.now();
        const s = await market.candles(request);
        ms.push(performance.now() - t);
        candles += s.candles.time.length;
      }
      const after = await venue.stats();
      const stored = storage.candles.bytes() / 48;
      market.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
      if (reads.miss !== measured.length || candles !== 500 * measured.length) {
        throw new Error(`cold fetch: ${reads.miss} misses, ${candles} candles served`);
      }
      const k = after.klines - before.klines;
      rows.push({
        throttle,
        backfill,
        ms,
        pages: k / measured.length,
        serverMs: (after.ms - before.ms) / measured.length,
        kb: (after.bytes - before.bytes) / measured.length / 1024,
        stored: stored / measured.length,
      });
    }
  }
  console.log(
    `\n## 2. Cold fetch: a series never read, composite + SQLite store <- ccxt binance <- loopback HTTP, limit 500\n`,
  );
  console.log(
    `${measured.length} series (${measured.length / tfs.length} coins x ${tfs.join(', ')}), one at a time; ms per series\n`,
  );
  console.log(
    '| ccxt throttle | backfill | median ms | mean ms | p90 ms | min-max ms | kline pages / series | KiB / series | loopback server ms / series | candles stored / series |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.throttle ? 'on (server default)' : 'off'} | ${fmt(r.backfill)} | ${fmt(median(r.ms), 1)} | ${fmt(mean(r.ms), 1)} | ${fmt(quantile(r.ms, 0.9), 1)} | ${fmt(Math.min(...r.ms), 1)}-${fmt(Math.max(...r.ms), 1)} | ${fmt(r.pages, 1)} | ${fmt(r.kb)} | ${fmt(r.serverMs, 1)} | ${fmt(r.stored)} |`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Store size at full chart depth
// ---------------------------------------------------------------------------------------------

/** A 5,000-candle series of `timeframe` ending now, prices scaled by `level` (values do not change the size). */
function template(TIMEFRAME_MS, timeframe) {
  const step = TIMEFRAME_MS[timeframe];
  const last = Math.floor(Date.now() / step) * step;
  const c = {};
  for (const k of ['time', 'open', 'high', 'low', 'close', 'volume']) c[k] = new Float64Array(CHART_DEPTH);
  for (let i = 0; i < CHART_DEPTH; i++) {
    const [t, o, h, l, cl, v] = candleAt(7, 100, last - (CHART_DEPTH - 1 - i) * step);
    c.time[i] = t;
    c.open[i] = o;
    c.high[i] = h;
    c.low[i] = l;
    c.close[i] = cl;
    c.volume[i] = v;
  }
  return c;
}

function scaled(c, f) {
  const out = { time: c.time };
  for (const k of ['open', 'high', 'low', 'close', 'volume']) out[k] = c[k].map((x) => x * f);
  return out;
}

async function storeSize(ml, assets) {
  const { TIMEFRAME_MS } = ml.exchanges;
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-market-'));
  const file = join(dir, 'marketlens.db');
  const storage = ml.server.createSqliteStorage(file, { candles: { maxBytes: 64 * 1024 ** 3 } });
  const store = storage.candles;
  const templates = Object.fromEntries(TIMEFRAMES.map((tf) => [tf, template(TIMEFRAME_MS, tf)]));
  const keys = [];
  let writeMs = 0;
  const wall = performance.now();
  for (let a = 0; a < assets; a++) {
    const instrument = `asset-${String(a).padStart(4, '0')}@spot`;
    for (const timeframe of TIMEFRAMES) {
      const candles = scaled(templates[timeframe], 1 + a / 100);
      const key = { source: 'ccxt:binance', instrument, timeframe };
      const t = performance.now();
      await store.put(key, {
        venue: 'binance',
        pair: `A${a}USDT`,
        market_type: 'spot',
        candles,
        fetched_at: Date.now(),
        complete: false,
      });
      writeMs += performance.now() - t;
      keys.push(key);
    }
  }
  const wallMs = performance.now() - wall;
  const t = performance.now();
  storage.db.pragma('wal_checkpoint(TRUNCATE)');
  const checkpointMs = performance.now() - t;
  const size = (f) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  const main = size(file);
  const wal = size(`${file}-wal`);
  const shm = size(`${file}-shm`);
  // One series read: 1,000 random gets (SQLite select + decode of the 240,000-byte blob).
  const gets = [];
  let rows = 0;
  for (let i = 0; i < 1_000; i++) {
    const key = keys[Math.floor(Math.random() * keys.length)];
    const t0 = process.hrtime.bigint();
    const s = await store.get(key);
    gets.push(Number(process.hrtime.bigint() - t0) / 1000);
    rows += s.candles.time.length;
  }
  const stored = store.bytes();
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
  if (rows !== 1_000 * CHART_DEPTH) throw new Error(`store size: read ${rows} rows`);

  const series = assets * TIMEFRAMES.length;
  const candles = series * CHART_DEPTH;
  const total = main + wal + shm;
  const scale = 1_000 / assets;
  const mib = (b) => fmt(b / 1024 ** 2, 1);
  console.log(
    `\n## 3. Store size: ${fmt(assets)} assets x ${TIMEFRAMES.length} timeframes x ${fmt(CHART_DEPTH)} candles (${fmt(series)} series, ${fmt(candles)} candles)\n`,
  );
  console.log('| measure | value |\n|---|---:|');
  console.log(`| database file after wal_checkpoint(TRUNCATE) | ${mib(main)} MiB |`);
  console.log(`| -wal / -shm | ${mib(wal)} / ${mib(shm)} MiB |`);
  console.log(`| candle blobs (store.bytes(): 48 B per candle) | ${mib(stored)} MiB |`);
  console.log(`| bytes per candle on disk | ${(total / candles).toFixed(2)} |`);
  console.log(
    `| write all (sum of put(); wall incl. making the series) | ${fmt(writeMs / 1000, 1)} s (${fmt(wallMs / 1000, 1)} s) |`,
  );
  console.log(`| per series put() | ${fmt((writeMs * 1000) / series)} µs |`);
  console.log(`| checkpoint | ${fmt(checkpointMs)} ms |`);
  console.log(
    `| one series get() (5,000 candles), 1,000 random: median / p90 / p99 | ${fmt(median(gets))} / ${fmt(quantile(gets, 0.9))} / ${fmt(quantile(gets, 0.99))} µs |`,
  );
  if (scale !== 1) {
    console.log(
      `| scaled to 1,000 assets (x${scale}): file / write time | ${fmt((total * scale) / 1024 ** 3, 2)} GiB / ${fmt((writeMs * scale) / 1000, 1)} s |`,
    );
  }
}

async function main() {
  if (process.argv[2] === 'venue') return serveVenue();
  const quick = flag('quick');
  const assets = arg('assets', quick ? 100 : 1_000);
  const count = arg('series', 20);
  const rounds = arg('rounds', 15);
  const i = process.argv.indexOf('--parts');
  const parts = i > 0 ? process.argv[i + 1].split(',') : ['1', '2', '3'];
  const ml = {
    core: await import('@marketlens/core'),
    exchanges: await import('@marketlens/exchanges'),
    server: await import('../dist/index.js'),
  };
  console.log(`node ${process.version}, ${process.platform} ${process.arch}; ${new Date().toISOString()}`);
  if (parts.includes('1')) await warmAnalysis(ml, rounds);
  if (parts.includes('2')) {
    const venue = startVenue();
    try {
      await coldFetch(ml, venue, count);
    } finally {
      venue.child.disconnect();
    }
  }
  if (parts.includes('3')) await storeSize(ml, assets);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
