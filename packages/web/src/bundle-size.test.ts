import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The JavaScript a first visit loads: the scripts and module preloads index.html names, gzipped
// as the server sends them. The chart library is inside it.
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const built = existsSync(join(dist, 'index.html'));
const SKIP = built ? '' : ' (skipped: dist/index.html is missing; run `pnpm --filter @marketlens/web build` first)';
/** The budget of the issue: 150 kB gzipped. */
const INITIAL_JS_BUDGET = 150 * 1024;

describe.skipIf(!built)(`the built app${SKIP}`, () => {
  it('loads under 150 kB of gzipped JavaScript at first, from hashed files only', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const files = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(files.length).toBeGreaterThan(0);
    let total = 0;
    for (const file of files) {
      expect(file).toMatch(/^\/app\/assets\/[\w.-]+-[\w-]{8}\.js$/);
      total += gzipSync(readFileSync(join(dist, file.replace(/^\/app\//, '')))).byteLength;
    }
    expect(total).toBeLessThan(INITIAL_JS_BUDGET);
    // No inline script: the Content-Security-Policy allows none.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle="/);
  });
});
