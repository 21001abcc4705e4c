import type { Exchange } from 'ccxt';
import { VenueError } from '../errors.js';
import { toVenueError } from './errors.js';
import type { VenueCredentials, VenueProfile } from './venues.js';

/**
 * The part of a ccxt exchange the adapters may touch: market metadata and read-only calls.
 * Nothing that writes to a venue (orders, movements of funds, account settings) is reachable
 * through this type, and `readonly.test.ts` scans this folder for the names of such methods.
 */
export type ReadOnlyClient = Pick<
  Exchange,
  | 'id'
  | 'has'
  | 'timeframes'
  | 'precisionMode'
  | 'markets'
  | 'last_response_headers'
  | 'loadMarkets'
  | 'market'
  | 'fetchOHLCV'
  | 'fetchTicker'
  | 'fetchTickers'
  | 'fetchFundingRate'
  | 'fetchFundingRates'
  | 'fetchOpenInterests'
  | 'fetchBalance'
  | 'fetchPositions'
  | 'fetchMyTrades'
  | 'fetchOpenOrders'
  | 'fetchFundingHistory'
  | 'fetchLedger'
>;

/** The methods of {@link ReadOnlyClient}: the only functions the adapters can reach on an exchange. */
export const READ_ONLY_CALLS: ReadonlySet<string> = new Set([
  'loadMarkets',
  'market',
  'fetchOHLCV',
  'fetchTicker',
  'fetchTickers',
  'fetchFundingRate',
  'fetchFundingRates',
  'fetchOpenInterests',
  'fetchBalance',
  'fetchPositions',
  'fetchMyTrades',
  'fetchOpenOrders',
  'fetchFundingHistory',
  'fetchLedger',
]);

/** Thrown when code reaches for an exchange method outside {@link READ_ONLY_CALLS}: a bug, never a venue fault. */
export class NotReadOnlyError extends TypeError {
  override readonly name = 'NotReadOnlyError';
}

/**
 * Wraps an exchange so that only {@link READ_ONLY_CALLS} can be called: any other method (anything
 * that writes, or a raw endpoint) throws before anything is sent. The allowed
 * methods run on the exchange itself, so ccxt's own internals are unaffected.
 */
export function readOnly(exchange: Exchange): ReadOnlyClient {
  return new Proxy(exchange, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && READ_ONLY_CALLS.has(prop)) return value.bind(target);
      throw new NotReadOnlyError(`${String(prop)} is not a read-only venue call`);
    },
    set() {
      return false;
    },
  });
}

/**
 * A ccxt market structure (`exchange.markets[symbol]`): the fields of ccxt's `MarketInterface` the
 * adapters read, written out so that the published declarations never import ccxt's, which do not
 * compile under `strict` without `skipLibCheck`. Every ccxt market is one.
 */
export interface CcxtMarket {
  id: string | undefined;
  symbol: string;
  base: string;
  quote: string;
  settle: string | undefined;
  /** `spot`, `margin`, `swap`, `future`, `option`, ... */
  type: string;
  active: boolean | undefined;
  spot: boolean | undefined;
  swap: boolean | undefined;
  future: boolean | undefined;
  option: boolean | undefined;
  linear: boolean | undefined;
  inverse: boolean | undefined;
  contract: boolean | undefined;
  /** Units of the base per contract, on a derivative. */
  contractSize: number | undefined;
  /** Price and amount precision: a tick size when the exchange's `precisionMode` is ccxt's `TICK_SIZE`. */
  precision?: { price?: number | undefined } | undefined;
  /** The venue's own market record. */
  info: unknown;
}

/** How a ccxt client is built. */
export interface CcxtClientOptions {
  /** Milliseconds before a venue call fails with `timeout` (ccxt `timeout`); default 10 000. */
  timeoutMs?: number;
  /**
   * Sends every request through this URL prefix (ccxt `proxyUrl`: the target URL is appended,
   * URI-encoded when it has a query): a forwarding or CORS proxy, or a local test venue.
   */
  proxyUrl?: string;
  /** Markets to use instead of loading them from the venue (ccxt market structures, fed to `setMarkets`). */
  markets?: readonly CcxtMarket[];
  /** ccxt's built-in request throttling; default true. */
  rateLimit?: boolean;
  /** Extra ccxt constructor options, merged over the venue profile's `options`. */
  ccxtOptions?: Readonly<Record<string, unknown>>;
}

type CcxtModule = typeof import('ccxt');
type ExchangeConstructor = new (config: Record<string, unknown>) => Exchange;

let loading: Promise<CcxtModule> | undefined;

/**
 * Loads ccxt on first use. ccxt costs about half a second and ~100 MB to import, so it is never
 * imported at module top level: only code that talks to a real venue pays for it.
 */
export function loadCcxt(): Promise<CcxtModule> {
  loading ??= import('ccxt');
  return loading;
}

/**
 * Builds the ccxt client of a venue, lazily loading ccxt. Credentials must already be checked
 * (`checkCredentials`); only the fields the profile names are handed to ccxt.
 */
export async function createClient(
  profile: VenueProfile,
  credentials: VenueCredentials,
  options: CcxtClientOptions = {},
): Promise<ReadOnlyClient> {
  const mod = await loadCcxt();
  const ctor = (mod as unknown as Record<string, ExchangeConstructor | undefined>)[profile.id];
  if (ctor === undefined) {
    throw new VenueError('not_supported', `${profile.name} is not available in the installed ccxt`, {
      venue: profile.id,
    });
  }
  const config: Record<string, unknown> = {
    enableRateLimit: options.rateLimit ?? true,
    timeout: options.timeoutMs ?? 10_000,
    options: { ...profile.options, ...(options.ccxtOptions ?? {}) },
  };
  for (const field of profile.credentials) {
    const value = credentials[field];
    if (value !== undefined) config[field] = value;
  }
  if (options.proxyUrl !== undefined) config.proxyUrl = options.proxyUrl;
  const exchange = new ctor(config);
  // Sandbox mode (ccxt option `sandbox`) swaps in the venue's `test` URLs; ccxt's base class declares
  // them undefined, so a venue without a testnet would be left with no URL at all.
  if (exchange.isSandboxModeEnabled && exchange.urls.test === undefined) {
    throw new VenueError('not_supported', `${profile.name} has no testnet`, { venue: profile.id });
  }
  refuseUnreadableBodies(exchange, profile);
  if (options.markets !== undefined) {
    exchange.setMarkets([...options.markets]);
    // Kraken names markets by their altname in orders (`XBTUSD` for `XXBTZUSD`); its own market
    // loading builds this index, injected markets need it built here.
    const byAltname: Record<string, CcxtMarket> = {};
    for (const m of options.markets) {
      const altname = (m as CcxtMarket & { altname?: unknown }).altname;
      if (typeof altname === 'string') byAltname[altname] = m;
    }
    if (Object.keys(byAltname).length > 0) exchange.options.marketsByAltname = byAltname;
  }
  return readOnly(exchange);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes a successful response whose body is not JSON (a truncated answer, a proxy's HTML page) fail
 * as a `network` {@link VenueError}. ccxt hands such a body to its parsers as a plain string, where
 * it ends as a `TypeError` or, worse, as nothing at all: no tickers, no candles, no error.
 */
function refuseUnreadableBodies(exchange: Exchange, profile: VenueProfile): void {
  const handle = exchange.handleRestResponse.bind(exchange);
  exchange.handleRestResponse = async (...args: Parameters<Exchange['handleRestResponse']>): Promise<unknown> => {
    const body: unknown = await handle(...args);
    // ccxt returns the raw text when parsing failed, and also for the JSON literals it treats as
    // empty (`null`, `false`, `0`): only the former is refused.
    if (typeof body === 'string' && !isJson(body)) {
      const shown = body.length > 120 ? `${body.slice(0, 117)}...` : body;
      throw new VenueError('network', `${profile.name} sent an answer that is not JSON: ${shown || '(empty)'}`, {
        venue: profile.id,
      });
    }
    return body;
  };
}

/**
 * Runs one venue call and turns a ccxt failure into a {@link VenueError} (reading `Retry-After`
 * from the response that failed, when there was one).
 */
export async function call<T>(client: ReadOnlyClient, profile: VenueProfile, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // ccxt reads answers without checking their shape: JSON of the wrong shape (an object where a
    // list belongs) fails inside its parsers as a TypeError. That is the venue's answer failing.
    if (error instanceof TypeError && !(error instanceof NotReadOnlyError)) {
      throw new VenueError('network', `${profile.name} sent an answer that could not be read: ${error.message}`, {
        venue: profile.id,
        cause: error,
      });
    }
    throw toVenueError(error, profile, client.last_response_headers);
  }
}
