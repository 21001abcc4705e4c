#!/usr/bin/env node
// Platform overhead: the same trivial JSON route on bare hono and on the marketlens app (client
// IP, rate limit, client-version gate, session auth with tier lookup, envelope), each server in
// its own process, measured with autocannon on loopback in the same run. Needs `pnpm build`.
//   node scripts/bench.mjs [--duration 10] [--connections 50]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

async function serveBare() {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.get('/bench/ping', (c) => c.json({ pong: true }));
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.send({ url: `http://127.0.0.1:${info.port}`, headers: {} }),
  );
  process.on('disconnect', () => s.close());
}

async function servePlatform() {
  const server = await import('../dist/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-'));
  const storage = server.openDataDir(dir);
  const demo = await server.seedDemo(storage);
  const config = { ...server.DEFAULT_CONFIG, rateLimit: { limit: 1e12, windowMs: 60_000 } };
  const app = server.createApp({ storage, config, now: Date.now });
  app.get('/bench/ping', server.authorize(server.SESSION_ONLY), (c) => c.json(server.ok({ pong: true })));
  const { serve } = await import('@hono/node-server');
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    process.send({ url: `http://127.0.0.1:${info.port}`, headers: { 'x-session-token': demo.session_token } }),
  );
  process.on('disconnect', () => {
    s.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

function start(role) {
  const child = fork(fileURLToPath(import.meta.url), [role], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('message', (m) => resolve({ child, ...m })));
}

async function measure(autocannon, target, duration, connections) {
  const url = `${target.url}/bench/ping`;
  await autocannon({ url, headers: target.headers, duration: 2, connections }); // warm-up
  const r = await autocannon({ url, headers: target.headers, duration, connections });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

async function main() {
  const role = process.argv[2];
  if (role === 'bare') return serveBare();
  if (role === 'platform') return servePlatform();
  const { default: autocannon } = await import('autocannon');
  const duration = arg('duration', 10);
  const connections = arg('connections', 50);
  const bare = await start('bare');
  const platform = await start('platform');
  const rows = [];
  // Alternate to spread drift (thermal, GC) over both.
  for (let round = 0; round < 2; round++) {
    for (const [name, t] of [
      ['bare hono', bare],
      ['marketlens', platform],
    ]) {
      const r = await measure(autocannon, t, duration, connections);
      rows.push({ name, rps: r.requests.average, p99: r.latency.p99 });
    }
  }
  bare.child.disconnect();
  platform.child.disconnect();
  const avg = (n) => {
    const xs = rows.filter((r) => r.name === n);
    return { rps: xs.reduce((a, r) => a + r.rps, 0) / xs.length, p99: Math.max(...xs.map((r) => r.p99)) };
  };
  const b = avg('bare hono');
  const p = avg('marketlens');
  const cost = 1 - p.rps / b.rps;
  console.log(`| server | req/s | p99 ms |\n|---|---:|---:|`);
  console.log(`| bare hono | ${b.rps.toFixed(0)} | ${b.p99} |`);
  console.log(`| marketlens (auth, rate limit, envelope) | ${p.rps.toFixed(0)} | ${p.p99} |`);
  console.log(`\nplatform cost: ${(cost * 100).toFixed(1)}% of bare throughput (budget 20%)`);
  process.exitCode = cost < 0.2 ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
