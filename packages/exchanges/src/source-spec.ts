import { CCXT_VENUES, type CcxtVenueId, isCcxtVenue } from './ccxt/venues.js';

/** A configured market source. */
export type SourceSpec =
  | { kind: 'simulated' }
  | {
      kind: 'ccxt';
      venue: CcxtVenueId;
      /** Every request goes through this URL prefix (ccxt `proxyUrl`): a mirror, a forwarding proxy, a test venue. */
      proxyUrl?: string;
      /** The venue's testnet (ccxt sandbox mode). */
      sandbox?: boolean;
    }
  | {
      kind: 'yahoo';
      /** Base URL of the chart API (a mirror, a test server); default Yahoo's own. */
      baseUrl?: string;
      /** Yahoo symbols served beyond the built-in stocks and fx (`SPY`, `^GSPC`). */
      symbols?: readonly string[];
    }
  | { kind: 'files'; dir: string };

/** The configured name of a source: `simulated`, `ccxt:binance`, `yahoo`, `files:/srv/candles`. */
export function sourceName(spec: SourceSpec): string {
  switch (spec.kind) {
    case 'simulated':
      return 'simulated';
    case 'ccxt':
      return `ccxt:${spec.venue}`;
    case 'yahoo':
      return 'yahoo';
    case 'files':
      return `files:${spec.dir}`;
  }
}

/** What a source name may be, for error messages. */
export const SOURCE_FORMS = '`simulated`, `ccxt:<venue>`, `yahoo` or `files:<dir>`';

/**
 * Reads one source name (`ccxt:binance`, `yahoo`, `files:./candles`, `simulated`). Throws an
 * `Error` whose message says what is allowed; an unknown ccxt venue lists the known ones.
 */
export function parseSourceName(text: string): SourceSpec {
  const name = text.trim();
  if (name === 'simulated') return { kind: 'simulated' };
  if (name === 'yahoo') return { kind: 'yahoo' };
  if (name.startsWith('files:')) {
    const dir = name.slice('files:'.length).trim();
    if (dir === '') throw new Error(`'${name}': files: needs a folder, e.g. files:./candles`);
    return { kind: 'files', dir };
  }
  if (name.startsWith('ccxt:')) {
    const venue = name.slice('ccxt:'.length).trim().toLowerCase();
    if (!isCcxtVenue(venue)) throw new Error(`'${name}': unknown venue '${venue}'; one of ${CCXT_VENUES.join(', ')}`);
    return { kind: 'ccxt', venue };
  }
  throw new Error(`'${name}' is not a market source; use ${SOURCE_FORMS} (venues: ${CCXT_VENUES.join(', ')})`);
}

/**
 * Reads a comma list of sources. `simulated` stands alone: a real configuration never mixes in
 * simulated numbers. Names must not repeat.
 */
export function parseSourceList(text: string): SourceSpec[] {
  const names = text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
  if (names.length === 0) throw new Error(`no market source named; use ${SOURCE_FORMS}`);
  return checkSources(names.map(parseSourceName));
}

/** Refuses `simulated` beside real sources and a source named twice. */
export function checkSources(specs: SourceSpec[]): SourceSpec[] {
  if (specs.length > 1 && specs.some((x) => x.kind === 'simulated')) {
    throw new Error('`simulated` cannot be combined with real sources (simulated numbers are never mixed in)');
  }
  const seen = new Set<string>();
  for (const spec of specs) {
    const name = sourceName(spec);
    if (seen.has(name)) throw new Error(`market source ${name} is named twice`);
    seen.add(name);
  }
  return specs;
}
