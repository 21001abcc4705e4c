import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What a user's bundler keeps of core for one import, measured on the built package with the
// setup of scripts/size.mjs (bundle, minify, ESM, platform neutral). The ESM build ships one file
// per module and package.json says `sideEffects: false`, so an RSI-only import must not pull in
// the rest of core, nor decimal.js (money only).
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const built = existsSync(dist);
const SKIP = built ? '' : ' (skipped: dist/index.js is missing; run `pnpm --filter @marketlens/core build` first)';
const LIMIT = 5_000;

async function bundle(contents: string): Promise<{ bytes: number; inputs: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  // The files that put code into the bundle (metafile.inputs also lists the ones tree-shaken away).
  const output = Object.values((result.metafile as Metafile).outputs)[0];
  const inputs = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([file]) => file);
  return { bytes: result.outputFiles[0].contents.length, inputs };
}

describe('bundle size', () => {
  it.skipIf(!built)(`an RSI-only bundle is at most 5 kB minified, without decimal.js${SKIP}`, async () => {
    const batch = await bundle(`export { rsi } from ${JSON.stringify(dist)};`);
    expect(batch.bytes).toBeLessThanOrEqual(LIMIT);
    expect(batch.inputs.some((f) => f.includes('decimal.js'))).toBe(false);
    const streaming = await bundle(`export { RSI } from ${JSON.stringify(dist)};`);
    expect(streaming.bytes).toBeLessThanOrEqual(LIMIT);
  });

  it.skipIf(!built)(`reports analyze() alone, which keeps less than the whole package${SKIP}`, async () => {
    const analyze = await bundle(`export { analyze } from ${JSON.stringify(dist)};`);
    const whole = await bundle(`export * from ${JSON.stringify(dist)};`);
    console.info(`bundle size: analyze only ${analyze.bytes} B, whole package ${whole.bytes} B (minified)`);
    expect(analyze.bytes).toBeLessThan(whole.bytes);
  });
});
