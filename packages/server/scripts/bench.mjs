#!/usr/bin/env node
// Platform overhead: the same trivial JSON route on bare hono and on the marketlens app (client
// IP, rate limit with its four headers, query-key refusal, client-version gate, auth with tier
// lookup, envelope), each server in its own child process, measured with autocannon on loopback
// in the same run. Both servers use the same hono and @hono/node-server and answer the same JSON
// body (the envelope); the marketlens server is served the way `startServer` serves it.
//
// Two comparisons, each against bare hono receiving the same request bytes:
//   no credential  GET /bench/public (anonymous allowed, like /v2/config) vs bare, no extra header
//   session        GET /bench/ping   (session required, the demo session's x-session-token)
//                  vs bare given the same x-session-token header (parsing a header the client
//                  sends is HTTP's cost, not the platform's)
//
// Method (default where `taskset` exists and there are two CPUs or more): side by side. Both
// servers are pinned to the last CPU and run at the same time, each driven by its own autocannon
// process on CPU 0, so the scheduler splits one core between them and whatever else the machine
// does (other tenants of a shared host) slows both at the same moment. Throughput then follows
// each server's CPU cost per request; the table shows the CPU seconds each server got, which
// should be about equal (both saturated). A round runs `--duration` seconds; a comparison's cost
// is the median over `--runs` rounds of 1 - requests(marketlens) / requests(bare hono).
//
// `--sequential` (and the fallback without taskset): one server at a time, autocannon in this
// process; rounds measure every case once, the order reversed every other round, and a cost is
// the median over rounds of 1 - req/s(marketlens) / req/s(peer, same round). On a shared host
// single rounds of this method swing by tens of percent; see BENCHMARKS.md.
//
// Exits 1 when a comparison costs 20% or more of bare throughput. Needs `pnpm build`.
//   node scripts/bench.mjs [--runs 8] [--duration 4] [--warmup 3] [--connections 50] [--sequential]
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

const BODY = { pong: true };
const BUDGET = 0.2;

async function serve(app, info, serverOptions) {
  const { serve } = await import('@hono/node-server');
  let requests = 0;
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions }, (addr) =>
    process.send({ url: `http://127.0.0.1:${addr.port}`, ...info, router: app.router.name }),
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

async function serveBare() {
  const { Hono } = await import('hono');
  const app = new Hono();
  // The same bytes the platform answers (its envelope), built per request like the platform does.
  app.get('/bench/ping', (c) => c.json({ code: 0, success: true, data: BODY, message: null }));
  app.router.match('GET', '/bench/ping'); // settle hono's SmartRouter, to print its choice
  const s = await serve(app, {});
  process.on('disconnect', () => s.close());
}

async function servePlatform() {
  const server = await import('../dist/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-'));
  const storage = server.openDataDir(dir);
  const demo = await server.seedDemo(storage);
  // A budget no run spends (in the small-integer range, like the real 2,000), so no 429.
  const config = { ...server.DEFAULT_CONFIG, rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } };
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
  app.router.match('GET', '/bench/ping');
  // Served like `startServer` serves it (its Node response class carries the rate-limit headers).
  const s = await serve(app, { token: demo.session_token }, server.PLATFORM_SERVER_OPTIONS);
  process.on('disconnect', () => {
    s.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** Pins every thread of `pid` to `cpu` with taskset; false when that cannot be done. */
function pin(pid, cpu) {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function start(role, cpu) {
  const child = fork(fileURLToPath(import.meta.url), [role], { stdio: 'inherit' });
  if (cpu !== undefined) pin(child.pid, cpu);
  return new Promise((resolve) => child.once('message', (m) => resolve({ child, ...m })));
}

const usage = (child) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send('usage');
  });

async function run(autocannon, c, duration, connections) {
  const before = await usage(c.server.child);
  const t0 = performance.now();
  const r = await autocannon({ url: c.url, headers: c.headers, duration, connections });
  const wallUs = (performance.now() - t0) * 1000;
  const after = await usage(c.server.child);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${c.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const cpuUs = after.cpuUs - before.cpuUs;
  return { rps: r.requests.average, cpuPerRequest: cpuUs / (after.requests - before.requests), busy: cpuUs / wallUs };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** A load generator child: runs autocannon once as asked and reports the result. */
function serveLoad() {
  process.on('message', async ({ url, headers, duration, connections }) => {
    const { default: autocannon } = await import('autocannon');
    const r = await autocannon({ url, headers, duration, connections });
    process.send({ requests: r.requests.total, rps: r.requests.average, non2xx: r.non2xx, errors: r.errors });
  });
  process.on('disconnect', () => process.exit(0));
}

const ask = (child, message) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });

/**
 * Side by side: `a` (the peer) and `b` on one CPU at the same time, each driven by its own load
 * process, `runs` rounds of `duration` s. Per round: requests each server answered, its CPU time.
 */
async function sideBySide(a, b, { warmup, runs, duration, connections }) {
  const loads = [await startLoad(), await startLoad()];
  const round = async (seconds) => {
    const before = await Promise.all([usage(a.server.child), usage(b.server.child)]);
    const results = await Promise.all(
      [a, b].map((c, i) => ask(loads[i], { url: c.url, headers: c.headers, duration: seconds, connections })),
    );
    const after = await Promise.all([usage(a.server.child), usage(b.server.child)]);
    for (const [i, r] of results.entries()) {
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${[a, b][i].url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    }
    return [0, 1].map((i) => ({
      requests: after[i].requests - before[i].requests,
      cpuUs: after[i].cpuUs - before[i].cpuUs,
    }));
  };
  await round(warmup);
  const rounds = [];
  for (let i = 0; i < runs; i++) rounds.push(await round(duration));
  for (const l of loads) l.disconnect();
  return rounds;
}

function startLoad() {
  const child = fork(fileURLToPath(import.meta.url), ['load'], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('spawn', () => resolve(child)));
}

async function main() {
  const role = process.argv[2];
  if (role === 'bare') return serveBare();
  if (role === 'platform') return servePlatform();
  if (role === 'load') return serveLoad();
  const sequential = process.argv.includes('--sequential');
  const duration = arg('duration', sequential ? 2 : 4);
  const warmup = arg('warmup', 3);
  const runs = arg('runs', sequential ? 12 : 8);
  const connections = arg('connections', 50);
  const cpus = availableParallelism();
  const serverCpu = cpus >= 2 && pin(process.pid, 0) ? cpus - 1 : undefined;
  const bare = await start('bare', serverCpu);
  const platform = await start('platform', serverCpu);
  const session = { 'x-session-token': platform.token };
  const cases = [
    { name: 'bare hono', server: bare, url: `${bare.url}/bench/ping`, headers: {} },
    { name: 'bare hono, session header', server: bare, url: `${bare.url}/bench/ping`, headers: session },
    { name: 'marketlens, no credential', server: platform, url: `${platform.url}/bench/public`, headers: {} },
    { name: 'marketlens, session', server: platform, url: `${platform.url}/bench/ping`, headers: session },
  ];
  const comparisons = [
    ['marketlens, no credential', 'bare hono'],
    ['marketlens, session', 'bare hono, session header'],
  ];
  const options = { warmup, runs, duration, connections };
  console.log(`routers: bare ${bare.router}; marketlens ${platform.router}`);
  const worst =
    sequential || serverCpu === undefined
      ? await sequentialRun(cases, comparisons, options, serverCpu)
      : await sideBySideRun(cases, comparisons, options, serverCpu);
  bare.child.disconnect();
  platform.child.disconnect();
  console.log(`\nplatform cost: worst case ${pct(worst)} of bare throughput (budget ${BUDGET * 100}%)`);
  process.exitCode = worst < BUDGET ? 0 : 1;
}

async function sideBySideRun(cases, comparisons, options, serverCpu) {
  const byName = new Map(cases.map((c) => [c.name, c]));
  console.log(
    `side by side on CPU ${serverCpu} (load on CPU 0): ${options.runs} rounds of ${options.duration} s after ` +
      `${options.warmup} s warm-up, ${options.connections} connections per server\n`,
  );
  console.log(
    '| comparison | cost (median of rounds) | rounds (cost %) | requests (peer / marketlens, medians) | CPU s per round (peer / marketlens) | CPU per request |\n' +
      '|---|---:|---|---:|---:|---:|',
  );
  let worst = 0;
  for (const [name, peerName] of comparisons) {
    const rounds = await sideBySide(byName.get(peerName), byName.get(name), options);
    const costs = rounds.map(([p, m]) => 1 - m.requests / p.requests);
    const cost = median(costs);
    worst = Math.max(worst, cost);
    const med = (i, f) => median(rounds.map((r) => f(r[i])));
    const perRequest = (r) => r.cpuUs / r.requests;
    console.log(
      `| ${name} vs ${peerName} | ${pct(cost)} | ${costs.map((x) => (x * 100).toFixed(1)).join(' ')} | ` +
        `${med(0, (r) => r.requests).toFixed(0)} / ${med(1, (r) => r.requests).toFixed(0)} | ` +
        `${(med(0, (r) => r.cpuUs) / 1e6).toFixed(2)} / ${(med(1, (r) => r.cpuUs) / 1e6).toFixed(2)} | ` +
        `+${pct(median(rounds.map(([p, m]) => perRequest(m) / perRequest(p) - 1)))} |`,
    );
  }
  return worst;
}

async function sequentialRun(cases, comparisons, options, serverCpu) {
  const { default: autocannon } = await import('autocannon');
  const { warmup, runs, duration, connections } = options;
  for (const c of cases) await run(autocannon, c, warmup, connections);
  const results = new Map(cases.map((c) => [c.name, []]));
  // Interleave the cases so drift (other load, thermal, GC) spreads over all of them.
  for (let i = 0; i < runs; i++) {
    for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
      results.get(c.name).push(await run(autocannon, c, duration, connections));
    }
  }
  console.log(`${runs} rounds of ${duration} s per case after ${warmup} s warm-up, ${connections} connections`);
  console.log(
    serverCpu === undefined
      ? 'servers and load generator not pinned (no taskset, or one CPU)'
      : `servers pinned to CPU ${serverCpu}, autocannon to CPU 0`,
  );
  console.log(
    '| server | req/s (median) | rounds (req/s) | server CPU us/req | server busy |\n|---|---:|---|---:|---:|',
  );
  for (const [name, rs] of results) {
    const rps = median(rs.map((r) => r.rps));
    const cpu = median(rs.map((r) => r.cpuPerRequest));
    const busy = median(rs.map((r) => r.busy));
    console.log(
      `| ${name} | ${rps.toFixed(0)} | ${rs.map((r) => r.rps.toFixed(0)).join(', ')} | ${cpu.toFixed(1)} | ${pct(busy)} |`,
    );
  }
  console.log(
    '\n| comparison | cost (median of rounds) | cost (of medians) | rounds | CPU per request |\n|---|---:|---:|---|---:|',
  );
  let worst = 0;
  for (const [name, peerName] of comparisons) {
    const rs = results.get(name);
    const peer = results.get(peerName);
    const costs = rs.map((r, i) => 1 - r.rps / peer[i].rps);
    const cost = median(costs);
    worst = Math.max(worst, cost);
    const ofMedians = 1 - median(rs.map((r) => r.rps)) / median(peer.map((r) => r.rps));
    const cpu = median(rs.map((r) => r.cpuPerRequest)) / median(peer.map((r) => r.cpuPerRequest)) - 1;
    console.log(
      `| ${name} vs ${peerName} | ${pct(cost)} | ${pct(ofMedians)} | ${costs.map((x) => (x * 100).toFixed(0)).join(' ')} | +${pct(cpu)} |`,
    );
  }
  return worst;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
