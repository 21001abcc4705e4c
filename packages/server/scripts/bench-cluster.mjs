#!/usr/bin/env node
// Several instances, on loopback, peers measured in the same run:
//   throughput  cached GET /v2/analysis/bitcoin with 1, 2 and 3 instances of the built server on
//               one PostgreSQL and one Redis, each instance loaded by its own autocannon child at
//               once (`--connections` split between them); req/s summed. On a machine with fewer
//               cores than instances plus load generators, the figure shows that limit, not the
//               servers': the machine's core count is printed beside it.
//   hot paths   one request at a time on one instance, SQLite (the embedded default) against
//               PostgreSQL + Redis: a session's request (the session cache in front of storage),
//               an API key's request (key lookup, allowance, touch: storage or Redis every time),
//               the favorites read. p50 and p99 of `--requests` each, same run.
// The rate limiter's own cost with Redis is `scripts/bench-redis.mjs`.
// Needs the built server (`pnpm --filter @marketlens/server build`) and a PostgreSQL and a Redis:
// MARKETLENS_TEST_DATABASE_URL and MARKETLENS_TEST_REDIS_URL (`source .ci/services.sh` sets both).
//   node scripts/bench-cluster.mjs [--duration 5] [--connections 48] [--requests 400]
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

if (process.argv[2] === '--load') {
  // a load generator child: one autocannon run per message
  const { default: autocannon } = await import('autocannon');
  process.on('message', async ({ url, headers, duration, connections }) => {
    const r = await autocannon({ url, headers, duration, connections });
    process.send({
      requests: r.requests.total,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
    });
    process.exit(0);
  });
} else {
  await main();
}

async function main() {
  const dbUrl = process.env.MARKETLENS_TEST_DATABASE_URL;
  const redisUrl = process.env.MARKETLENS_TEST_REDIS_URL;
  if (!dbUrl || !redisUrl) {
    console.error('needs MARKETLENS_TEST_DATABASE_URL and MARKETLENS_TEST_REDIS_URL (source .ci/services.sh)');
    process.exit(2);
  }
  const duration = arg('duration', 5);
  const connections = arg('connections', 48);
  const requests = arg('requests', 400);
  const database = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(dbUrl);
  url.pathname = `/${database}`;
  const shared = {
    DATABASE_URL: url.href,
    REDIS_URL: redisUrl,
    MARKETLENS_SECRET_KEY: randomBytes(32).toString('base64'),
    // one address loads everything: the budget must not be what is measured
    MARKETLENS_RATE_LIMIT: '10000000',
  };
  console.log(
    `cores: ${availableParallelism()}, load before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const started = [];
  try {
    console.log('\ncached GET /v2/analysis/bitcoin, instances on one PostgreSQL and one Redis');
    console.log('instances | req/s (sum) | p50 ms | p99 ms | non-2xx');
    for (let n = 1; n <= 3; n++) {
      while (started.length < n) started.push(await start(shared));
      const path = '/v2/analysis/bitcoin?timeframe=d1';
      // each start renews the demo user's session (one live demo session), so the newest one serves all
      const token = started[n - 1].token;
      for (const s of started) await get(s, path, { 'x-session-token': token }); // warm every cache
      const runs = await Promise.all(
        started.map(
          (s) =>
            new Promise((done) => {
              const child = fork(fileURLToPath(import.meta.url), ['--load']);
              child.once('message', done);
              child.send({
                url: `${s.url}${path}`,
                headers: { 'x-session-token': token },
                duration,
                connections: Math.max(1, Math.round(connections / n)),
              });
            }),
        ),
      );
      const rps = runs.reduce((a, r) => a + r.rps, 0);
      const p50 = Math.max(...runs.map((r) => r.p50));
      const p99 = Math.max(...runs.map((r) => r.p99));
      const non2xx = runs.reduce((a, r) => a + r.non2xx, 0);
      console.log(`${n} | ${rps.toFixed(0)} | ${p50} | ${p99} | ${non2xx}`);
    }
    // the demo credentials of the newest start are the live ones
    const clustered = { ...started[0], token: started.at(-1).token, key: started.at(-1).key };
    const local = await start({});
    started.push(local);
    console.log(`\nhot paths, one request at a time (${requests} each): SQLite vs PostgreSQL + Redis`);
    console.log('path | SQLite p50 / p99 ms | PostgreSQL+Redis p50 / p99 ms');
    for (const [name, path, headersOf] of [
      ['session (GET /v1/auth/me)', '/v1/auth/me', (s) => ({ 'x-session-token': s.token })],
      ['API key (GET /v2/assets/popular)', '/v2/assets/popular', (s) => ({ 'x-api-key': s.key })],
      ['favorites (GET /v2/assets/favorites)', '/v2/assets/favorites', (s) => ({ 'x-session-token': s.token })],
    ]) {
      const row = [];
      for (const s of [local, clustered]) {
        const times = [];
        for (let i = 0; i < requests; i++) {
          const t = performance.now();
          const status = await get(s, path, headersOf(s));
          times.push(performance.now() - t);
          if (status !== 200) throw new Error(`${path}: ${status}`);
        }
        times.sort((x, y) => x - y);
        row.push(
          `${times[Math.floor(times.length / 2)].toFixed(3)} / ${times[Math.floor(times.length * 0.99)].toFixed(3)}`,
        );
      }
      console.log(`${name} | ${row.join(' | ')}`);
    }
  } finally {
    for (const s of started) s.stop();
    await new Promise((r) => setTimeout(r, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    console.log(
      `\nload after: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  }
}

/** Starts the built server with `env`; resolves with its URL, the demo session token and a fresh API key of it. */
async function start(env) {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-bench-'));
  const file = join(dir, 'marketlens.json');
  writeFileSync(file, JSON.stringify({ dataDir: join(dir, 'data'), port: 0, newsFeeds: [], pilot: 'off' }));
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, MARKETLENS_CONFIG: file, MARKETLENS_RATE_LIMIT: '10000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const token = /session token:\s+(\S+)/.exec(out)?.[1];
    const key = /api key:\s+(\S+)/.exec(out)?.[1];
    if (url && token && key) {
      return {
        url,
        token,
        key,
        stop() {
          child.kill('SIGTERM');
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function get(s, path, headers) {
  const res = await fetch(`${s.url}${path}`, { headers });
  await res.arrayBuffer();
  return res.status;
}
