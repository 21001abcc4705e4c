import type { AssetClass, MarketType } from '../ports.js';
import { type Asset, type AssetDefinition, BUILTIN_ASSETS, toAsset } from './assets.js';

/** What an instrument name says about itself, and the asset it maps to. */
export interface InstrumentMatch {
  /** The name as given. */
  pair: string;
  /** The tracked asset, or null when the name maps to none (unknown, ambiguous, or an option). */
  asset_id: string | null;
  /** Base currency code as written by the venue, uppercased (`XBT`, `1000PEPE` stripped to `PEPE`). */
  base: string;
  /** Quote currency code, uppercased; null when the name does not carry one (`TSLA-PERP`). */
  quote: string | null;
  /** Settlement currency of a ccxt derivative symbol (`BTC/USDT:USDT` -> `USDT`), else null. */
  settle: string | null;
  /** `derivatives` when the name marks a perpetual, future or option; `spot` when it says spot; else null. */
  market_type: MarketType | null;
  kind: 'spot' | 'perpetual' | 'future' | 'option' | 'unknown';
  /** Units of the base per contract unit written in the name (`1000PEPEUSDT` -> 1000), else 1. */
  multiplier: number;
}

/** An asset universe and the mapping from venue names onto it. */
export interface Universe {
  readonly assets: readonly Asset[];
  /** The asset with this id. */
  get(id: string): Asset | undefined;
  /** Assets of one class, or all. */
  list(assetClass?: AssetClass): Asset[];
  /** A venue currency code (`BTC`, `xbt`, `USDT`, `AAPLX`) to an asset id; null when it names none. */
  resolveCurrency(code: string): string | null;
  /** A base/quote pair to an asset id: an fx pair when both legs form one, else the base's asset. */
  resolvePair(base: string, quote: string | null): string | null;
  /** Parses a venue-native instrument name; null when it has no recognisable structure. */
  parseInstrument(name: string): InstrumentMatch | null;
  /** A venue-native instrument name to an asset id, or null: never a guess. */
  resolveInstrument(name: string): string | null;
  /**
   * The assets a user's input may name, as typed on a command line or in a URL: the asset with
   * exactly that id; else the asset whose id is the input in lower case and every asset whose
   * ticker symbol is the input in any case (two when an on-chain token shares a coin's ticker); else the asset of a currency code or instrument name
   * (`XBT`, `BTCUSDT`, `BTC/USDT`, `EURUSD`). Empty when it names none; more than one is ambiguous.
   */
  find(input: string): Asset[];
}

/** Quote currencies recognised at the end of a concatenated name (`BTCUSDT`), as venues write them. */
const QUOTES: readonly string[] = [
  'USDT',
  'USDC',
  'USD',
  'BUSD',
  'FDUSD',
  'TUSD',
  'USDE',
  'DAI',
  'EUR',
  'GBP',
  'JPY',
  'AUD',
  'CAD',
  'CHF',
  'NZD',
  'TRY',
  'BRL',
  'BTC',
  'XBT',
  'ETH',
  'BNB',
  'ZUSD',
  'ZEUR',
  'XXBT',
];

/** KuCoin futures suffixes: `XBTUSDTM` is the XBT/USDT perpetual. */
const PERP_QUOTES: Readonly<Record<string, string>> = { USDTM: 'USDT', USDCM: 'USDC', USDM: 'USD' };

/** Kraken writes fiat with a Z prefix (`ZUSD`); normalised to the plain code for fx matching. */
const QUOTE_ALIASES: Readonly<Record<string, string>> = { ZUSD: 'USD', ZEUR: 'EUR', XXBT: 'XBT' };

/** USD-pegged quotes under which an fx pair quoted in USD is still that pair (`EUR/USDT` is the euro). */
const USD_STABLE_QUOTES: ReadonlySet<string> = new Set(['USDT', 'USDC', 'FDUSD', 'USDE', 'DAI', 'BUSD', 'TUSD']);

const MULTIPLIER = /^(1000000|100000|10000|1000|100|10|1M)([A-Z][A-Z0-9]*)$/;
const DATE_TOKEN = /^(\d{6}|\d{8}|\d{1,2}[A-Z]{3}\d{2})$/;
const PERP_TOKENS: ReadonlySet<string> = new Set(['SWAP', 'PERP', 'PERPETUAL']);
const IGNORED_TOKENS: ReadonlySet<string> = new Set(['INTX']);
const MAX_NAME = 64;

interface Shape {
  base: string;
  quote: string | null;
  settle: string | null;
  kind: InstrumentMatch['kind'];
  multiplier: number;
}

/**
 * Builds a universe from asset definitions. Throws when two assets claim the same currency code
 * or fx pair, or two share an id: a mapping must never have to choose.
 */
export function createUniverse(definitions: readonly AssetDefinition[]): Universe {
  const byId = new Map<string, Asset>();
  const codes = new Map<string, string>();
  const fxPairs = new Map<string, string>();
  const stocks = new Set<string>();
  for (const def of definitions) {
    if (byId.has(def.id)) throw new Error(`duplicate asset id ${def.id}`);
    byId.set(def.id, toAsset(def));
    if (def.asset_class === 'fx') {
      const [b, q] = def.fx ?? [def.symbol.slice(0, 3), def.symbol.slice(3)];
      const key = `${b.toUpperCase()}/${q.toUpperCase()}`;
      if (fxPairs.has(key)) throw new Error(`fx pair ${key} claimed twice`);
      fxPairs.set(key, def.id);
      continue;
    }
    if (def.asset_class === 'external') continue;
    for (const code of [def.symbol, ...(def.aliases ?? [])]) {
      const key = code.toUpperCase();
      const owner = codes.get(key);
      if (owner !== undefined && owner !== def.id)
        throw new Error(`currency code ${key} claimed by ${owner} and ${def.id}`);
      codes.set(key, def.id);
    }
    if (def.asset_class === 'stocks') stocks.add(def.symbol.toUpperCase());
  }
  const assets = [...byId.values()];

  function resolveCurrency(code: string): string | null {
    const key = code.trim().toUpperCase();
    if (key === '') return null;
    const exact = codes.get(key);
    if (exact !== undefined) return exact;
    // Tokenized equities: xStocks (AAPLX) and Ondo (AAPLON) wrap the stock one to one.
    for (const suffix of ['X', 'ON']) {
      if (key.length > suffix.length && key.endsWith(suffix)) {
        const ticker = key.slice(0, -suffix.length);
        if (stocks.has(ticker)) return codes.get(ticker) ?? null;
      }
    }
    return null;
  }

  function resolvePair(base: string, quote: string | null): string | null {
    const b = base.trim().toUpperCase();
    if (quote !== null) {
      const rawQ = quote.trim().toUpperCase();
      const q = QUOTE_ALIASES[rawQ] ?? rawQ;
      const direct = fxPairs.get(`${b}/${q}`);
      if (direct !== undefined) return direct;
      if (USD_STABLE_QUOTES.has(q)) {
        const viaStable = fxPairs.get(`${b}/USD`);
        if (viaStable !== undefined) return viaStable;
      }
    }
    return resolveCurrency(b);
  }

  function resolveBase(shape: Shape): { id: string | null; base: string; multiplier: number } {
    const direct = resolvePair(shape.base, shape.quote);
    if (direct !== null) return { id: direct, base: shape.base, multiplier: shape.multiplier };
    const m = MULTIPLIER.exec(shape.base);
    if (m !== null) {
      const id = resolvePair(m[2], shape.quote);
      if (id !== null)
        return { id, base: m[2], multiplier: shape.multiplier * (m[1] === '1M' ? 1_000_000 : Number(m[1])) };
    }
    return { id: null, base: shape.base, multiplier: shape.multiplier };
  }

  function parseInstrument(name: string): InstrumentMatch | null {
    const shapes = shapesOf(name);
    if (shapes.length === 0) return null;
    const resolved = shapes.map((s) => ({ shape: s, ...resolveBase(s) }));
    const hits = resolved.filter((r) => r.id !== null);
    const ids = new Set(hits.map((r) => r.id));
    // Ambiguous splits (two readings naming different assets) map to null rather than to a guess.
    const pick = ids.size === 1 ? hits[0] : resolved[0];
    const id = ids.size === 1 && pick.shape.kind !== 'option' ? pick.id : null;
    const kind = pick.shape.kind;
    return {
      pair: name,
      asset_id: id,
      base: pick.base,
      quote: pick.shape.quote,
      settle: pick.shape.settle,
      market_type: kind === 'spot' ? 'spot' : kind === 'unknown' ? null : 'derivatives',
      kind,
      multiplier: pick.multiplier,
    };
  }

  function find(input: string): Asset[] {
    const text = input.trim();
    if (text === '') return [];
    const exact = byId.get(text);
    if (exact !== undefined) return [exact];
    const upper = text.toUpperCase();
    const named = byId.get(text.toLowerCase());
    const bySymbol = assets.filter((a) => a.symbol.toUpperCase() === upper && a !== named);
    if (named !== undefined || bySymbol.length > 0) return named === undefined ? bySymbol : [named, ...bySymbol];
    const id = resolveCurrency(text) ?? parseInstrument(text)?.asset_id ?? null;
    const asset = id === null ? undefined : byId.get(id);
    return asset === undefined ? [] : [asset];
  }

  return {
    assets,
    find,
    get: (id) => byId.get(id),
    list: (assetClass) => (assetClass === undefined ? [...assets] : assets.filter((a) => a.asset_class === assetClass)),
    resolveCurrency,
    resolvePair,
    parseInstrument,
    resolveInstrument: (name) => parseInstrument(name)?.asset_id ?? null,
  };
}

/** Possible readings of a name, the most specific first (longest quote suffix first). */
function shapesOf(raw: string): Shape[] {
  const shapes = readShapes(raw);
  // A Kraken futures name always carries a pair after its prefix (PF_XBTUSD): `FF_USDT` names no
  // instrument, so its bare-currency reading is not offered.
  return /^(PF|PI|FI|FF)_/i.test(raw.trim()) ? shapes.filter((shape) => shape.quote !== null) : shapes;
}

function readShapes(raw: string): Shape[] {
  let s = raw.trim();
  if (s === '' || s.length > MAX_NAME) return [];
  let kind: Shape['kind'] = 'unknown';
  let multiplier = 1;
  // Venue prefixes, matched on the original case where case carries meaning.
  const kraken = /^(PF|PI|FI|FF)_(.+)$/i.exec(s);
  if (kraken !== null) {
    s = kraken[2];
    kind = kraken[1].toUpperCase() === 'FI' || kraken[1].toUpperCase() === 'FF' ? 'future' : 'perpetual';
  } else if (/^t[A-Z0-9]{4,}$/.test(s)) {
    s = s.slice(1); // Bitfinex trading pairs: tBTCUSD
  } else if (/^[a-z][a-z0-9]*:[A-Za-z0-9]+$/.test(s)) {
    s = s.slice(s.indexOf(':') + 1); // Hyperliquid builder dexes: xyz:TSLA
    kind = 'perpetual';
  }
  if (/^k[A-Z]{2,}$/.test(s)) {
    s = s.slice(1); // Hyperliquid kPEPE: 1,000 PEPE
    multiplier = 1000;
  }
  const upper = s.toUpperCase().replace(/=X$/, '');
  if (!/^[A-Z0-9/:_\-.]+$/.test(upper)) return [];

  if (upper.includes('/')) return ccxtShape(upper, multiplier);

  if (upper.includes('-') || upper.includes('_')) {
    const rest: string[] = [];
    let strike = false;
    for (const token of upper.split(/[-_]/)) {
      if (token === '') return [];
      if (PERP_TOKENS.has(token)) kind = 'perpetual';
      else if (token === 'SPOT') kind = 'spot';
      else if (IGNORED_TOKENS.has(token)) continue;
      else if (DATE_TOKEN.test(token) && rest.length > 0) kind = 'future';
      else if (/^\d+(\.\d+)?$/.test(token) && kind === 'future') strike = true;
      else if ((token === 'C' || token === 'P') && strike) kind = 'option';
      else rest.push(token);
    }
    if (rest.length === 1) return concatenatedShapes(rest[0], kind, multiplier);
    if (rest.length === 2) return [{ base: rest[0], quote: rest[1], settle: null, kind, multiplier }];
    return [];
  }
  return concatenatedShapes(upper, kind, multiplier);
}

/** ccxt unified symbols: BASE/QUOTE, BASE/QUOTE:SETTLE, BASE/QUOTE:SETTLE-YYMMDD[-STRIKE-C|P]. */
function ccxtShape(upper: string, multiplier: number): Shape[] {
  const m = /^([A-Z0-9.]+)\/([A-Z0-9.]+)(?::([A-Z0-9.]+)(?:-(\d{6})(?:-(\d+(?:\.\d+)?)-([CP]))?)?)?$/.exec(upper);
  if (m === null) return [];
  const [, base, quote, settle, expiry, , optionType] = m;
  const kind: Shape['kind'] =
    optionType !== undefined ? 'option' : expiry !== undefined ? 'future' : settle !== undefined ? 'perpetual' : 'spot';
  return [{ base, quote, settle: settle ?? null, kind, multiplier }];
}

/** BTCUSDT, XBTUSD, XXBTZUSD, XBTUSDTM, BTCPERP, AAPL: every split at a known quote, then the whole. */
function concatenatedShapes(upper: string, kindIn: Shape['kind'], multiplier: number): Shape[] {
  let text = upper;
  let kind = kindIn;
  if (text.length > 4 && text.endsWith('PERP')) {
    text = text.slice(0, -4); // Bybit BTCPERP (USDC perpetual)
    kind = 'perpetual';
  }
  const shapes: Shape[] = [];
  for (const [suffix, quote] of Object.entries(PERP_QUOTES)) {
    if (text.length > suffix.length && text.endsWith(suffix)) {
      shapes.push({ base: text.slice(0, -suffix.length), quote, settle: null, kind: 'perpetual', multiplier });
    }
  }
  for (const quote of QUOTES) {
    if (text.length > quote.length && text.endsWith(quote)) {
      shapes.push({ base: text.slice(0, -quote.length), quote, settle: null, kind, multiplier });
    }
  }
  shapes.sort((a, b) => (b.quote?.length ?? 0) - (a.quote?.length ?? 0));
  shapes.push({ base: text, quote: null, settle: null, kind, multiplier });
  return shapes;
}

/** The built-in universe ({@link BUILTIN_ASSETS}). */
export const defaultUniverse: Universe = createUniverse(BUILTIN_ASSETS);

/** {@link Universe.resolveInstrument} on the built-in universe. */
export function resolveInstrument(name: string): string | null {
  return defaultUniverse.resolveInstrument(name);
}

/** {@link Universe.resolveCurrency} on the built-in universe. */
export function resolveCurrency(code: string): string | null {
  return defaultUniverse.resolveCurrency(code);
}

/** {@link Universe.parseInstrument} on the built-in universe. */
export function parseInstrument(name: string): InstrumentMatch | null {
  return defaultUniverse.parseInstrument(name);
}

/** {@link Universe.get} on the built-in universe. */
export function getAsset(id: string): Asset | undefined {
  return defaultUniverse.get(id);
}
