import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

// Records whether anything imported ccxt; the real module is never loaded in this file.
const loaded = vi.hoisted(() => ({ ccxt: false }));
vi.mock('ccxt', () => {
  loaded.ccxt = true;
  return {};
});

const src = fileURLToPath(new URL('../', import.meta.url));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

describe('ccxt is loaded lazily', () => {
  it('importing the package index does not load ccxt', async () => {
    await import('../index.js');
    expect(loaded.ccxt).toBe(false);
  });

  it('importing the ccxt adapters and the catalog does not load ccxt either', async () => {
    await import('./account-data.js');
    await import('./market-data.js');
    await import('./client.js');
    const catalog = await import('../catalog/catalog.js');
    expect(catalog.EXCHANGE_CATALOG.length).toBeGreaterThan(0);
    expect(loaded.ccxt).toBe(false);
  });

  it('creating an adapter is what loads it', async () => {
    const { createCcxtMarketData } = await import('./market-data.js');
    await createCcxtMarketData({ venue: 'binance', markets: [] }).catch(() => undefined);
    expect(loaded.ccxt).toBe(true);
  });

  it('no source file imports ccxt at top level (type-only imports are erased)', () => {
    const offenders = sources(src).filter((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .some(
          (line) =>
            /^\s*import\s+(?!type\b)[^;]*from\s+['"]ccxt['"]/.test(line) || /^\s*import\s+['"]ccxt['"]/.test(line),
        ),
    );
    expect(offenders).toEqual([]);
  });
});
