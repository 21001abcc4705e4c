#!/usr/bin/env node
// Router cost on the app's real route table: hono's TrieRouter (what its SmartRouter settles on for
// these routes) against MemoRouter (the same, with each recent path's answer remembered), per match,
// on a static path, a parametric one and a deep one, in the same run. RegExpRouter is tried too:
// it refuses this table (UnsupportedPathError), which is why hono falls back. Needs `pnpm build`.
//   node scripts/bench-router.mjs [--iterations 300000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';

const i = process.argv.indexOf('--iterations');
const N = i > 0 ? Number(process.argv[i + 1]) : 300_000;

const server = await import('../dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'ml-router-'));
const storage = server.openDataDir(dir);
const app = server.createApp({ storage, config: server.DEFAULT_CONFIG, now: Date.now });

const fill = (router) => {
  for (const r of app.routes) router.add(r.method, r.path, r.handler);
  return router;
};
let regexp = 'builds';
try {
  fill(new RegExpRouter()).match('GET', '/v2/config');
} catch (e) {
  regexp = `refuses the table (${e.constructor.name})`;
}

const PATHS = [
  ['GET', '/v2/config'],
  ['GET', '/v2/analysis/bitcoin'],
  ['GET', '/v2/positions/abc/analysis'],
];
const routers = {
  'hono TrieRouter': fill(new TrieRouter()),
  MemoRouter: fill(new server.MemoRouter(new TrieRouter())),
};

/**
 * Nanoseconds per match: the best of 5 timed loops (after a warm-up loop). Every match gets a
 * freshly made path string, as every request does (a string's hash is computed once and kept, so
 * reusing one string would flatter the remembered lookup); `none` times making the string alone.
 */
function time(router, method, path) {
  let sink = 0;
  const bytes = Buffer.from(path);
  const loop = () => {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < N; k++) {
      const fresh = bytes.toString('latin1');
      sink += router === null ? fresh.length : router.match(method, fresh)[0].length;
    }
    return Number(process.hrtime.bigint() - t0) / N;
  };
  loop();
  const best = Math.min(...Array.from({ length: 5 }, loop));
  if (sink < 0) console.log(sink);
  return best;
}

console.log(`${app.routes.length} routes; RegExpRouter ${regexp}; ${N} matches per loop, best of 5\n`);
console.log(
  '| path | making the path string ns | hono TrieRouter ns | MemoRouter ns | ratio (match only) |\n|---|---:|---:|---:|---:|',
);
for (const [method, path] of PATHS) {
  const none = time(null, method, path);
  const trie = time(routers['hono TrieRouter'], method, path);
  const memo = time(routers.MemoRouter, method, path);
  const ratio = (trie - none) / Math.max(1, memo - none);
  console.log(
    `| ${method} ${path} | ${none.toFixed(0)} | ${trie.toFixed(0)} | ${memo.toFixed(0)} | ${ratio.toFixed(1)}x |`,
  );
}
storage.close();
rmSync(dir, { recursive: true, force: true });
