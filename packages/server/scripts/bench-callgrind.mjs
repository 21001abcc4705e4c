#!/usr/bin/env node
// Instructions per request, counted by valgrind's callgrind (repeatable whatever else the machine
// does): the trivial JSON route of `scripts/bench.mjs` on bare hono and on the marketlens app
// (its `bare` and `platform` servers), each in its own process under callgrind.
//
// Method: start the server under `valgrind --tool=callgrind --separate-threads=yes`, send
// `--warmup` requests (JIT warm-up), zero the counters (`callgrind_control --zero`), send
// `--requests` requests over `--connections` keep-alive connections, dump (`callgrind_control
// --dump`) and divide. Printed per server and case: the main thread (the JavaScript and the
// socket work of the request) and all threads (the compiler and GC helpers too). Under valgrind a
// request takes ~50x longer, so the session cache's 1 s TTL covers ~50x fewer requests than in a
// real run: the session case slightly overstates the platform.
//
// Needs valgrind (Debian's package) and the built server (`pnpm --filter @marketlens/server build`).
//   node scripts/bench-callgrind.mjs [--warmup 5000] [--requests 5000] [--connections 10]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const BENCH = fileURLToPath(new URL('./bench.mjs', import.meta.url));

function has(command) {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Starts `bench.mjs <role>` under callgrind; resolves with its pid, URL and demo token. */
function underCallgrind(role, dir) {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(dir, `${role}.%p`)}`,
      process.execPath,
      BENCH,
      role,
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ...m }));
    child.once('exit', (code) => reject(new Error(`${role} under valgrind exited ${code}: ${err.slice(-2000)}`)));
  });
}

/** Sum of the `summary:` (or `totals:`) lines of the dump files of `pid` after `since`. */
function counted(dir, role, pid, since) {
  let main = 0;
  let all = 0;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${role}.${pid}`) || since.has(name)) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    const line = /^(?:summary|totals): (\d+)/m.exec(text);
    if (line === null) continue;
    const n = Number(line[1]);
    all += n;
    if (/-01$/.test(name)) main += n; // thread 1: the main thread
  }
  return { main, all };
}

async function load(url, headers, amount, connections) {
  const { default: autocannon } = await import('autocannon');
  // under valgrind a request takes ~50x longer: a generous timeout
  const r = await autocannon({ url, headers, amount, connections, timeout: 120 });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
}

async function main() {
  if (!has('valgrind') || !has('callgrind_control')) {
    console.error('needs valgrind and callgrind_control (apt-get install valgrind)');
    process.exit(2);
  }
  const warmup = arg('warmup', 5000);
  const requests = arg('requests', 5000);
  const connections = arg('connections', 10);
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-callgrind-'));
  const rows = [];
  try {
    for (const role of ['bare', 'platform']) {
      const server = await underCallgrind(role, dir);
      const cases =
        role === 'bare'
          ? [
              ['no credential', `${server.url}/bench/ping`, {}],
              ['session', `${server.url}/bench/ping`, { 'x-session-token': 'x'.repeat(43) }],
            ]
          : [
              ['no credential', `${server.url}/bench/public`, {}],
              ['session', `${server.url}/bench/ping`, { 'x-session-token': server.token }],
            ];
      for (const [name, url, headers] of cases) {
        await load(url, headers, warmup, connections);
        const since = new Set(readdirSync(dir));
        execFileSync('callgrind_control', ['--zero', String(server.child.pid)], { stdio: 'ignore' });
        await load(url, headers, requests, connections);
        execFileSync('callgrind_control', ['--dump', String(server.child.pid)], { stdio: 'ignore' });
        const c = counted(dir, role, server.child.pid, since);
        rows.push({ server: role === 'bare' ? 'bare hono' : 'marketlens', name, ...c });
      }
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const k = (n) => `${(n / requests / 1000).toFixed(1)}k`;
  console.log(`instructions per request (${requests} requests after ${warmup} warm-up, ${connections} connections)`);
  console.log('server | case | main thread | all threads');
  for (const r of rows) console.log(`${r.server} | ${r.name} | ${k(r.main)} | ${k(r.all)}`);
  for (const name of ['no credential', 'session']) {
    const bare = rows.find((r) => r.server === 'bare hono' && r.name === name);
    const ml = rows.find((r) => r.server === 'marketlens' && r.name === name);
    console.log(`${name}: marketlens / bare hono = ${(ml.main / bare.main).toFixed(3)} (main thread)`);
  }
}

await main();
