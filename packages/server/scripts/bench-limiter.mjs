#!/usr/bin/env node
// What the Redis rate limiter costs a cached request, end to end over HTTP (issue 20's target: under
// 10% of a cached request's time). Two servers from the built package, each in its own child
// process, identical but for where the weighted budget lives:
//   redis    the deployment's shared state on Redis (`openSharedState`), the limiter included:
//            every request spends its weight with one atomic script, one round trip;
//   memory   the same shared state object, whose `budget()` is the in-process sliding window
//            (`WeightedBudget`, behind a promise as the shared path awaits one), so the only
//            difference is the limiter's round trip and script.
// Both serve GET /v2/analysis/bitcoin from the cache (Pro session, budget out of reach), on SQLite.
//   one at a time  `--requests` GETs per round on a keep-alive connection, the servers alternating
//                  by round (`--runs` rounds): p50 and mean per server; cost = (redis - memory) /
//                  memory of the p50, the share of a cached request's time the limiter adds;
//   loaded         each server alone under autocannon (`--connections`, `--duration` s rounds,
//                  alternating): req/s and p99; cost = 1 - redis req/s / memory req/s.
// Prints the load average before and after; exits 0 (a report, not a test).
// Needs `pnpm --filter @marketlens/server build` and a Redis: MARKETLENS_TEST_REDIS_URL (as
// `source .ci/services.sh` sets it), REDIS_URL or --url.
//   node scripts/bench-limiter.mjs [--url redis://...] [--runs 6] [--requests 3000]
//     [--duration 3] [--connections 20]
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, '..', 'node_modules', '.cache', 'bench-limiter', 'shared.mjs');
const PATH = '/v2/analysis/bitcoin';

async function serve(kind, redisUrl) {
  const ml = await import('../dist/index.js');
  const { openSharedState, WeightedBudget } = await import(pathToFileURL(bundle).href);
  const { serve: listen } = await import('@hono/node-server');
  const dir = mkdtempSync(join(tmpdir(), `ml-bench-limiter-${kind}-`));
  const storage = ml.openDataDir(dir);
  const demo = await ml.seedDemo(storage);
  await ml.setUserTier(storage, ml.DEMO_EMAIL, 'pro');
  const shared = await openSharedState(redisUrl);
  const inProcess = new Map();
  const deps = {
    storage,
    now: Date.now,
    // A budget no run spends (in the small-integer range, like the real 2,000), so no 429.
    config: { ...ml.DEFAULT_CONFIG, rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } },
    shared:
      kind === 'redis'
        ? shared
        : {
            ...shared,
            budget(limit, windowMs) {
              const key = `${limit}/${windowMs}`;
              let b = inProcess.get(key);
              if (b === undefined) {
                const w = new WeightedBudget(limit, windowMs);
                b = { spend: async (k, weight, now) => w.spend(k, weight, now) };
                inProcess.set(key, b);
              }
              return b;
            },
          },
  };
  const app = ml.createApp(deps, { logError: () => {} });
  const server = await new Promise((resolve) => {
    const s = listen(
      { fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: ml.PLATFORM_SERVER_OPTIONS },
      () => resolve(s),
    );
  });
  let served = 0;
  server.on('request', () => served++);
  process.on('message', (m) => {
    if (m !== 'usage') return;
    const u = process.cpuUsage();
    process.send({ cpuUs: u.user + u.system, served });
  });
  process.send({ url: `http://127.0.0.1:${server.address().port}`, session: demo.session_token });
  process.on('disconnect', async () => {
    server.close();
    await shared.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

function load() {
  process.on('message', async ({ url, headers, duration, connections }) => {
    const { default: autocannon } = await import('autocannon');
    const r = await autocannon({ url, headers, duration, connections });
    process.send({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
  });
  process.on('disconnect', () => process.exit(0));
}

const start = (...args) => fork(fileURLToPath(import.meta.url), args, { stdio: 'inherit' });
const reply = (child, message) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    if (message !== undefined) child.send(message);
  });
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const loadText = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function get(agent, url, headers) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  const redisUrl = arg('url', process.env.MARKETLENS_TEST_REDIS_URL ?? process.env.REDIS_URL);
  if (!redisUrl) {
    console.error('bench-limiter: no Redis. Set MARKETLENS_TEST_REDIS_URL (source .ci/services.sh) or pass --url.');
    process.exit(2);
  }
  const runs = Number(arg('runs', 6));
  const requests = Number(arg('requests', 3000));
  const duration = Number(arg('duration', 3));
  const connections = Number(arg('connections', 20));
  const { build } = await import('esbuild');
  mkdirSync(dirname(bundle), { recursive: true });
  await build({
    stdin: {
      contents: [
        "export { openSharedState } from './src/platform/redis/shared-state.ts';",
        "export { WeightedBudget } from './src/platform/rate-limit/rate-limit.ts';",
      ].join('\n'),
      resolveDir: join(here, '..'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });

  console.log(`bench-limiter: ${availableParallelism()} CPUs, load ${loadText()}, node ${process.version}`);
  const kinds = ['memory', 'redis'];
  const servers = {};
  for (const kind of kinds) {
    const child = start('server', kind, redisUrl);
    servers[kind] = { child, ...(await reply(child)) };
  }
  const headers = (kind) => ({ 'x-session-token': servers[kind].session });
  const agents = Object.fromEntries(kinds.map((k) => [k, new Agent({ keepAlive: true, maxSockets: 1 })]));
  const samples = { memory: [], redis: [] };
  for (const kind of kinds) {
    for (let i = 0; i < 500; i++) {
      const r = await get(agents[kind], servers[kind].url + PATH, headers(kind));
      if (r.status !== 200) throw new Error(`${kind}: ${r.status}`);
    }
  }
  for (let round = 0; round < runs; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      for (let i = 0; i < requests; i++) {
        const r = await get(agents[kind], servers[kind].url + PATH, headers(kind));
        if (r.status !== 200) throw new Error(`${kind}: ${r.status}`);
        samples[kind].push(r.ms);
      }
    }
  }
  const p50 = Object.fromEntries(kinds.map((k) => [k, quantile(samples[k], 0.5)]));
  const avg = Object.fromEntries(kinds.map((k) => [k, mean(samples[k])]));
  console.log(`\none at a time: ${runs} rounds x ${requests} cached GET ${PATH} per server`);
  console.log('| limiter | p50 ms | mean ms | p99 ms |\n|---|---:|---:|---:|');
  for (const k of kinds) {
    console.log(`| ${k} | ${p50[k].toFixed(3)} | ${avg[k].toFixed(3)} | ${quantile(samples[k], 0.99).toFixed(3)} |`);
  }
  const cost50 = (p50.redis - p50.memory) / p50.memory;
  const costMean = (avg.redis - avg.memory) / avg.memory;
  console.log(
    `Redis limiter's share of a cached request's time: p50 ${(cost50 * 100).toFixed(1)}%, mean ${(costMean * 100).toFixed(1)}% (target: under 10%)`,
  );

  const loadGen = start('load');
  const loaded = { memory: [], redis: [] };
  for (const kind of kinds)
    await reply(loadGen, { url: servers[kind].url + PATH, headers: headers(kind), duration: 1, connections });
  for (let round = 0; round < Math.max(2, Math.floor(runs / 2)); round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const before = await reply(servers[kind].child, 'usage');
      const r = await reply(loadGen, { url: servers[kind].url + PATH, headers: headers(kind), duration, connections });
      const after = await reply(servers[kind].child, 'usage');
      if (r.non2xx > 0) throw new Error(`${kind}: ${r.non2xx} non-2xx`);
      loaded[kind].push({ ...r, cpuUs: (after.cpuUs - before.cpuUs) / (after.served - before.served) });
    }
  }
  console.log(`\nloaded: each server alone, ${connections} connections, ${duration} s rounds`);
  console.log('| limiter | req/s (rounds) | p99 ms (rounds) | server CPU us/request (rounds) |\n|---|---|---|---|');
  for (const k of kinds) {
    const cells = (f) => loaded[k].map(f).join(', ');
    console.log(
      `| ${k} | ${cells((r) => Math.round(r.rps))} | ${cells((r) => r.p99)} | ${cells((r) => r.cpuUs.toFixed(1))} |`,
    );
  }
  const rps = (k) => mean(loaded[k].map((r) => r.rps));
  const cpu = (k) => mean(loaded[k].map((r) => r.cpuUs));
  console.log(`throughput cost of the Redis limiter: ${((1 - rps('redis') / rps('memory')) * 100).toFixed(1)}%`);
  console.log(
    `server CPU the Redis limiter adds to a cached request: ${(cpu('redis') - cpu('memory')).toFixed(1)} us, ${(((cpu('redis') - cpu('memory')) / cpu('memory')) * 100).toFixed(1)}% (target: under 10%)`,
  );
  console.log(`\nload after: ${loadText()}`);
  loadGen.disconnect();
  for (const k of kinds) servers[k].child.disconnect();
  for (const a of Object.values(agents)) a.destroy();
}

const [role, kind, url] = process.argv.slice(2);
if (role === 'server') await serve(kind, url);
else if (role === 'load') load();
else await main();
