#!/usr/bin/env node
// Analysis serving cost, on loopback, each server in its own child process, peers measured in
// the same run:
//   cached     GET /v2/analysis/bitcoin (Pro session, the analysis cache warm) with autocannon,
//              against bare hono answering the very same JSON bytes: req/s and p99, and the ratio.
//              Targets: >= 5,000 req/s on 2 cores, p99 < 20 ms.
//   uncached   one request at a time, each a distinct (asset, timeframe) with a Pro API key, so
//              every one computes candles + analyze(); p50 against the same URLs served again from
//              the cache. Target: p50 < 10 ms.
// Prints a table; exits 0 (a report, not a test). Needs `pnpm build` (reads ../dist).
//   node scripts/bench-analysis.mjs [--duration 5] [--warmup 2] [--runs 3] [--connections 50] [--uncached 200]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

async function listen(app) {
  const { serve } = await import('@hono/node-server');
  return new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ server: s, url: `http://127.0.0.1:${info.port}` }),
    );
  });
}

async function serveBare() {
  const { Hono } = await import('hono');
  const body = await new Promise((resolve) => process.once('message', (m) => resolve(Buffer.from(m.body, 'base64'))));
  const app = new Hono();
  app.get('/v2/analysis/bitcoin', (c) => c.body(body, 200, { 'content-type': 'application/json' }));
  const { server, url } = await listen(app);
  process.send({ url });
  process.on('disconnect', () => server.close());
}

async function servePlatform() {
  const ml = await import('../dist/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-analysis-'));
  const storage = ml.openDataDir(dir);
  const demo = await ml.seedDemo(storage);
  await ml.setUserTier(storage, ml.DEMO_EMAIL, 'pro');
  const config = { ...ml.DEFAULT_CONFIG, rateLimit: { limit: 1e12, windowMs: 60_000 } };
  const app = ml.createApp({ storage, config, now: Date.now }, { logError: () => {} });
  const { server, url } = await listen(app);
  process.send({ url, session: demo.session_token, apiKey: demo.api_key });
  process.on('disconnect', () => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

function start(role) {
  const child = fork(fileURLToPath(import.meta.url), [role], { stdio: 'inherit' });
  return {
    child,
    ready: new Promise((resolve) => child.once('message', (m) => resolve(m))),
  };
}

async function hammer(autocannon, url, headers, duration, connections) {
  const r = await autocannon({ url, headers, duration, connections });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function timed(url, headers) {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return ms;
}

async function main() {
  const role = process.argv[2];
  if (role === 'bare') return serveBare();
  if (role === 'platform') return servePlatform();
  const { default: autocannon } = await import('autocannon');
  const duration = arg('duration', 5);
  const warmup = arg('warmup', 2);
  const runs = arg('runs', 3);
  const connections = arg('connections', 50);
  const uncachedN = arg('uncached', 200);

  const platform = start('platform');
  const p = await platform.ready;
  const session = { 'x-session-token': p.session };
  const cachedUrl = `${p.url}/v2/analysis/bitcoin`;
  const first = await fetch(cachedUrl, { headers: session });
  if (first.status !== 200) throw new Error(`${cachedUrl}: ${first.status}`);
  const bytes = Buffer.from(await first.arrayBuffer());
  const bare = start('bare');
  bare.child.send({ body: bytes.toString('base64') });
  const b = await bare.ready;

  // Cached: interleaved runs so drift spreads over both servers.
  const cases = [
    { name: 'bare hono, same bytes', url: `${b.url}/v2/analysis/bitcoin`, headers: {} },
    { name: 'marketlens, cached analysis', url: cachedUrl, headers: session },
  ];
  for (const c of cases) await hammer(autocannon, c.url, c.headers, warmup, connections);
  const results = new Map(cases.map((c) => [c.name, { rps: [], p99: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const c of cases) {
      const r = await hammer(autocannon, c.url, c.headers, duration, connections);
      results.get(c.name).rps.push(r.requests.average);
      results.get(c.name).p99.push(r.latency.p99);
    }
  }

  // Uncached: distinct (asset, timeframe) pairs, one at a time, then the same URLs again (cached).
  const key = { 'x-api-key': p.apiKey };
  const assets = (await (await fetch(`${p.url}/v2/assets/?asset_class=all&limit=500`, { headers: session })).json())
    .data;
  const ids = (Array.isArray(assets) ? assets : (assets.assets ?? assets.items ?? []))
    .filter((a) => !a.is_stablecoin)
    .map((a) => a.id ?? a.asset_id);
  const urls = [];
  for (const tf of ['d1', 'h4', 'h1', 'm30', 'm15', 'w1', 'm5']) {
    for (const id of ids) urls.push(`${p.url}/v2/analysis/${encodeURIComponent(id)}?timeframe=${tf}`);
  }
  // Warm the code paths on URLs not measured (deep windows), then measure.
  for (const id of ids.slice(0, 10)) await timed(`${p.url}/v2/analysis/${id}?limit=400`, key).catch(() => 0);
  const cold = [];
  const warm = [];
  const measured = [];
  for (const url of urls) {
    if (measured.length >= uncachedN) break;
    try {
      cold.push(await timed(url, key));
      measured.push(url);
    } catch {
      // An asset without enough candles on a timeframe (404) is not a sample.
    }
  }
  for (const url of measured) warm.push(await timed(url, key));

  bare.child.disconnect();
  platform.child.disconnect();

  const bareRps = median(results.get(cases[0].name).rps);
  console.log(
    `cached: ${runs} runs of ${duration} s after ${warmup} s warm-up, ${connections} connections, ${bytes.length} bytes per answer; medians\n`,
  );
  console.log('| server | req/s | p99 ms | runs (req/s) | vs bare |\n|---|---:|---:|---|---:|');
  for (const [name, r] of results) {
    const rps = median(r.rps);
    console.log(
      `| ${name} | ${rps.toFixed(0)} | ${median(r.p99)} | ${r.rps.map((x) => x.toFixed(0)).join(', ')} | ${(rps / bareRps).toFixed(2)}x |`,
    );
  }
  const cachedRps = median(results.get(cases[1].name).rps);
  const cachedP99 = median(results.get(cases[1].name).p99);
  console.log(
    `\ncached target >= 5000 req/s: ${cachedRps >= 5000 ? 'met' : 'MISSED'}; p99 < 20 ms: ${cachedP99 < 20 ? 'met' : 'MISSED'}`,
  );
  const p50c = quantile(cold, 0.5);
  const p50w = quantile(warm, 0.5);
  console.log(
    `\nuncached: ${cold.length} distinct (asset, timeframe) analyses, one at a time, Pro API key, default depth 500\n`,
  );
  console.log('| case | p50 ms | p90 ms | p99 ms |\n|---|---:|---:|---:|');
  console.log(
    `| uncached analysis | ${p50c.toFixed(2)} | ${quantile(cold, 0.9).toFixed(2)} | ${quantile(cold, 0.99).toFixed(2)} |`,
  );
  console.log(
    `| same URLs, cached (peer) | ${p50w.toFixed(2)} | ${quantile(warm, 0.9).toFixed(2)} | ${quantile(warm, 0.99).toFixed(2)} |`,
  );
  console.log(
    `\nuncached p50 = ${(p50c / p50w).toFixed(1)}x the cached p50; target < 10 ms: ${p50c < 10 ? 'met' : 'MISSED'}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
