#!/usr/bin/env node
// The live stream under load (not a test): N concurrent `GET /v2/stream` clients following
// `--assets` assets on m5 (stream i follows asset i mod assets), one candle close for all of them,
// and what it cost.
//   - delivery delay of the `analysis` event, p50 and p99, two ways: from the candle's end
//     (end to end: the settle wait, the analyses of every followed asset, the fan-out) and from
//     the moment the server published the event (its id's time) to the client's receipt (fan-out);
//   - the server's RSS per stream (RSS with the streams open less RSS before them, per stream);
//   - the server's CPU (user + system) while the streams opened, around the close (from the streams
//     open to the last receipt) and over it (from 300 ms before the candle's end to the last
//     receipt), and the clients' (this process, on the same cores) over it.
// The server runs as a child process on the built package (`pnpm --filter @marketlens/server
// build`) with the simulated venue on a shifted clock, so that an m5 candle ends `--lead` seconds
// after the start instead of at the next real boundary. With `--instances 3` the children share one
// PostgreSQL and one Redis (MARKETLENS_TEST_DATABASE_URL, MARKETLENS_TEST_REDIS_URL:
// `source .ci/services.sh`) and the streams are spread over them.
//   node scripts/bench-live.mjs [--streams 10000] [--assets 100] [--instances 1] [--lead 60] [--settle 250] [--dist dir] [--profile dir]
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
// `--dist dir` runs another build of the server (a copy of main's `dist` inside this package, so
// that its imports resolve): the before and after of a change, back to back.
const distArg = process.argv.indexOf('--dist');
const SERVER =
  process.env.BENCH_SERVER ??
  (distArg > 0
    ? resolvePath(process.argv[distArg + 1], 'index.js')
    : fileURLToPath(new URL('../dist/index.js', import.meta.url)));

/** A child: one server instance on the shifted clock; answers the parent's questions over IPC. */
async function serve() {
  const { startServer, createStorage, openDataDir, openSharedState, liveIn, DEFAULT_CONFIG } = await import(SERVER);
  const { createSimulatedVenue } = await import('@marketlens/exchanges');
  const offset = Number(process.env.BENCH_OFFSET);
  const now = () => Date.now() + offset;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-live-'));
  const dbUrl = process.env.BENCH_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  const storage = dbUrl ? await createStorage({ url: dbUrl }) : openDataDir(dataDir);
  const shared = redisUrl ? await openSharedState(redisUrl) : undefined;
  const config = {
    ...DEFAULT_CONFIG,
    // the clients are all on loopback: the per-address connection cap and budget would refuse them
    trustedProxies: ['127.0.0.1'],
    rateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
    live: { settleMs: Number(process.env.BENCH_SETTLE) },
  };
  const market = createSimulatedVenue({ now });
  const deps = { storage, config, now, market, ...(shared ? { shared } : {}), credentialsKey: randomBytes(32) };
  const server = await startServer(
    { port: 0, host: '127.0.0.1', dataDir, config, connections: { total: 32_768, perIp: 1_000_000 } },
    storage,
    market,
    { deps },
  );
  let session = null;
  process.on('message', async (m) => {
    if (m.kind === 'profile') {
      // `--profile dir`: a CPU profile of the server over the close (from 2 s before the candle's end).
      const { Session } = await import('node:inspector/promises');
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      process.send({ kind: 'profile' });
    } else if (m.kind === 'profile-stop') {
      const { profile } = await session.post('Profiler.stop');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(m.file, JSON.stringify(profile));
      session.disconnect();
      process.send({ kind: 'profile-stop' });
    } else if (m.kind === 'stats') {
      const cpu = process.cpuUsage();
      process.send({
        kind: 'stats',
        rss: process.memoryUsage().rss,
        cpuMs: (cpu.user + cpu.system) / 1000,
        live: liveIn(deps)?.stats() ?? null,
      });
    } else if (m.kind === 'elite') {
      await storage.users.setTier(m.userId, 'elite');
      process.send({ kind: 'elite' });
    } else if (m.kind === 'stop') {
      await server.close();
      await shared?.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send({ kind: 'ready', url: server.url });
}

function ask(child, message, kind) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m.kind !== kind) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send(message);
  });
}

const READY = Buffer.from('event: ready');
const ANALYSIS = Buffer.from('\nevent: analysis\n');
const ID = Buffer.from('id: ');
const BLANK = Buffer.from('\n\n');

const pct = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const ms = (x) => `${Math.round(x)} ms`;

async function main() {
  const streams = arg('streams', 10_000);
  const assets = arg('assets', 100);
  const instances = arg('instances', 1);
  const lead = arg('lead', 60) * 1000;
  const settle = arg('settle', 250);
  const env = { ...process.env, BENCH_SERVER: SERVER };
  if (instances > 1) {
    const db = process.env.MARKETLENS_TEST_DATABASE_URL;
    const redis = process.env.MARKETLENS_TEST_REDIS_URL;
    if (!db || !redis) {
      console.error(
        'several instances need MARKETLENS_TEST_DATABASE_URL and MARKETLENS_TEST_REDIS_URL (source .ci/services.sh)',
      );
      process.exit(2);
    }
    env.BENCH_DATABASE_URL = db;
    env.BENCH_REDIS_URL = redis;
  }
  // The simulated clock is shifted so that an m5 candle ends `lead` from now.
  const start = Date.now();
  // A Wednesday at 15:00 UTC in the simulated market: coins, stocks and fx all trade then.
  const week = 7 * 86_400_000;
  const wednesday = Date.UTC(2026, 0, 7, 15);
  // A week drawn per run: runs back to back on one Redis would otherwise close the same candle,
  // whose claim and shared analysis the previous run holds for five minutes.
  const boundary = wednesday + (Math.ceil((start - wednesday) / week) + Math.floor(Math.random() * 500)) * week;
  const offset = boundary - (start + lead);
  const closeAt = start + lead; // real time of the candle's end
  env.BENCH_OFFSET = String(offset);
  env.BENCH_SETTLE = String(settle);

  const children = [];
  for (let i = 0; i < instances; i++) {
    const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise((resolve) => child.once('message', resolve));
    children.push({ child, url: new URL(ready.url) });
  }
  const base = children[0].url;
  const request = (url, path, init = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path, agent: false, ...init }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
      req.end(init.body);
    });
  const signup = await request(base, '/v1/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench${randomBytes(4).toString('hex')}@example.com`, password: 'password-123' }),
  });
  const { session_token: token, user } = JSON.parse(signup.body).data;
  await ask(children[0].child, { kind: 'elite', userId: user.id }, 'elite');
  // Coins, stocks and fx; stablecoins (not analysed) are found by the stream's own refusal.
  const list = JSON.parse(
    (await request(base, '/v2/assets/?asset_class=all&limit=250', { headers: { 'x-session-token': token } })).body,
  );
  const ids = [];
  for (const a of list.data) {
    if (ids.length >= assets) break;
    const probe = await new Promise((resolve) => {
      const req = http.get(
        {
          host: base.hostname,
          port: base.port,
          path: `/v2/stream?follow=${a.id}:m5`,
          headers: { 'x-session-token': token },
          agent: false,
        },
        (res) => {
          resolve(res.statusCode);
          req.destroy();
        },
      );
      req.on('error', () => resolve(0));
    });
    if (probe === 200) ids.push(a.id);
  }
  if (ids.length < assets) console.log(`(the venue lists ${ids.length} assets of the class asked: following those)`);

  const before = await Promise.all(children.map(({ child }) => ask(child, { kind: 'stats' }, 'stats')));
  const clients = [];
  const opened = Date.now();
  let connected = 0;
  let failed = 0;
  const failures = new Map();
  await new Promise((resolveAll) => {
    let pending = streams;
    const done = () => {
      pending--;
      if (pending === 0) resolveAll();
    };
    for (let i = 0; i < streams; i++) {
      const { url } = children[i % children.length];
      const c = { asset: ids[i % ids.length], received: null, id: null, bytes: 0, ready: false, req: null };
      clients.push(c);
      let tail = null;
      c.req = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: `/v2/stream?follow=${c.asset}:m5`,
          headers: { 'x-session-token': token },
          agent: false,
        },
        (res) => {
          if (res.statusCode !== 200) {
            failed++;
            failures.set(`HTTP ${res.statusCode}`, (failures.get(`HTTP ${res.statusCode}`) ?? 0) + 1);
            res.resume();
            done();
            return;
          }
          // Bytes, not strings: the client shares the two cores with the server, so it decodes
          // nothing but the analysis event's id. The receipt is the end of that frame (its blank
          // line), so the whole event was delivered, not its first bytes.
          let start = -1; // the analysis frame's offset in `pending` once its start was seen
          let pending = null;
          res.on('data', (chunk) => {
            if (!c.ready && chunk.includes(READY)) {
              c.ready = true;
              connected++;
              done();
            }
            if (c.received !== null) return;
            if (start < 0) {
              const text = tail === null ? chunk : Buffer.concat([tail, chunk]);
              const at = text.indexOf(ANALYSIS);
              if (at < 0) {
                tail = text.subarray(Math.max(0, text.length - 64));
                return;
              }
              const idAt = text.lastIndexOf(ID, at);
              start = idAt >= 0 && at - idAt < 40 ? idAt : at;
              pending = text;
            } else pending = Buffer.concat([pending, chunk]);
            const end = pending.indexOf(BLANK, start);
            if (end < 0) return;
            c.received = Date.now();
            c.bytes = end + 2 - start;
            const m = /^id: (\d+)-\d+\n/.exec(pending.subarray(start, start + 48).toString('latin1'));
            c.id = m === null ? null : Number(m[1]);
            pending = null;
          });
        },
      );
      c.req.on('error', (err) => {
        if (!c.ready) {
          failed++;
          failures.set(err.code ?? err.message, (failures.get(err.code ?? err.message) ?? 0) + 1);
          done();
        }
      });
    }
  });
  const openMs = Date.now() - opened;
  const during = await Promise.all(children.map(({ child }) => ask(child, { kind: 'stats' }, 'stats')));
  if (Date.now() > closeAt)
    console.log('warning: the streams took longer to open than --lead; the candle closed before some of them');
  // Wait for the close, the settle, the analyses and the fan-out (at most 60 s after the close).
  const profileDir = process.argv.includes('--profile') ? process.argv[process.argv.indexOf('--profile') + 1] : null;
  const cpuBefore = await Promise.all(children.map(({ child }) => ask(child, { kind: 'stats' }, 'stats')));
  // The close alone: CPU (and the profile) from 300 ms before the candle's end to the last receipt,
  // without the price ticks of the wait.
  // (The profiler is started 2 s earlier: attaching it takes a while on a loaded machine.)
  const until = (at) => (Date.now() < at ? new Promise((r) => setTimeout(r, at - Date.now())) : undefined);
  await until(closeAt - 2_000);
  if (profileDir !== null) await Promise.all(children.map(({ child }) => ask(child, { kind: 'profile' }, 'profile')));
  await until(closeAt - 300);
  const cpuClose = await Promise.all(children.map(({ child }) => ask(child, { kind: 'stats' }, 'stats')));
  const clientCpuBefore = process.cpuUsage();
  const early = clients.filter((c) => c.received !== null).length;
  if (early > 0) console.log(`warning: ${early} streams had the analysis before the CPU window opened`);
  const deadline = closeAt + 60_000;
  while (Date.now() < deadline && clients.some((c) => c.ready && c.received === null))
    await new Promise((r) => setTimeout(r, 200));
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const after = await Promise.all(children.map(({ child }) => ask(child, { kind: 'stats' }, 'stats')));
  if (profileDir !== null) {
    await Promise.all(
      children.map(({ child }, i) =>
        ask(child, { kind: 'profile-stop', file: join(profileDir, `server-${i}.cpuprofile`) }, 'profile-stop'),
      ),
    );
    console.log(
      `CPU profiles of the close: ${profileDir}/server-*.cpuprofile (from 2 s before the candle's end to the last receipt)`,
    );
  }

  const got = clients.filter((c) => c.received !== null);
  const e2e = got.map((c) => c.received - closeAt).sort((a, b) => a - b);
  // An id's time is Redis's clock (the real one) for events through Redis, the server's (shifted)
  // clock for events an instance made itself (one instance, or Redis away): the reading closer to
  // the receipt is the one.
  const published = (c) =>
    Math.abs(c.received - c.id) < Math.abs(c.received - (c.id - offset)) ? c.id : c.id - offset;
  const fanout = got
    .filter((c) => c.id !== null)
    .map((c) => c.received - published(c))
    .sort((a, b) => a - b);
  console.log(
    `live stream bench: ${streams} streams over ${instances} instance(s), ${ids.length} assets on m5, settle ${settle} ms`,
  );
  console.log(
    `machine: ${availableParallelism()} cores, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `opened ${connected} streams in ${ms(openMs)} (${failed} refused or failed${failed > 0 ? `: ${[...failures].map(([k, n]) => `${n} ${k}`).join(', ')}` : ''})`,
  );
  const bytes = got.map((c) => c.bytes).sort((a, b) => a - b);
  console.log(
    `analysis received by ${got.length} of ${connected} streams (frames of ${bytes[0]}-${bytes.at(-1)} bytes, ${(bytes.reduce((a, b) => a + b, 0) / 2 ** 20).toFixed(0)} MiB in all)`,
  );
  console.log(
    `delay from the candle's end: p50 ${ms(pct(e2e, 0.5))}, p99 ${ms(pct(e2e, 0.99))}, max ${ms(e2e.at(-1) ?? NaN)}`,
  );
  console.log(
    `delay from publication (fan-out): p50 ${ms(pct(fanout, 0.5))}, p99 ${ms(pct(fanout, 0.99))}, max ${ms(fanout.at(-1) ?? NaN)}`,
  );
  children.forEach((_, i) => {
    const open = during[i].live?.streams ?? 0;
    const perStream = open > 0 ? (during[i].rss - before[i].rss) / open : NaN;
    console.log(
      `instance ${i}: ${open} streams, RSS ${(before[i].rss / 2 ** 20).toFixed(0)} -> ${(during[i].rss / 2 ** 20).toFixed(0)} MiB (${(perStream / 1024).toFixed(1)} KiB per stream); CPU ${ms(during[i].cpuMs - before[i].cpuMs)} opening, ${ms(after[i].cpuMs - cpuBefore[i].cpuMs)} around the close, ${ms(after[i].cpuMs - cpuClose[i].cpuMs)} over it; computed ${(after[i].live?.computed ?? NaN) - (before[i].live?.computed ?? 0)} of the close's analyses`,
    );
  });
  // The clients share the cores with the server: their CPU over the same window.
  console.log(
    `clients (this process): CPU ${ms((clientCpu.user + clientCpu.system) / 1000)} over the close; servers ${ms(after.reduce((a, x, i) => a + x.cpuMs - cpuClose[i].cpuMs, 0))}`,
  );
  for (const c of clients) c.req.destroy();
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((r) => {
          child.once('exit', r);
          child.send({ kind: 'stop' });
        }),
    ),
  );
}

if (process.argv[2] === '--serve') await serve();
else await main();
