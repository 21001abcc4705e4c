#!/usr/bin/env node
/**
 * Generates packages/exchanges/src/catalog/data.ts, the exchange catalog, from ccxt's metadata.
 *
 *   node scripts/gen-catalog.mjs          write data.ts
 *   node scripts/gen-catalog.mjs --check  exit 1 when data.ts is not what ccxt says now
 *
 * Per venue: name and website (`urls.www`), referral link (`urls.referral`), API-key guide
 * (`urls.api_management`, else a curated page listed below, else `urls.doc`), spot / futures
 * capability (`has.spot`, `has.swap`, `has.future`), the tri-state `has` of every read marketlens
 * makes, and the credential fields a read-only connection needs (ccxt's `requiredCredentials`,
 * except Hyperliquid, read with the public wallet address alone). Icons are monograms drawn here:
 * ccxt's logos are remote URLs.
 *
 * Run it from packages/exchanges after upgrading ccxt, and commit the result.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as ccxt from 'ccxt';

const OUT = fileURLToPath(new URL('../src/catalog/data.ts', import.meta.url));

/** The venues read through ccxt (src/ccxt/venues.ts `CCXT_VENUES`; a test keeps them equal). */
const VENUES = ['binance', 'bybit', 'okx', 'kraken', 'coinbase', 'hyperliquid'];

/** Monogram label, disc colour and text colour per venue (marketlens's drawings, not the venues' logos). */
const MONOGRAMS = {
  binance: ['BN', '#F0B90B', '#1E2026'],
  bybit: ['BY', '#17181E', '#F7A600'],
  okx: ['OKX', '#000000', '#FFFFFF'],
  kraken: ['KR', '#7132F5', '#FFFFFF'],
  coinbase: ['CB', '#0052FF', '#FFFFFF'],
  hyperliquid: ['HL', '#072723', '#97FCE4'],
  'marketlens-sim': ['ML', '#4F46E5', '#FFFFFF'],
};

/**
 * API-key pages where ccxt has no `urls.api_management`: the venue's own API-key management page
 * (Bybit, OKX, Coinbase's developer portal) or help article (Kraken). Chosen by hand; a venue may
 * move them, so they are marked `curated` in the data.
 */
const CURATED_GUIDES = {
  bybit: 'https://www.bybit.com/app/user/api-management',
  okx: 'https://www.okx.com/account/my-api',
  kraken: 'https://support.kraken.com/hc/en-us/articles/360000919966-How-to-create-an-API-key',
  coinbase: 'https://portal.cdp.coinbase.com/projects/api-keys',
};

/** Read-only credential fields where ccxt's `requiredCredentials` asks for more than reading needs. */
const CREDENTIAL_OVERRIDES = { hyperliquid: ['walletAddress'] };
const CREDENTIAL_FIELDS = ['apiKey', 'secret', 'password', 'walletAddress'];

/** marketlens method name -> ccxt `has` key. */
const METHODS = {
  positions: 'fetchPositions',
  balances: 'fetchBalance',
  trades: 'fetchMyTrades',
  open_orders: 'fetchOpenOrders',
  funding_history: 'fetchFundingHistory',
  candles: 'fetchOHLCV',
  ticker: 'fetchTicker',
  funding_rate: 'fetchFundingRate',
};

function capability(value) {
  return value === true ? 'native' : value === 'emulated' ? 'emulated' : 'none';
}

function first(value) {
  if (Array.isArray(value)) return value[0] ?? null;
  return typeof value === 'string' ? value : null;
}

function monogram(id) {
  const [label, fill, ink] = MONOGRAMS[id];
  const size = label.length <= 2 ? 13 : 10;
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
    `<circle cx="16" cy="16" r="16" fill="${fill}"/>` +
    `<text x="16" y="16" dy=".35em" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${size}" fill="${ink}">${label}</text>` +
    '</svg>';
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function entry(id) {
  const ex = new ccxt[id]();
  const urls = ex.urls;
  const referral = typeof urls.referral === 'string' ? urls.referral : (urls.referral?.url ?? null);
  let guide = null;
  let guideSource = null;
  if (typeof urls.api_management === 'string') [guide, guideSource] = [urls.api_management, 'ccxt'];
  else if (CURATED_GUIDES[id] !== undefined) [guide, guideSource] = [CURATED_GUIDES[id], 'curated'];
  else if (first(urls.doc) !== null) [guide, guideSource] = [first(urls.doc), 'ccxt'];
  const required = Object.entries(ex.requiredCredentials)
    .filter(([, needed]) => needed === true)
    .map(([field]) => field);
  const credentials = CREDENTIAL_OVERRIDES[id] ?? required.filter((f) => CREDENTIAL_FIELDS.includes(f));
  const unknown = required.filter((f) => !CREDENTIAL_FIELDS.includes(f) && CREDENTIAL_OVERRIDES[id] === undefined);
  if (unknown.length > 0)
    throw new Error(`${id}: ccxt requires credential fields marketlens does not ask for: ${unknown}`);
  return {
    id,
    name: ex.name,
    icon: monogram(id),
    website_url: first(urls.www),
    affiliate_url: referral,
    api_key_guide_url: guide,
    api_key_guide_source: guideSource,
    spot: ex.has.spot === true,
    futures: ex.has.swap === true || ex.has.future === true,
    credentials,
    capabilities: Object.fromEntries(Object.entries(METHODS).map(([name, key]) => [name, capability(ex.has[key])])),
    simulated: false,
  };
}

const simulated = {
  id: 'marketlens-sim',
  name: 'marketlens simulator',
  icon: monogram('marketlens-sim'),
  website_url: null,
  affiliate_url: null,
  api_key_guide_url: null,
  api_key_guide_source: null,
  spot: true,
  futures: true,
  credentials: [],
  capabilities: Object.fromEntries(Object.keys(METHODS).map((name) => [name, 'native'])),
  simulated: true,
};

/** TypeScript source for a value, in the repository's style (single quotes, trailing commas). */
function ts(value, indent) {
  const pad = '  '.repeat(indent);
  const inner = '  '.repeat(indent + 1);
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => ts(v, indent + 1));
    const flat = `[${items.join(', ')}]`;
    if (value.every((v) => typeof v !== 'object' || v === null) && flat.length + pad.length < 100) return flat;
    return `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${pad}]`;
  }
  const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`);
  const lines = Object.entries(value).map(([k, v]) => `${inner}${key(k)}: ${ts(v, indent + 1)},`);
  return `{\n${lines.join('\n')}\n${pad}}`;
}

const data = [...VENUES.map(entry), simulated];
const source = `// Generated by scripts/gen-catalog.mjs from ccxt ${ccxt.version}. Do not edit: run \`node scripts/gen-catalog.mjs\`.
import type { ExchangeCatalogEntry } from './entry.js';

/** The ccxt version this data was read from. */
export const CATALOG_CCXT_VERSION = '${ccxt.version}';

/** The catalog rows (see {@link ExchangeCatalogEntry}). */
export const CATALOG_DATA: readonly ExchangeCatalogEntry[] = ${ts(data, 0)};
`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // missing: stale
  }
  if (current !== source) {
    console.error('src/catalog/data.ts is stale: run node scripts/gen-catalog.mjs');
    process.exit(1);
  }
  console.log('src/catalog/data.ts is up to date');
} else {
  writeFileSync(OUT, source);
  console.log(`wrote ${OUT} (${data.length} venues, ccxt ${ccxt.version})`);
}
