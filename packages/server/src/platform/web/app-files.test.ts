import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createSimulatedVenue } from '@marketlens/exchanges';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { reach } from '../../../../core/src/testing/reach.js';
import { createApp } from '../../app.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { DEFAULT_CONFIG } from '../deps.js';
import { APP_CSP, chooseEncoding } from './app-files.js';

const dir = mkdtempSync(join(tmpdir(), 'ml-app-files-'));
mkdirSync(join(dir, 'assets'));
const INDEX =
  '<!doctype html><html><head><script type="module" src="/app/assets/index-Ab12Cd34.js"></script></head><body><main id="main"></main></body></html>';
const SCRIPT = `export const rows = [${Array.from({ length: 200 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;
writeFileSync(join(dir, 'index.html'), INDEX);
writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
writeFileSync(join(dir, 'sw.js'), "self.addEventListener('push', () => {});\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function appWith(appDir: string | null) {
  const now = () => Date.UTC(2026, 0, 15);
  const app = createApp(
    { storage: createSqliteStorage(':memory:'), config: DEFAULT_CONFIG, now, market: createSimulatedVenue({ now }) },
    { logError: () => {}, appDir },
  );
  return (path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(app.request(path, { headers }, { incoming: { socket: { remoteAddress: '203.0.113.9' } } }));
}

describe('/app', () => {
  const get = appWith(dir);

  it('answers every page of the app with index.html, not cached, under the strict CSP', async () => {
    for (const path of ['/app', '/app/', '/app/asset/bitcoin', '/app/lists/signals', '/app/account']) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toBe(INDEX);
    }
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  });

  it('sends hashed files immutable for a year, compressed as the client accepts', async () => {
    const path = '/app/assets/index-Ab12Cd34.js';
    const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('accept-encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.byteLength).toBeLessThan(SCRIPT.length / 2);
    expect(brotliDecompressSync(brBytes).toString()).toBe(SCRIPT);
    const gz = await get(path, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);
    const plain = await get(path);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('serves the service worker by name, not cached, and 404s a file it does not have', async () => {
    const sw = await get('/app/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    for (const path of ['/app/assets/missing-1234.js', '/app/favicon.ico', '/app/assets/..%2Findex.html']) {
      const res = await get(path);
      expect([path, res.status, ((await res.json()) as { code: string }).code]).toEqual([path, 404, 'NotFound']);
    }
  });

  it('answers 503 saying how to build it when the app is not built', async () => {
    for (const appDir of [null, join(dir, 'nowhere')]) {
      const res = await appWith(appDir)('/app/asset/bitcoin');
      const body = (await res.json()) as { code: string; message: string };
      expect([res.status, body.code]).toEqual([503, 'ServiceUnavailable']);
      expect(body.message).toContain('pnpm --filter @marketlens/web build');
    }
  });
});

describe('chooseEncoding', () => {
  it('prefers br, then gzip, honours q=0 and *, else none', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*;q=0.1')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip;q=0, br;q=0, *')).toBeNull();
  });

  it('never picks an encoding the header refuses, and picks one whenever one is accepted', () => {
    const names = fc.constantFrom('br', 'gzip', 'deflate', 'identity', '*');
    const q = fc.constantFrom(undefined, 0, 0.5, 1);
    const refused = reach('headers refusing br or gzip outright');
    refused.assert(
      fc.property(fc.array(fc.tuple(names, q), { minLength: 0, maxLength: 6 }), (entries) => {
        const header = entries.map(([n, w]) => (w === undefined ? n : `${n};q=${w}`)).join(', ');
        // The weight of a name: its own last entry, else `*`'s, else 0 (unlisted is not acceptable).
        const weight = (name: string) => {
          const own = entries.filter(([n]) => n === name).at(-1);
          const star = entries.filter(([n]) => n === '*').at(-1);
          const pick = own ?? star;
          return pick === undefined ? 0 : (pick[1] ?? 1);
        };
        refused.hitIf(entries.some(([n, w]) => (n === 'br' || n === 'gzip') && w === 0));
        const chosen = chooseEncoding(header === '' ? undefined : header);
        if (chosen !== null) expect(weight(chosen)).toBeGreaterThan(0);
        if (weight('br') > 0) expect(chosen).toBe('br');
        else if (weight('gzip') > 0) expect(chosen).toBe('gzip');
        else expect(chosen).toBeNull();
      }),
      // About a quarter of the draws refuse br or gzip outright; fewer than 10 % in 300 draws would
      // take a generator bug (a miss by chance is below 1e-9).
      { numRuns: 300, atLeast: 0.1 },
    );
  });
});
