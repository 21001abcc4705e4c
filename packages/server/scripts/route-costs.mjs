#!/usr/bin/env node
// What each market-data route costs to serve, in milliseconds of one core, measured in process on
// the embedded simulated venue, against the cheapest route (`GET /v2/config`) in the same run.
// Two figures per route:
//   cold  every request names what no cache holds yet (another asset, timeframe or depth), which a
//         caller can always do where the route's cache key is theirs to choose;
//   warm  the same request again, served from the route's cache.
// The rate-limit weights (src/platform/rate-limit/weights.ts) charge one unit per started
// millisecond of the figure a caller controls (cold for per-asset routes, warm for routes whose
// cache is per asset class and shared by everyone), so the 2,000-unit budget bounds CPU per address.
// Needs `pnpm build`.   node scripts/route-costs.mjs [--runs 15]
import { createSimulatedVenue } from '@marketlens/exchanges';
import { createApp, createSqliteStorage, DEFAULT_CONFIG, RATE_LIMIT_WEIGHTS, seedDemo } from '../dist/index.js';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;

const storage = createSqliteStorage(':memory:');
const now = () => Date.UTC(2026, 0, 15, 12);
const market = createSimulatedVenue({ now });
const app = createApp(
  { storage, config: { ...DEFAULT_CONFIG, rateLimit: { limit: 1e9, windowMs: 60_000 } }, now, market },
  { logError: () => {} },
);
const demo = await seedDemo(storage, now());
// Pro, so that every timeframe and depth is served rather than refused.
const { grantUserTier } = await import('../dist/index.js');
await grantUserTier(storage, demo.email, 'pro', 30, 'admin', now());
const headers = { 'x-session-token': demo.session_token };
const assets = (await market.listAssets?.())?.map((a) => a.id) ?? [];
const coins = assets.length > 0 ? assets : ['bitcoin', 'ethereum', 'solana', 'ripple', 'cardano', 'dogecoin'];

async function time(path) {
  const t = process.hrtime.bigint();
  const res = await app.request(path, { headers }, { incoming: { socket: { remoteAddress: '192.0.2.1' } } });
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`${path}: ${res.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const TIMEFRAMES = ['d1', 'h4', 'h1', 'm30', 'm15', 'm5', 'w1'];
/** A path no cache holds yet, `i`-th of its kind. */
const cases = [
  ['GET /v2/config', () => '/v2/config'],
  [
    'GET /v2/analysis/:asset_id',
    (i) => `/v2/analysis/${coins[i % coins.length]}?timeframe=${TIMEFRAMES[i % 7]}&limit=${1000 + i}`,
  ],
  [
    'GET /v2/analysis/:asset_id/signal',
    (i) => `/v2/analysis/${coins[i % coins.length]}/signal?timeframe=${TIMEFRAMES[i % 7]}&limit=${2000 + i}`,
  ],
  [
    'GET /v2/analysis/:asset_id/overview',
    (i) => `/v2/analysis/${coins[i % coins.length]}/overview?timeframe=${TIMEFRAMES[i % 7]}&limit=${3000 + i}`,
  ],
  ['GET /v2/assets/screener', (i) => `/v2/assets/screener?asset_class=${['coins', 'stocks', 'fx', 'all'][i % 4]}`],
  [
    'GET /v2/assets/signals',
    (i) =>
      `/v2/assets/signals?timeframe=${['d1', 'h1', 'm15'][i % 3]}&asset_class=${['coins', 'stocks', 'fx', 'all'][i % 4]}`,
  ],
  ['GET /v2/insights', () => '/v2/insights'],
  ['GET /v2/insights/fear_greed', () => '/v2/insights/fear_greed'],
  ['GET /v2/assets/', () => '/v2/assets/?asset_class=all'],
];

const rows = [];
for (const [route, path] of cases) {
  await time(path(1000)); // load the code paths once
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    cold.push(await time(path(i)));
    warm.push(await time(path(i)));
  }
  rows.push({ route, cold: median(cold), warm: median(warm), weight: RATE_LIMIT_WEIGHTS[route] ?? 1 });
}
const base = rows[0].warm;
console.log(`route costs, median of ${RUNS}, ms of one core (x: against GET /v2/config warm, ${base.toFixed(3)} ms)`);
console.log(
  'route'.padEnd(40),
  'cold ms'.padStart(9),
  'warm ms'.padStart(9),
  'cold x'.padStart(8),
  'weight'.padStart(7),
);
for (const r of rows) {
  console.log(
    r.route.padEnd(40),
    r.cold.toFixed(2).padStart(9),
    r.warm.toFixed(2).padStart(9),
    (r.cold / base).toFixed(0).padStart(8),
    String(r.weight).padStart(7),
  );
}
await storage.close();
