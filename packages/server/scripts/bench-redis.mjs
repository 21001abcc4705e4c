#!/usr/bin/env node
// What the shared (Redis) rate limiter costs per request against the in-memory one: the same
// sliding-window weighted budget (src/platform/redis/rate-limit.ts vs WeightedBudget in
// src/platform/rate-limit/rate-limit.ts), admitting every request (the common path), measured in
// this process against a real Redis.
//
//   sequential  one spend at a time: the latency a request waits for its budget (one round trip
//               to Redis, an atomic script); p50, p99 and mean per spend;
//   concurrent  `--inflight` spends in flight at once, as a busy instance issues them: spends per
//               second, the wall time per spend that follows from it, and the CPU this process
//               spends per spend (what the limiter takes from the instance's capacity: the wait
//               for Redis is not CPU, the instance serves other requests meanwhile);
//   hot key     sequential spends on one key whose window holds every earlier spend (a heavy
//               client), to show the script's cost does not grow with the window.
//
// The issue's target: the Redis limiter costs under 10% of a cached request's time. Pass the
// cached request's time with --request-ms (default 0.3, a cached /v2/analysis on this machine
// takes 0.2-0.5 ms) to print the share.
//
// The TypeScript sources are bundled on the fly with esbuild (a devDependency), so no build is
// needed. Needs a Redis: MARKETLENS_TEST_REDIS_URL (as `source .ci/services.sh` sets it), REDIS_URL
// or --url.
//   node scripts/bench-redis.mjs [--url redis://127.0.0.1:6379] [--ops 20000] [--inflight 64] [--request-ms 0.3]
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const URL_ = arg('url', process.env.MARKETLENS_TEST_REDIS_URL ?? process.env.REDIS_URL);
const OPS = Number(arg('ops', 20_000));
const INFLIGHT = Number(arg('inflight', 64));
const REQUEST_MS = Number(arg('request-ms', 0.3));
if (!URL_) {
  console.error('bench-redis: no Redis. Set MARKETLENS_TEST_REDIS_URL (source .ci/services.sh) or pass --url.');
  process.exit(2);
}

// Bundled beside the package's node_modules, so the bundle's bare imports (ioredis, hono) resolve.
const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', 'node_modules', '.cache', 'bench-redis');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, 'modules.mjs');
await build({
  stdin: {
    contents: [
      "export { connectRedis, whenReady } from './src/platform/redis/client.ts';",
      "export { RedisWeightedBudget } from './src/platform/redis/rate-limit.ts';",
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
  outfile,
  logLevel: 'error',
});
const { connectRedis, whenReady, RedisWeightedBudget, WeightedBudget } = await import(pathToFileURL(outfile).href);

const LIMIT = 1e12;
const WINDOW_MS = 60_000;
const KEYS = Array.from({ length: 1000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
const prefix = `bench:${process.pid}:${Date.now()}:`;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const fmt = (ms) => (ms < 0.01 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(3)} ms`);

function summarize(name, samples) {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const s of sorted) sum += s;
  const r = { name, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), mean: sum / sorted.length };
  console.log(
    `${name.padEnd(34)} p50 ${fmt(r.p50).padStart(10)}  p99 ${fmt(r.p99).padStart(10)}  mean ${fmt(r.mean).padStart(10)}`,
  );
  return r;
}

// In memory: per-call timings (hrtime's own cost, ~50 ns, is included, which only flatters Redis).
function benchMemory() {
  const budget = new WeightedBudget(LIMIT, WINDOW_MS);
  for (let i = 0; i < OPS; i++) budget.take(KEYS[i % KEYS.length], 1, Date.now());
  const samples = new Float64Array(OPS);
  for (let i = 0; i < OPS; i++) {
    const now = Date.now();
    const t0 = process.hrtime.bigint();
    budget.take(KEYS[i % KEYS.length], 1, now);
    samples[i] = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  return summarize('in-memory WeightedBudget', samples);
}

async function benchSequential(redis, name, tag, keyOf) {
  const budget = new RedisWeightedBudget(redis, LIMIT, WINDOW_MS, { prefix: `${prefix}${tag}:` });
  for (let i = 0; i < 2000; i++) await budget.spend(keyOf(i), 1, Date.now());
  const samples = new Float64Array(OPS);
  for (let i = 0; i < OPS; i++) {
    const t0 = performance.now();
    const r = await budget.spend(keyOf(i), 1, Date.now());
    samples[i] = performance.now() - t0;
    if (!r.allowed) throw new Error('refused: the bench measures admissions');
  }
  return summarize(name, samples);
}

async function benchPing(redis) {
  for (let i = 0; i < 2000; i++) await redis.ping();
  const samples = new Float64Array(OPS);
  for (let i = 0; i < OPS; i++) {
    const t0 = performance.now();
    await redis.ping();
    samples[i] = performance.now() - t0;
  }
  return summarize('Redis PING (the round-trip floor)', samples);
}

/** Calls and microseconds Redis spent in EVALSHA so far (INFO commandstats). */
async function evalshaStats(redis) {
  const m = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(await redis.info('commandstats'));
  return m ? { calls: Number(m[1]), usec: Number(m[2]) } : { calls: 0, usec: 0 };
}

async function benchConcurrent(redis) {
  const budget = new RedisWeightedBudget(redis, LIMIT, WINDOW_MS, { prefix: `${prefix}concurrent:` });
  let next = 0;
  const worker = async () => {
    while (next < OPS) {
      const i = next++;
      await budget.spend(KEYS[i % KEYS.length], 1, Date.now());
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: INFLIGHT }, worker));
  const ms = performance.now() - t0;
  const perSpend = ms / OPS;
  console.log(
    `${`Redis, ${INFLIGHT} in flight`.padEnd(34)} ${Math.round(OPS / (ms / 1000))} spends/s, ${fmt(perSpend)} per spend`,
  );
  return perSpend;
}

const redis = connectRedis(URL_, { commandTimeoutMs: 5000 });
await whenReady(redis);
const info = await redis.info('server');
console.log(
  `Redis ${/redis_version:(\S+)/.exec(info)?.[1]} at ${URL_}, Node ${process.version}, ${OPS} spends per case, weight 1, all admitted\n`,
);

const memory = benchMemory();
const ping = await benchPing(redis);
const before = await evalshaStats(redis);
const seq = await benchSequential(redis, 'Redis, sequential (1000 keys)', 'keys', (i) => KEYS[i % KEYS.length]);
const after = await evalshaStats(redis);
const hot = await benchSequential(redis, 'Redis, sequential (one hot key)', 'hot', () => 'hot');
const afterHot = await evalshaStats(redis);
const cpu0 = process.cpuUsage();
const perSpend = await benchConcurrent(redis);
const cpu = process.cpuUsage(cpu0);
const cpuPerSpend = (cpu.user + cpu.system) / 1000 / OPS;

const server = (a, b) => (b.calls > a.calls ? (b.usec - a.usec) / (b.calls - a.calls) / 1000 : Number.NaN);
console.log(
  `\nInside Redis, per spend: ${fmt(server(before, after))} (1000 keys), ${fmt(server(after, afterHot))} ` +
    `(hot key, ${await redis.zcard(`${prefix}hot:hot`)} entries in its window at the end)`,
);
console.log(
  `Redis p50 / in-memory p50: ${(seq.p50 / memory.p50).toFixed(0)}x; Redis p50 / PING p50: ${(seq.p50 / ping.p50).toFixed(2)}x`,
);
const pct = (ms) => `${((ms / REQUEST_MS) * 100).toFixed(1)}%`;
console.log(
  `Share of a ${REQUEST_MS} ms cached request: sequential p50 ${pct(seq.p50)}, p99 ${pct(seq.p99)} ` +
    `(hot key p50 ${pct(hot.p50)}); under load ${pct(perSpend)} of wall time, ${pct(cpuPerSpend)} in this ` +
    `process's CPU (${fmt(cpuPerSpend)} per spend); in-memory p50 ${pct(memory.p50)}`,
);

// The bench's keys expire with their window; drop them now all the same.
const stream = redis.scanStream({ match: `${prefix}*`, count: 1000 });
for await (const keys of stream) if (keys.length > 0) await redis.del(...keys);
redis.disconnect();
