#!/usr/bin/env node
/**
 * The asset page's first chart: milliseconds from navigation start to the first frame after the
 * chart was drawn (`performance.mark('ml:first-chart')` in the page), in headless Chromium against
 * the built server main on the embedded default (fresh data folder). One warm-up visit fills the
 * server's candle and analysis caches as any earlier visitor would; then RUNS visits, each in a
 * fresh browser profile (no HTTP cache), are measured. Prints every run, the median and the worst,
 * against the 1 s budget, and the initial JavaScript size gzipped against 150 kB.
 *
 *   pnpm build && pnpm --filter @marketlens/web bench      (RUNS=10 ASSET=ethereum to change)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const MAIN = resolve(HERE, '../../server/dist/main.js');
const DIST = resolve(HERE, '../dist');
const RUNS = Number(process.env.RUNS ?? 7);
const ASSET = process.env.ASSET ?? 'bitcoin';
const BUDGET_MS = 1000;
const JS_BUDGET = 150 * 1024;

function chromiumPath() {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found !== '') return found;
  }
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

async function startServer(dir) {
  const file = join(dir, 'marketlens.json');
  writeFileSync(file, JSON.stringify({ dataDir: join(dir, 'data'), port: 0, newsFeeds: [], pilot: 'off' }));
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, MARKETLENS_CONFIG: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 1200; i++) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url) return { child, url };
    if (child.exitCode !== null) throw new Error(`the server exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not start: ${out}`);
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A signed-in session cookie (analyses need an account), as the app's sign-up gets it. */
async function sessionCookie(base) {
  const res = await fetch(`${base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-cookie': '1', origin: base },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'correct horse battery' }),
  });
  const set = res.headers.get('set-cookie') ?? '';
  const [name, value] = set.split(';')[0].split('=');
  if (res.status !== 200 || !value) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return { name, value, url: base, httpOnly: true, sameSite: 'Strict' };
}

async function visit(executablePath, url, cookie) {
  const profile = mkdtempSync(join(tmpdir(), 'ml-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: ARGS,
  });
  try {
    await context.addCookies([cookie]);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForSelector('.chart-slot[data-ready="true"]', { timeout: 30_000 });
    return await page.evaluate(() => {
      const end = (pattern) =>
        performance.getEntriesByType('resource').find((e) => pattern.test(e.name))?.responseEnd ?? Number.NaN;
      return {
        chart: performance.getEntriesByName('ml:first-chart')[0]?.startTime ?? Number.NaN,
        script: end(/\/app\/assets\/.*\.js$/),
        candles: end(/\/candles\?/),
      };
    });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const executablePath = chromiumPath();
if (executablePath === undefined) {
  console.error('bench-first-chart: Chromium is missing (apt-get install -y chromium)');
  process.exit(1);
}
if (!existsSync(MAIN) || !existsSync(join(DIST, 'index.html'))) {
  console.error('bench-first-chart: build first (pnpm build)');
  process.exit(1);
}
const html = readFileSync(join(DIST, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]*\ssrc="\/app\/([^"]+)"/g)].map((m) => m[1]);
const jsGzip = scripts.reduce((sum, f) => sum + gzipSync(readFileSync(join(DIST, f))).byteLength, 0);

const dir = mkdtempSync(join(tmpdir(), 'ml-bench-web-'));
const server = await startServer(dir);
try {
  const url = `${server.url}/app/asset/${ASSET}`;
  const cookie = await sessionCookie(server.url);
  const warm = await visit(executablePath, url, cookie);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await visit(executablePath, url, cookie));
  const times = runs.map((r) => r.chart);
  const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const worst = sorted[sorted.length - 1];
  console.log(
    `first chart of ${url} (navigation start to the frame after the chart is drawn), ${RUNS} fresh profiles:`,
  );
  console.log(
    `  median script loaded at ${mid(runs.map((r) => r.script)).toFixed(0)} ms, candles answered at ${mid(runs.map((r) => r.candles)).toFixed(0)} ms`,
  );
  console.log(
    `  load average ${(await import('node:os')).loadavg()[0].toFixed(1)} on ${(await import('node:os')).cpus().length} cores`,
  );
  console.log(`  warm-up visit ${warm.chart.toFixed(0)} ms; runs ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(
    `  median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms; budget ${BUDGET_MS} ms: ${worst <= BUDGET_MS ? 'within' : 'OVER'}`,
  );
  console.log(
    `initial JavaScript ${(jsGzip / 1024).toFixed(1)} kB gzipped (${scripts.join(', ')}); budget 150 kB: ${jsGzip < JS_BUDGET ? 'within' : 'OVER'}`,
  );
  process.exitCode = worst <= BUDGET_MS && jsGzip < JS_BUDGET ? 0 : 1;
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
