// Where a cached `GET /v2/analysis/bitcoin` spends its CPU: starts the server as `startServer`
// serves it (Pro demo session, a rate limit out of reach), loads it with autocannon from a child
// process, prints requests per second and the server's CPU per request, and with `--profile`
// takes a V8 CPU profile of the server during the load and prints its self time per request by
// where the code lives (our bundle, hono, undici, Node's internals, the socket writes, GC).
// `--bare` serves the same bytes from a bare hono app instead, for comparison.
// Needs `pnpm --filter @marketlens/server build` (reads ../dist).
// Usage: node scripts/profile-analysis.mjs [--seconds 6] [--connections 20] [--profile] [--bare]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PATH = '/v2/analysis/bitcoin';
const argv = process.argv.slice(2);
const num = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};

if (argv[0] === 'load') {
  // The load generator (child process).
  const { default: autocannon } = await import('autocannon');
  const [, url, token, seconds, connections] = argv;
  const r = await autocannon({
    url,
    headers: { 'x-session-token': token },
    duration: Number(seconds),
    connections: Number(connections),
  });
  process.send({ rps: r.requests.average, total: r.requests.total, non2xx: r.non2xx });
  process.exit(0);
}

const seconds = num('seconds', 6);
const connections = num('connections', 20);
const { serve } = await import('@hono/node-server');
const ml = await import('../dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'ml-profile-'));
const storage = ml.openDataDir(dir);
const demo = await ml.seedDemo(storage);
await ml.setUserTier(storage, ml.DEMO_EMAIL, 'pro');
const config = { ...ml.DEFAULT_CONFIG, rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } };
let app = ml.createApp({ storage, config, now: Date.now }, { logError: () => {} });
let options = ml.PLATFORM_SERVER_OPTIONS;
if (argv.includes('--bare')) {
  const res = await app.request(PATH, { headers: { 'x-session-token': demo.session_token } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const { Hono } = await import('hono');
  app = new Hono();
  app.get('/v2/analysis/:id', (c) => c.body(bytes, 200, { 'content-type': 'application/json' }));
  options = undefined;
}
const server = await new Promise((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: options }, () => resolve(s));
});
const url = `http://127.0.0.1:${server.address().port}${PATH}`;

const profiling = argv.includes('--profile');
const session = new Session();
if (profiling) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const before = process.cpuUsage();
const child = fork(fileURLToPath(import.meta.url), ['load', url, demo.session_token, seconds, connections]);
const result = await new Promise((resolve) => child.once('message', resolve));
const used = process.cpuUsage(before);
const cpuUs = used.user + used.system;
console.log(
  `${argv.includes('--bare') ? 'bare hono, same bytes' : 'marketlens, cached analysis'}: ${Math.round(result.rps)} req/s, ` +
    `${(cpuUs / result.total).toFixed(1)} us of server CPU per request (${result.total} requests, non-2xx ${result.non2xx})`,
);
if (profiling) {
  const { profile } = await session.post('Profiler.stop');
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const where = (frame) => {
    const u = frame.url;
    if (frame.functionName === 'writev' || frame.functionName === 'writeBuffer') return 'socket writes';
    if (frame.functionName === '(garbage collector)') return 'garbage collector';
    if (frame.functionName === '(idle)') return null;
    if (u.includes('/hono/')) return 'hono';
    if (u.includes('@hono/node-server')) return '@hono/node-server';
    if (u.includes('undici')) return 'undici (Headers, Response)';
    if (u.includes('/packages/server/dist/')) return 'marketlens';
    if (u.startsWith('node:')) return "Node's internals (http, streams)";
    return 'other';
  };
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const key = where(nodes.get(profile.samples[i]).callFrame);
    if (key !== null) self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i]);
  }
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${key.padEnd(34)} ${(us / result.total).toFixed(1)} us per request`);
  }
}
server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
