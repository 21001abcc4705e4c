// Bundle sizes: what a user's bundler keeps of @marketlens/core for one import, next to the same
// import from trading-signals, indicatorts and @ixjb94/indicators, measured in one run with one
// esbuild setup (bundle, minify, ESM, platform neutral). Needs a built core (`pnpm build`).
// Usage: node scripts/size.mjs [--markdown]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist', 'index.js');
if (!existsSync(dist)) {
  console.error(`${dist} is missing: run \`pnpm --filter @marketlens/core build\` first`);
  process.exit(1);
}
const markdown = process.argv.includes('--markdown');
const core = JSON.stringify(dist);

/** Minified (and gzipped) bytes of an ESM bundle of `contents`, resolved from core's folder. */
async function size(contents) {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code).length };
}

const cases = [
  ['rsi only', '@marketlens/core', `export { rsi } from ${core};`],
  ['RSI (streaming) only', '@marketlens/core', `export { RSI } from ${core};`],
  ['analyze only', '@marketlens/core', `export { analyze } from ${core};`],
  ['everything', '@marketlens/core', `export * from ${core};`],
  ['rsi only', 'trading-signals', `export { RSI } from 'trading-signals';`],
  ['rsi only', 'indicatorts', `export { rsi } from 'indicatorts';`],
  ['rsi only', '@ixjb94/indicators', `export { rsi } from '@ixjb94/indicators';`],
  ['IndicatorsSync (rsi)', '@ixjb94/indicators', `export { IndicatorsSync } from '@ixjb94/indicators';`],
];

const rows = [];
for (const [what, pkg, code] of cases) rows.push({ what, pkg, ...(await size(code)) });
const ours = rows[0].min;
const kb = (b) => (b / 1000).toFixed(1);
const head = ['import', 'package', 'min kB', 'min+gzip kB', 'vs our rsi'];
const table = rows.map((r) => [r.what, r.pkg, kb(r.min), kb(r.gzip), `${(r.min / ours).toFixed(2)}x`]);

console.log(
  `esbuild ${(await import('esbuild')).version}, bundle + minify, format esm, platform neutral; Node ${process.version}`,
);
if (markdown) {
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const r of table) console.log(`| ${r.join(' | ')} |`);
} else {
  const w = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i < 2 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ');
  console.log(line(head));
  for (const r of table) console.log(line(r));
}
