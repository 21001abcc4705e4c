/**
 * Which assets the Yahoo source serves and under which Yahoo symbol: the built-in stocks (`AAPL`)
 * and fx pairs (`EURUSD=X`), plus symbols configured on top (stocks and ETFs `NVDA`, `BRK-B`,
 * `SAP.DE`; indices `^GSPC`; fx `EURCHF=X`).
 */
import { VenueError } from '../../errors.js';
import { type AssetDefinition, BUILTIN_ASSETS } from '../../universe/assets.js';

/** One asset the source serves. */
export interface YahooListing {
  /** The Yahoo symbol it is read under (`AAPL`, `EURUSD=X`, `^GSPC`). */
  symbol: string;
  definition: AssetDefinition;
  /** True for a built-in asset (its definition is fixed); false for a configured symbol. */
  builtin: boolean;
}

const INDEX = /^\^([A-Z0-9][A-Z0-9.-]*)$/;
const FX = /^([A-Z]{3})([A-Z]{3})=X$/;
const STOCK = /^[A-Z0-9][A-Z0-9.-]*$/;

/** An asset id component from a symbol: lowercased, with `.` (exchange suffixes) as `-`. */
const slug = (text: string): string => text.toLowerCase().replace(/\./g, '-');

/** The listing of a built-in stock or fx definition; null for the classes Yahoo does not serve here. */
function builtinListing(def: AssetDefinition): YahooListing | null {
  if (def.asset_class === 'stocks') return { symbol: def.symbol.toUpperCase(), definition: def, builtin: true };
  if (def.asset_class === 'fx') {
    const [base, quote] = def.fx ?? [def.symbol.slice(0, 3), def.symbol.slice(3)];
    return { symbol: `${base}${quote}=X`.toUpperCase(), definition: def, builtin: true };
  }
  return null;
}

/**
 * The definition of a configured Yahoo symbol: `^GSPC` -> `index-gspc` (asset class `stocks`, as
 * indices trade with them), `EURCHF=X` -> `fx-eurchf`, anything else a stock or ETF
 * (`BRK-B` -> `stock-brk-b`). Throws `VenueError` `bad_request` for a symbol of another kind
 * (futures `GC=F`, options), which this source does not serve.
 */
export function configuredListing(raw: string): YahooListing {
  const symbol = raw.trim().toUpperCase();
  const index = INDEX.exec(symbol);
  if (index !== null) {
    return {
      symbol,
      definition: { id: `index-${slug(index[1])}`, symbol, name: symbol, asset_class: 'stocks' },
      builtin: false,
    };
  }
  const fx = FX.exec(symbol);
  if (fx !== null) {
    const [, base, quote] = fx;
    return {
      symbol,
      definition: {
        id: `fx-${slug(base + quote)}`,
        symbol: base + quote,
        name: `${base} / ${quote}`,
        asset_class: 'fx',
        fx: [base, quote],
      },
      builtin: false,
    };
  }
  if (STOCK.test(symbol)) {
    return {
      symbol,
      definition: { id: `stock-${slug(symbol)}`, symbol, name: symbol, asset_class: 'stocks' },
      builtin: false,
    };
  }
  throw new VenueError('bad_request', `yahoo: ${JSON.stringify(raw)} is not a stock, ETF, index or fx symbol`, {
    venue: 'yahoo',
  });
}

/**
 * Every asset served, by asset id: the built-in stocks and fx pairs, then the configured symbols.
 * A configured symbol that is already built in (`NVDA`, `EURUSD=X`) is served once, as the built-in
 * asset. Throws `VenueError` `bad_request` when two configured symbols would share an asset id.
 */
export function yahooListings(extra: readonly string[]): Map<string, YahooListing> {
  const byId = new Map<string, YahooListing>();
  for (const def of BUILTIN_ASSETS) {
    const listing = builtinListing(def);
    if (listing !== null) byId.set(def.id, listing);
  }
  for (const raw of extra) {
    const listing = configuredListing(raw);
    const existing = byId.get(listing.definition.id);
    if (existing === undefined) byId.set(listing.definition.id, listing);
    else if (existing.symbol !== listing.symbol) {
      throw new VenueError(
        'bad_request',
        `yahoo: ${listing.symbol} and ${existing.symbol} would both be asset ${listing.definition.id}`,
        { venue: 'yahoo' },
      );
    }
  }
  return byId;
}
