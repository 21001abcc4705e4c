import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CCXT_VENUES, VENUE_PROFILES } from '../ccxt/venues.js';
import { EXCHANGE_CATALOG, exchangeCatalogEntry } from './catalog.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

describe('exchange catalog', () => {
  it('lists every ccxt venue, then the simulated venue', () => {
    expect(EXCHANGE_CATALOG.map((e) => e.id)).toEqual([...CCXT_VENUES, 'marketlens-sim']);
    expect(exchangeCatalogEntry('marketlens-sim')).toMatchObject({
      simulated: true,
      credentials: [],
      spot: true,
      futures: true,
    });
    expect(exchangeCatalogEntry('nope')).toBeUndefined();
  });

  it('asks for exactly the credential fields the adapters check', () => {
    for (const id of CCXT_VENUES) {
      expect(exchangeCatalogEntry(id)?.credentials, id).toEqual(VENUE_PROFILES[id].credentials);
    }
    expect(exchangeCatalogEntry('okx')?.credentials).toContain('password');
    expect(exchangeCatalogEntry('hyperliquid')?.credentials).toEqual(['walletAddress']);
  });

  it('serves icons locally: SVG data URIs, never a remote image', () => {
    for (const e of EXCHANGE_CATALOG) {
      expect(e.icon, e.id).toMatch(/^data:image\/svg\+xml,/);
      const svg = decodeURIComponent(e.icon.slice('data:image/svg+xml,'.length));
      expect(svg).toMatch(/^<svg [^>]*>.*<\/svg>$/);
      // The SVG namespace is the only URL inside.
      expect(svg.match(/https?:\/\/[^"]+/g)).toEqual(['http://www.w3.org/2000/svg']);
    }
    expect(JSON.stringify(EXCHANGE_CATALOG)).not.toMatch(/githubusercontent|user-attachments/);
  });

  it('models capabilities as ccxt does: native, emulated or none', () => {
    for (const e of EXCHANGE_CATALOG) {
      for (const value of Object.values(e.capabilities)) expect(['native', 'emulated', 'none']).toContain(value);
    }
    expect(exchangeCatalogEntry('bybit')?.capabilities.funding_rate).toBe('emulated');
    expect(exchangeCatalogEntry('kraken')).toMatchObject({
      spot: true,
      futures: false,
      capabilities: { funding_history: 'none' },
    });
  });

  it('carries links where ccxt or the curated list has them', () => {
    expect(exchangeCatalogEntry('binance')).toMatchObject({
      website_url: 'https://www.binance.com',
      api_key_guide_source: 'ccxt',
      affiliate_url: expect.stringMatching(/^https:\/\//),
    });
    expect(exchangeCatalogEntry('kraken')).toMatchObject({ affiliate_url: null, api_key_guide_source: 'curated' });
    for (const e of EXCHANGE_CATALOG.filter((x) => !x.simulated)) {
      expect(e.website_url, e.id).toMatch(/^https:\/\//);
      expect(e.api_key_guide_url, e.id).toMatch(/^https:\/\//);
    }
  });

  it('is what the generator produces from the installed ccxt', () => {
    const out = execFileSync(process.execPath, ['scripts/gen-catalog.mjs', '--check'], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(out).toMatch(/up to date/);
  });
});
