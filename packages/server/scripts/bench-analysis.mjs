#!/usr/bin/env node
// Analysis serving cost, on loopback, each server in its own child process, peers measured in
// the same run:
//   cached     GET /v2/analysis/bitcoin (Pro session, the analysis cache warm) against bare hono
//              answering the very same bytes (given the same request headers), in two parts:
//              - side by side: both servers pinned to the last CPU and loaded at the same time,
//                each by its own autocannon process on CPU 0, so each one's throughput follows its
//                CPU cost per request and other tenants of the host slow both at once; `--runs`
//                rounds of `--duration` s, ratio = median of requests(marketlens) / requests(bare).
//                Target: >= 0.85x.
//              - alone: each server by itself on that CPU (rounds alternating), autocannon on CPU 0:
//                req/s, p50 and p99 at `--connections`. Target: marketlens p99 < 10 ms.
//              `--coding br` (or gzip) asks for a compressed body; bare hono then sends the same
//              compressed bytes with their content-encoding. `--same-headers`: bare hono sends
//              every response header marketlens sent too (the rate-limit headers, tag, caching
//              and vary the contract requires), so the ratio is of two identical responses.
//   uncached   one request at a time with a Pro API key and a browser's Accept-Encoding, each a
//              distinct (asset, timeframe) whose analysis is not cached, so each computes
//              analyze(), serializes, hashes and compresses; the venue has read the series once
//              before (a request at another depth), so what is timed is the analysis, not the
//              simulated venue generating a series it never made (reported apart: first read).
//              p50 against the same URLs served again from the cache. Target: p50 < 3 ms.
// Without taskset or with one CPU, the cached parts run sequentially and unpinned.
// Prints tables and the load average before and after; exits 0 (a report, not a test).
// Needs `pnpm --filter @marketlens/server build` (reads ../dist).
//   node scripts/bench-analysis.mjs [--runs 8] [--duration 3] [--warmup 4] [--connections 50]
//     [--uncached 200] [--coding br|gzip] [--same-headers]
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const argText = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const PATH = '/v2/analysis/bitcoin';

async function listen(app, serverOptions) {
  const { serve } = await import('@hono/node-server');
  let requests = 0;
  const server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions }, () => resolve(s));
  });
  server.on('request', () => requests++);
  // The parent asks before and after each round: CPU microseconds used and requests served so far.
  process.on('message', (m) => {
    if (m !== 'usage') return;
    const u = process.cpuUsage();
    process.send({ cpuUs: u.user + u.system, requests });
  });
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function serveBare() {
  const { Hono } = await import('hono');
  const { body, coding, sent } = await new Promise((resolve) => process.once('message', resolve));
  const bytes = Buffer.from(body, 'base64');
  const headers = sent ?? { 'content-type': 'application/json', ...(coding ? { 'content-encoding': coding } : {}) };
  const app = new Hono();
  app.get(PATH, (c) => c.body(bytes, 200, headers));
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
  // A budget no run spends (in the small-integer range, like the real 2,000), so no 429.
  const config = { ...ml.DEFAULT_CONFIG, rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } };
  const app = ml.createApp({ storage, config, now: Date.now }, { logError: () => {} });
  // Served like `startServer` serves it (its Node response class carries the rate-limit headers).
  const { server, url } = await listen(app, ml.PLATFORM_SERVER_OPTIONS);
  process.send({ url, session: demo.session_token, apiKey: demo.api_key });
  process.on('disconnect', () => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** A load generator child: runs autocannon once per message and reports the result. */
function serveLoad() {
  process.on('message', async ({ url, headers, duration, connections }) => {
    const { default: autocannon } = await import('autocannon');
    const r = await autocannon({ url, headers, duration, connections });
    process.send({
      requests: r.requests.total,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    });
  });
  process.on('disconnect', () => process.exit(0));
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
  return child;
}
const ready = (child) => new Promise((resolve) => child.once('message', resolve));
const ask = (child, message) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** One GET on a keep-alive connection: status, body bytes, milliseconds to the last byte. */
function get(agent, url, headers) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - t0,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Rounds of the cached case. Side by side: both servers at once, each driven by its own load
 * process. Alone: one server at a time, alternating. Per round and server: requests answered,
 * CPU time, autocannon's figures.
 */
async function rounds(cases, { warmup, runs, duration, connections, together }) {
  const loads = cases.map(() => start('load', cases.pinLoad));
  const once = async (seconds, which) => {
    const before = await Promise.all(which.map((i) => ask(cases[i].server, 'usage')));
    const results = await Promise.all(
      which.map((i) => ask(loads[i], { url: cases[i].url, headers: cases[i].headers, duration: seconds, connections })),
    );
    const after = await Promise.all(which.map((i) => ask(cases[i].server, 'usage')));
    return which.map((i, k) => {
      const r = results[k];
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${cases[i].url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      return { ...r, served: after[k].requests - before[k].requests, cpuUs: after[k].cpuUs - before[k].cpuUs };
    });
  };
  const all = cases.map((_, i) => i);
  const out = [];
  if (together) {
    await once(warmup, all);
    for (let i = 0; i < runs; i++) out.push(await once(duration, all));
  } else {
    for (const i of all) await once(warmup, [i]);
    for (let r = 0; r < runs; r++) {
      const round = [];
      for (const i of r % 2 === 0 ? all : [...all].reverse()) round[i] = (await once(duration, [i]))[0];
      out.push(round);
    }
  }
  for (const l of loads) l.disconnect();
  return out;
}

async function main() {
  const role = process.argv[2];
  if (role === 'bare') return serveBare();
  if (role === 'platform') return servePlatform();
  if (role === 'load') return serveLoad();
  const duration = arg('duration', 3);
  const warmup = arg('warmup', 4);
  const runs = arg('runs', 8);
  const connections = arg('connections', 50);
  const uncachedN = arg('uncached', 200);
  const coding = argText('coding');
  const loadBefore = load();

  const cpus = availableParallelism();
  const serverCpu = cpus >= 2 && pin(process.pid, 0) ? cpus - 1 : undefined;
  const platform = start('platform', serverCpu);
  const p = await ready(platform);
  const session = { 'x-session-token': p.session };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const asked = { ...session, ...(coding ? { 'accept-encoding': coding } : {}) };
  // A coded variant is made off the request path: the identity is sent until it is ready.
  let first = await get(agent, `${p.url}${PATH}`, asked);
  for (let i = 0; i < 100 && (first.headers['content-encoding'] ?? undefined) !== coding; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    first = await get(agent, `${p.url}${PATH}`, asked);
  }
  if (first.status !== 200) throw new Error(`${PATH}: ${first.status}`);
  if ((first.headers['content-encoding'] ?? undefined) !== coding) throw new Error(`${PATH}: not ${coding}`);
  const bare = start('bare', serverCpu);
  // With --same-headers, what marketlens sent but the headers Node writes itself.
  const sameHeaders = process.argv.includes('--same-headers');
  const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  const sent = sameHeaders ? Object.fromEntries(Object.entries(first.headers).filter(([k]) => !own.has(k))) : undefined;
  bare.send({ body: first.body.toString('base64'), coding, sent });
  const peer = sameHeaders ? 'bare hono, same bytes and headers' : 'bare hono, same bytes';
  const b = await ready(bare);

  // The same request bytes to both servers: the session header (and Accept-Encoding) included.
  const cases = [
    { name: peer, server: bare, url: `${b.url}${PATH}`, headers: asked },
    { name: 'marketlens, cached analysis', server: platform, url: `${p.url}${PATH}`, headers: asked },
  ];
  cases.pinLoad = serverCpu === undefined ? undefined : 0;
  const options = { warmup, runs, duration, connections };
  const together = serverCpu === undefined ? null : await rounds(cases, { ...options, together: true });
  const alone = await rounds(cases, { ...options, runs: Math.min(runs, 4), together: false });

  // Uncached: distinct (asset, timeframe) pairs, one at a time; the venue reads each series once
  // first (another depth: another analysis), then the measured request, then the same again cached.
  const key = { 'x-api-key': p.apiKey, 'accept-encoding': 'gzip, deflate, br' };
  const listed = JSON.parse((await get(agent, `${p.url}/v2/assets/?asset_class=all&limit=500`, session)).body).data;
  const ids = (Array.isArray(listed) ? listed : (listed.assets ?? listed.items ?? []))
    .filter((a) => !a.is_stablecoin)
    .map((a) => a.id ?? a.asset_id);
  const urls = [];
  for (const tf of ['d1', 'h4', 'h1', 'm30', 'm15', 'w1', 'm5']) {
    for (const id of ids) urls.push(`${p.url}/v2/analysis/${encodeURIComponent(id)}?timeframe=${tf}`);
  }
  // Three passes over the same URLs, the platform's CPU time read around each: first reads (another
  // depth), the measured uncached analyses, the same again from the cache.
  const samples = urls.slice(0, Math.ceil(uncachedN * 1.5));
  const pass = async (list, suffix) => {
    const before = await ask(platform, 'usage');
    const out = [];
    for (const url of list) {
      const r = await get(agent, `${url}${suffix}`, key);
      out.push({ url, ok: r.status === 200, ms: r.ms });
    }
    const after = await ask(platform, 'usage');
    return { out, cpuMs: (after.cpuUs - before.cpuUs) / 1000 / list.length };
  };
  const firstRead = await pass(samples, '&limit=499');
  // An asset without enough candles on a timeframe (404) is not a sample.
  const measured = firstRead.out
    .filter((r) => r.ok)
    .map((r) => r.url)
    .slice(0, uncachedN);
  const cold = await pass(measured, '');
  const warm = await pass(measured, '');
  if (cold.out.some((r) => !r.ok)) throw new Error('an uncached analysis failed');
  agent.destroy();
  bare.disconnect();
  platform.disconnect();

  console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${load()} after; ${cpus} CPUs`);
  console.log(
    `cached: ${first.body.length} bytes per answer (${coding ?? 'identity'}), ${connections} connections per server, rounds of ${duration} s after ${warmup} s warm-up`,
  );
  const ratios = [];
  if (together) {
    console.log(`\nside by side on CPU ${serverCpu} (load on CPU 0), ${runs} rounds:\n`);
    console.log('| server | requests per round (median) | rounds | CPU us per request |\n|---|---:|---|---:|');
    for (const [i, c] of cases.entries()) {
      const rs = together.map((r) => r[i]);
      console.log(
        `| ${c.name} | ${median(rs.map((r) => r.served)).toFixed(0)} | ${rs.map((r) => r.served).join(' ')} | ${median(rs.map((r) => r.cpuUs / r.served)).toFixed(1)} |`,
      );
    }
    for (const [bareRound, mlRound] of together) ratios.push(mlRound.served / bareRound.served);
  }
  console.log(
    `\nalone${serverCpu === undefined ? ' (unpinned)' : ` on CPU ${serverCpu}`}, ${alone.length} rounds each:\n`,
  );
  console.log('| server | req/s | p50 ms | p99 ms | rounds (req/s) | rounds (p99 ms) |\n|---|---:|---:|---:|---|---|');
  for (const [i, c] of cases.entries()) {
    const rs = alone.map((r) => r[i]);
    console.log(
      `| ${c.name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.p50))} | ${median(rs.map((r) => r.p99))} | ${rs.map((r) => r.rps.toFixed(0)).join(' ')} | ${rs.map((r) => r.p99).join(' ')} |`,
    );
  }
  if (!together) for (const [bareRound, mlRound] of alone) ratios.push(mlRound.rps / bareRound.rps);
  const ratio = median(ratios);
  const p99 = median(alone.map((r) => r[1].p99));
  console.log(
    `\ncached vs ${peer}: ${ratio.toFixed(3)}x (rounds ${ratios.map((x) => x.toFixed(2)).join(' ')}); target >= 0.85x: ${ratio >= 0.85 ? 'met' : 'MISSED'}`,
  );
  console.log(`cached p99 ${p99} ms; target < 10 ms: ${p99 < 10 ? 'met' : 'MISSED'}`);

  console.log(
    `\nuncached: ${cold.out.length} distinct (asset, timeframe) analyses, one at a time, Pro API key, Accept-Encoding gzip, deflate, br, default depth 500\n`,
  );
  console.log('| case | p50 ms | p90 ms | p99 ms | server CPU ms per request |\n|---|---:|---:|---:|---:|');
  const row = (name, { cpuMs }, rs) => {
    const xs = rs.map((r) => r.ms);
    console.log(
      `| ${name} | ${quantile(xs, 0.5).toFixed(2)} | ${quantile(xs, 0.9).toFixed(2)} | ${quantile(xs, 0.99).toFixed(2)} | ${cpuMs.toFixed(2)} |`,
    );
  };
  row(
    'first read of the series (venue generates it), depth 499',
    firstRead,
    firstRead.out.filter((r) => r.ok),
  );
  row('uncached analysis', cold, cold.out);
  row('same URLs, cached (peer)', warm, warm.out);
  const p50 = quantile(
    cold.out.map((r) => r.ms),
    0.5,
  );
  console.log(`\nuncached p50 ${p50.toFixed(2)} ms; target < 3 ms: ${p50 < 3 ? 'met' : 'MISSED'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
