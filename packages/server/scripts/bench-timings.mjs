#!/usr/bin/env node
// The timings the tests no longer assert (a test counts the work; a clock on a shared machine only
// adds noise), measured here in one process on the app's real route table:
//   openapi   GET /docs/openapi.json: the first answer (generates the document) against the cached
//             answers after it, per request. Budget: cached median under 50 ms, and under a tenth
//             of the first answer.
//   login     POST /v1/auth/login with a wrong password, for a known user and for unknown ones,
//             interleaved (load on the machine falls on both alike), medians. Budget: the known
//             user's median above 5 ms (scrypt runs) and unknown / known between 0.5 and 2 (the
//             dummy hash makes an unknown user cost the same).
// Prints each measure with its budget; exits 1 when one is missed. Needs `pnpm build` (reads ../dist).
//   node scripts/bench-timings.mjs [--requests 50] [--logins 15]
import { performance } from 'node:perf_hooks';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REQUESTS = arg('requests', 50);
const LOGINS = arg('logins', 15);

const server = await import('../dist/index.js');
const app = server.createApp(
  {
    storage: server.createSqliteStorage(':memory:'),
    config: { ...server.DEFAULT_CONFIG, rateLimit: { limit: 1e12, windowMs: 60_000 } },
    now: Date.now,
  },
  { logError: () => {} },
);
const request = (path, init) => app.request(path, init, { incoming: { socket: { remoteAddress: '127.0.0.1' } } });
const post = (path, body) =>
  request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(work) {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

const rows = [];
const check = (measure, value, budget, met) => rows.push({ measure, value, budget, verdict: met ? 'met' : 'MISSED' });
const report = (measure, value) => rows.push({ measure, value, budget: '-', verdict: '-' });

// openapi: the first answer generates the document; later ones are served from the cache.
const first = await timed(async () => (await request(server.OPENAPI_PATH)).text());
const cached = [];
for (let i = 0; i < REQUESTS; i++) cached.push(await timed(async () => (await request(server.OPENAPI_PATH)).text()));
report('openapi first answer (ms)', first.toFixed(1));
check('openapi cached answer, median (ms)', median(cached).toFixed(2), '< 50', median(cached) < 50);
check('openapi cached / first', (median(cached) / first).toFixed(3), '< 0.1', median(cached) / first < 0.1);

// login: wrong password for a known user against unknown users, interleaved.
await post('/v1/auth/signup', { email: 'known@example.com', password: 'right-password-1' });
const login = (email) =>
  timed(async () => (await post('/v1/auth/login', { email, password: 'wrong-password-1' })).text());
const known = [];
const unknown = [];
for (let i = 0; i < LOGINS; i++) {
  known.push(await login('known@example.com'));
  unknown.push(await login(`nobody${i}@example.com`));
}
const ratio = median(unknown) / median(known);
check('login known user, median (ms)', median(known).toFixed(1), '> 5', median(known) > 5);
report('login unknown user, median (ms)', median(unknown).toFixed(1));
check('login unknown / known', ratio.toFixed(2), '0.5 .. 2', ratio > 0.5 && ratio < 2);

console.table(rows);
if (rows.some((r) => r.verdict === 'MISSED')) process.exitCode = 1;
