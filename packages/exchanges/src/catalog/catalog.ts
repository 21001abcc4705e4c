/**
 * The exchange catalog: what marketlens knows about each venue it can read, for exchange lists and
 * connection forms. Built at development time from ccxt's metadata by `scripts/gen-catalog.mjs`
 * into `data.ts`, so reading it never loads ccxt, and icons are local SVG monograms (ccxt's logo
 * URLs are remote and break offline).
 */
import { CATALOG_CCXT_VERSION, CATALOG_DATA } from './data.js';
import type { ExchangeCatalogEntry } from './entry.js';

export type { CatalogMethod, ExchangeCatalogEntry, GuideSource } from './entry.js';

/** Every venue of the catalog: the real venues read through ccxt, then the simulated one. */
export const EXCHANGE_CATALOG: readonly ExchangeCatalogEntry[] = CATALOG_DATA;

/** The ccxt version the catalog was generated from. */
export const CATALOG_SOURCE_VERSION: string = CATALOG_CCXT_VERSION;

/** The catalog entry of a venue, or undefined. */
export function exchangeCatalogEntry(id: string): ExchangeCatalogEntry | undefined {
  return EXCHANGE_CATALOG.find((e) => e.id === id);
}
