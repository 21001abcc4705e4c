#!/usr/bin/env node
// Platform overhead: the same trivial JSON route on bare hono and on the marketlens app (client
// IP, rate limit, query-key refusal, client-version gate, auth with tier lookup, envelope), each
// server in its own child process started the same way, measured with autocannon on loopback in
// the same run. Both servers use the same hono and @hono/node-server and answer the same JSON
// body (the envelope), so what differs is only the platform's work. Two marketlens cases:
//   no credential  GET /bench/public  (anonymous allowed, like /v2/config)
//   session        GET /bench/ping    (session required, x-session-token: the demo session)
// Each case gets a warm-up, then `--runs` rounds, each measuring every case once (the order
// reversed every other round, so no case always runs next to bare hono). A case's cost is the
// median over rounds of 1 - its req/s / bare hono's req/s in the same round: a load change on the
// machine between rounds moves both sides of a ratio. The table also shows the ratio of the
// medians, and beside req/s the server's own CPU time per request (user + system, read
// from the server process around each run), which other load on the machine disturbs less than
// throughput. Exits 1 when a case costs 20% or more of bare throughput. Needs `pnpm build`.
//   node scripts/bench.mjs [--duration 5] [--warmup 2] [--runs 5] [--connections 50]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

const BODY = { pong: true };
const BUDGET = 0.2;

async function serve(app, headers) {
  const { serve } = await import('@hono/node-server');
  let requests = 0;
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.send({ url: `http://127.0.0.1:${info.port}`, headers, router: routerName(app) }),
  );
  s.on('request', () => requests++);
  // The parent asks before and after each run: CPU microseconds used and requests served so far.
  process.on('message', (m) => {
    if (m !== 'usage') return;
    const u = process.cpuUsage();
    process.send({ cpuUs: u.user + u.system, requests });
  });
  return s;
}

/** The router hono settled on (a SmartRouter picks one on the first match). */
function routerName(app) {
  app.router.match('GET', '/');
  return app.router.activeRouter?.name ?? app.router.name;
}

async function serveBare() {
  const { Hono } = await import('hono');
  const app = new Hono();
  // The same bytes the platform answers (its envelope), built per request like the platform does.
  app.get('/bench/ping', (c) => c.json({ code: 0, success: true, data: BODY, message: null }));
  const s = await serve(app, {});
  process.on('disconnect', () => s.close());
}

async function servePlatform() {
  const server = await import('../dist/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-'));
  const storage = server.openDataDir(dir);
  const demo = await server.seedDemo(storage);
  const config = { ...server.DEFAULT_CONFIG, rateLimit: { limit: 1e12, windowMs: 60_000 } };
  const app = server.createApp({ storage, config, now: Date.now });
  // Registered like every marketlens operation: `operation(auth, route)` through `app.openapi`.
  const route = (path, auth) =>
    server.operation(auth, {
      method: 'get',
      path,
      operationId: path,
      summary: path,
      responses: { 200: { description: 'pong' } },
    });
  app.openapi(route('/bench/ping', server.SESSION_ONLY), (c) => c.json(server.ok(BODY)));
  app.openapi(route('/bench/public', server.OPTIONAL_SESSION_OR_API_KEY), (c) => c.json(server.ok(BODY)));
  const s = await serve(app, { 'x-session-token': demo.session_token });
  process.on('disconnect', () => {
    s.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

function start(role) {
  const child = fork(fileURLToPath(import.meta.url), [role], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('message', (m) => resolve({ child, ...m })));
}

const usage = (child) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send('usage');
  });

async function run(autocannon, c, duration, connections) {
  const before = await usage(c.server.child);
  const r = await autocannon({ url: c.url, headers: c.headers, duration, connections });
  const after = await usage(c.server.child);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${c.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { ...r, cpuUsPerRequest: (after.cpuUs - before.cpuUs) / (after.requests - before.requests) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const role = process.argv[2];
  if (role === 'bare') return serveBare();
  if (role === 'platform') return servePlatform();
  const { default: autocannon } = await import('autocannon');
  const duration = arg('duration', 5);
  const warmup = arg('warmup', 2);
  const runs = arg('runs', 5);
  const connections = arg('connections', 50);
  const bare = await start('bare');
  const platform = await start('platform');
  const cases = [
    { name: 'bare hono', server: bare, url: `${bare.url}/bench/ping`, headers: {} },
    { name: 'marketlens, no credential', server: platform, url: `${platform.url}/bench/public`, headers: {} },
    { name: 'marketlens, session', server: platform, url: `${platform.url}/bench/ping`, headers: platform.headers },
  ];
  for (const c of cases) await run(autocannon, c, warmup, connections);
  const results = new Map(cases.map((c) => [c.name, { rps: [], p99: [], cpu: [] }]));
  // Interleave the cases so drift (other load, thermal, GC) spreads over all of them.
  for (let i = 0; i < runs; i++) {
    for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
      const r = await run(autocannon, c, duration, connections);
      results.get(c.name).rps.push(r.requests.average);
      results.get(c.name).p99.push(r.latency.p99);
      results.get(c.name).cpu.push(r.cpuUsPerRequest);
    }
  }
  bare.child.disconnect();
  platform.child.disconnect();
  const bareRuns = results.get('bare hono');
  const bareRps = median(bareRuns.rps);
  const bareCpu = median(bareRuns.cpu);
  let worst = 0;
  console.log(`${runs} runs of ${duration} s after ${warmup} s warm-up, ${connections} connections; medians`);
  console.log(`platform router: ${platform.router}\n`);
  console.log(
    '| server | req/s | p99 ms | runs (req/s) | cost | cost (of medians) | server CPU us/req | runs (us/req) | CPU cost |\n' +
      '|---|---:|---:|---|---:|---:|---:|---|---:|',
  );
  for (const [name, r] of results) {
    const rps = median(r.rps);
    const cpu = median(r.cpu);
    const cost = median(r.rps.map((x, i) => 1 - x / bareRuns.rps[i]));
    const bare = name === 'bare hono';
    if (!bare) worst = Math.max(worst, cost);
    const costText = bare ? '' : `${(cost * 100).toFixed(1)}%`;
    const ofMediansText = bare ? '' : `${((1 - rps / bareRps) * 100).toFixed(1)}%`;
    const cpuText = bare ? '' : `+${((cpu / bareCpu - 1) * 100).toFixed(1)}%`;
    console.log(
      `| ${name} | ${rps.toFixed(0)} | ${median(r.p99)} | ${r.rps.map((x) => x.toFixed(0)).join(', ')} | ${costText} | ` +
        `${ofMediansText} | ` +
        `${cpu.toFixed(1)} | ${r.cpu.map((x) => x.toFixed(1)).join(', ')} | ${cpuText} |`,
    );
  }
  console.log(`\nplatform cost: worst case ${(worst * 100).toFixed(1)}% of bare throughput (budget ${BUDGET * 100}%)`);
  process.exitCode = worst < BUDGET ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
