import type { Position } from 'ccxt';
import { VenueError } from '../errors.js';

/**
 * The real venues marketlens reads through ccxt, and how each one is read.
 *
 * A profile names the ccxt class, the credential fields a read-only connection needs, and the
 * read plan: which sub-accounts hold balances, which calls list positions, how fills and funding
 * page through time, and where protective (stop / take-profit) orders live. Everything here is
 * data; the adapters in this folder interpret it. No profile mentions a method that changes
 * anything on a venue.
 */

/** Venue ids served through ccxt (the ccxt exchange id, which is also the marketlens venue id). */
export const CCXT_VENUES = ['binance', 'bybit', 'okx', 'kraken', 'coinbase', 'hyperliquid'] as const;

/** A venue served through ccxt. */
export type CcxtVenueId = (typeof CCXT_VENUES)[number];

/** True when `id` is one of {@link CCXT_VENUES}. */
export function isCcxtVenue(id: string): id is CcxtVenueId {
  return (CCXT_VENUES as readonly string[]).includes(id);
}

/**
 * Credential fields, named as ccxt names them. `password` is the API passphrase (OKX);
 * `walletAddress` identifies an on-chain account (Hyperliquid), which is public and enough to read it.
 */
export type CredentialField = 'apiKey' | 'secret' | 'password' | 'walletAddress';

/** The credentials of a connection; only the fields a venue requires are read. */
export type VenueCredentials = Partial<Record<CredentialField, string>>;

/** Parameters passed through to a ccxt method (venue-specific, documented by ccxt). */
export type CallParams = Readonly<Record<string, unknown>>;

/** One call that lists balances, and the sub-account name its lines are reported under. */
export interface BalanceScope {
  account: string;
  params: CallParams;
  /** When true, a permission or not-enabled error means "this account has no such sub-account": skipped. */
  optional?: boolean;
}

/** One call that lists positions. */
export interface PositionScope {
  params: CallParams;
  optional?: boolean;
}

/**
 * How a time-ordered private history (fills, funding) pages on a venue.
 *
 * `asc`: the venue returns the oldest records from `since` on; a full page moves `since` forward.
 * `desc`: the venue returns the newest records of `[since, until]`; a full page moves `until` back.
 * `windowMs`: the longest `[since, until]` span the venue accepts (null: no limit).
 * `pageSize`: the records one call returns at most (the `limit` sent).
 */
export interface PagingSpec {
  order: 'asc' | 'desc';
  windowMs: number | null;
  pageSize: number;
}

/** One source of fills: a market family (or, for `symbol` discovery, one symbol). */
export interface FillScope extends PagingSpec {
  params: CallParams;
  /** Unified ccxt symbol, when the venue reads fills per symbol. */
  symbol?: string;
}

/** How fills are read. */
export type FillPlan =
  | { kind: 'families'; scopes: readonly FillScope[] }
  /**
   * The venue reads fills per symbol only (Binance): symbols are discovered from balances,
   * positions and the futures income ledger, then read with `spot` / `derivatives` paging.
   */
  | {
      kind: 'symbols';
      spot: PagingSpec;
      derivatives: PagingSpec;
      /** Quote currencies tried for each held spot currency. */
      spotQuotes: readonly string[];
    };

/** How funding payments are read; null when the venue reports none. */
export interface FundingPlan extends PagingSpec {
  /**
   * The sign ccxt's `amount` carries: `received` when positive means the account received funding
   * (Binance income, OKX bill balance change, Hyperliquid delta), `paid` when positive means it paid
   * (Bybit's `execFee`, a fee: positive is an expense).
   */
  positive: 'received' | 'paid';
  /**
   * The parameters that bound a `[since, until]` request, where ccxt's `until` is not what the venue
   * needs (OKX takes `begin`/`end`). Default: `{ until }`.
   */
  windowParams?: (since: number, until: number) => CallParams;
}

/** Where resting stop-loss and take-profit orders are listed. */
export interface ProtectivePlan {
  /** `symbol`: one call per open position's symbol; `global`: calls without a symbol. */
  scope: 'symbol' | 'global';
  calls: readonly CallParams[];
}

/**
 * A family of markets one bulk read answers for: spot, or perpetuals margined in the quote
 * (`linear`) or in the base (`inverse`). Venues split their all-tickers endpoints along these lines
 * (Binance: spot, USDⓈ-M and COIN-M are three APIs).
 */
export type BulkFamily = 'spot' | 'linear' | 'inverse';

/**
 * The parameters of the one ccxt call that reads a whole {@link BulkFamily} at once. Families given
 * equal parameters share one call (OKX lists every perpetual in one answer); a family left out is
 * read one market at a time.
 */
export interface BulkPlan {
  /** `fetchTickers(undefined, params)`. */
  tickers: Partial<Record<BulkFamily, CallParams>>;
  /** `fetchFundingRates(undefined, params)`. */
  funding: Partial<Record<BulkFamily, CallParams>>;
}

/** Everything the adapters need to know about one venue. */
export interface VenueProfile {
  id: CcxtVenueId;
  /** Display name used in messages ("Binance rejected the API key: ..."). */
  name: string;
  /** Fields a read-only connection must supply. */
  credentials: readonly CredentialField[];
  /** What the credentials are called in a rejection message. */
  credentialNoun: string;
  /** ccxt constructor options. */
  options: CallParams;
  balances: readonly BalanceScope[];
  positions: readonly PositionScope[];
  fills: FillPlan;
  funding: FundingPlan | null;
  protective: ProtectivePlan;
  /**
   * Fills in a position ccxt parsed from a shape it does not know (Coinbase US futures, read from
   * the CFM endpoint, come back with no side, size or prices; the raw fields are in `info`).
   */
  repairPosition?: (position: Position) => Position;
  /**
   * Extra parameters for `fetchTicker` by market type, where ccxt emulates it from a bulk call
   * (Hyperliquid: `type` limits the bulk read to perpetuals or to spot instead of every market).
   */
  tickerParams?: Partial<Record<'spot' | 'derivatives', CallParams>>;
  /** How tickers and funding rates are read in bulk; absent: one market at a time. */
  bulk?: BulkPlan;
  /** Funding interval when the venue does not report one. */
  defaultFundingHours: number;
  /**
   * Candles: the most one call returns, and whether ccxt takes an `until` bound for the venue
   * (Kraken's OHLC takes only `since` and answers forward from it).
   */
  ohlcv: { pageSize: number; until: boolean };
}

const DAY = 86_400_000;
const WEEK = 7 * DAY;

function num(value: unknown): number | undefined {
  const n =
    typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * ccxt parses Coinbase positions in the INTX (international perpetuals) shape only; a US futures
 * position from `/cfm/positions` (`product_id`, `side`, `number_of_contracts`, `avg_entry_price`,
 * `current_price`, `unrealized_pnl`) is read from its raw fields here.
 */
function repairCoinbaseFuture(position: Position): Position {
  const info = (position.info ?? {}) as Record<string, unknown>;
  if (info.number_of_contracts === undefined) return position;
  const side = info.side === 'LONG' ? 'long' : info.side === 'SHORT' ? 'short' : undefined;
  return {
    ...position,
    symbol: undefined,
    side: side ?? '',
    contracts: num(info.number_of_contracts),
    entryPrice: num(info.avg_entry_price),
    markPrice: num(info.current_price),
    unrealizedPnl: num(info.unrealized_pnl),
  };
}

/** The read plan of every ccxt venue. */
export const VENUE_PROFILES: Readonly<Record<CcxtVenueId, VenueProfile>> = {
  binance: {
    id: 'binance',
    name: 'Binance',
    credentials: ['apiKey', 'secret'],
    credentialNoun: 'the API key',
    options: { defaultType: 'spot', fetchMarkets: { types: ['spot', 'linear', 'inverse'] } },
    balances: [
      { account: 'spot', params: { type: 'spot' } },
      { account: 'futures', params: { type: 'future' } },
      { account: 'funding', params: { type: 'funding' }, optional: true },
    ],
    positions: [{ params: { subType: 'linear' } }, { params: { subType: 'inverse' }, optional: true }],
    fills: {
      kind: 'symbols',
      // Spot myTrades with only startTime returns the oldest trades forward; no window limit.
      spot: { order: 'asc', windowMs: null, pageSize: 1000 },
      // USD-M userTrades accepts at most 7 days between startTime and endTime.
      derivatives: { order: 'asc', windowMs: WEEK, pageSize: 1000 },
      spotQuotes: ['USDT', 'USDC', 'FDUSD'],
    },
    funding: { order: 'asc', windowMs: null, pageSize: 1000, positive: 'received' },
    // Since 2025-12 Binance lists conditional (stop / take-profit) orders as algo orders.
    protective: { scope: 'symbol', calls: [{}, { trigger: true }] },
    // ccxt picks the API from `type`/`subType`: /api/v3, /fapi/v1 (USDⓈ-M), /dapi/v1 (COIN-M).
    bulk: {
      tickers: {
        spot: { type: 'spot' },
        linear: { type: 'swap', subType: 'linear' },
        inverse: { type: 'swap', subType: 'inverse' },
      },
      funding: { linear: { subType: 'linear' }, inverse: { subType: 'inverse' } },
    },
    defaultFundingHours: 8,
    ohlcv: { pageSize: 1000, until: true },
  },
  bybit: {
    id: 'bybit',
    name: 'Bybit',
    credentials: ['apiKey', 'secret'],
    credentialNoun: 'the API key',
    options: {},
    balances: [
      { account: 'unified', params: {} },
      { account: 'funding', params: { type: 'funding' }, optional: true },
    ],
    positions: [
      { params: { subType: 'linear', settleCoin: 'USDT' } },
      { params: { subType: 'linear', settleCoin: 'USDC' } },
      { params: { subType: 'inverse' }, optional: true },
    ],
    fills: {
      kind: 'families',
      // Execution list: newest first, at most 7 days per query, 100 per page.
      scopes: [
        { params: { subType: 'linear' }, order: 'desc', windowMs: WEEK, pageSize: 100 },
        { params: { type: 'spot' }, order: 'desc', windowMs: WEEK, pageSize: 100 },
        { params: { subType: 'inverse' }, order: 'desc', windowMs: WEEK, pageSize: 100 },
      ],
    },
    // ccxt sends `size`; `limit` is Bybit's own name, so both say 50 (Bybit's default page).
    funding: {
      order: 'desc',
      windowMs: WEEK,
      pageSize: 50,
      positive: 'paid',
      windowParams: (_since, until) => ({ limit: 50, until }),
    },
    protective: { scope: 'symbol', calls: [{}, { trigger: true }] },
    // One `category` per call: spot, linear, inverse.
    bulk: {
      tickers: {
        spot: { type: 'spot' },
        linear: { type: 'swap', subType: 'linear' },
        inverse: { type: 'swap', subType: 'inverse' },
      },
      funding: { linear: { type: 'swap', subType: 'linear' }, inverse: { type: 'swap', subType: 'inverse' } },
    },
    defaultFundingHours: 8,
    ohlcv: { pageSize: 1000, until: true },
  },
  okx: {
    id: 'okx',
    name: 'OKX',
    credentials: ['apiKey', 'secret', 'password'],
    credentialNoun: 'the API key',
    options: {},
    balances: [
      { account: 'trading', params: {} },
      { account: 'funding', params: { type: 'funding' }, optional: true },
    ],
    positions: [{ params: {} }],
    fills: {
      kind: 'families',
      // fills-history: newest first within [begin, end], 100 per page, three months kept.
      scopes: [
        { params: { instType: 'SPOT' }, order: 'desc', windowMs: null, pageSize: 100 },
        { params: { instType: 'SWAP' }, order: 'desc', windowMs: null, pageSize: 100 },
        { params: { instType: 'FUTURES' }, order: 'desc', windowMs: null, pageSize: 100 },
      ],
    },
    // bills-archive type 8: ccxt does not forward since/until, OKX accepts begin/end.
    funding: {
      order: 'desc',
      windowMs: null,
      pageSize: 100,
      positive: 'received',
      windowParams: (since, until) => ({ begin: String(since), end: String(until) }),
    },
    // Stop-loss / take-profit live among algo orders: conditional (one leg), oco (both), trigger.
    protective: { scope: 'global', calls: [{ ordType: 'conditional' }, { ordType: 'oco' }, { trigger: true }] },
    // `instType` SPOT or SWAP (linear and inverse together); funding of every swap with `instId=ANY`.
    // ccxt forwards unknown parameters to OKX, so none but `type` is sent.
    bulk: {
      tickers: { spot: { type: 'spot' }, linear: { type: 'swap' }, inverse: { type: 'swap' } },
      funding: { linear: {}, inverse: {} },
    },
    defaultFundingHours: 8,
    ohlcv: { pageSize: 300, until: true },
  },
  kraken: {
    id: 'kraken',
    name: 'Kraken',
    credentials: ['apiKey', 'secret'],
    credentialNoun: 'the API key',
    options: {},
    balances: [{ account: 'spot', params: {} }],
    // Margin positions of the spot exchange.
    positions: [{ params: {} }],
    // TradesHistory: newest first, 50 per call.
    fills: { kind: 'families', scopes: [{ params: {}, order: 'desc', windowMs: null, pageSize: 50 }] },
    funding: null,
    protective: { scope: 'global', calls: [{}] },
    // Kraken's Ticker without `pair` answers every pair; ccxt forwards parameters, so none is sent.
    bulk: { tickers: { spot: {} }, funding: {} },
    defaultFundingHours: 8,
    ohlcv: { pageSize: 720, until: false },
  },
  coinbase: {
    id: 'coinbase',
    name: 'Coinbase',
    credentials: ['apiKey', 'secret'],
    credentialNoun: 'the API key',
    options: {},
    // Advanced Trade accounts (v3): available and held amounts per currency.
    balances: [{ account: 'spot', params: { v3: true } }],
    // US derivatives (CFM futures); an account without them answers with a permission error.
    positions: [{ params: { type: 'future' }, optional: true }],
    repairPosition: repairCoinbaseFuture,
    fills: { kind: 'families', scopes: [{ params: {}, order: 'desc', windowMs: null, pageSize: 100 }] },
    funding: null,
    protective: { scope: 'global', calls: [{}] },
    // Advanced Trade products by `product_type` (SPOT, FUTURE).
    bulk: { tickers: { spot: { type: 'spot' }, linear: { type: 'swap' } }, funding: {} },
    defaultFundingHours: 1,
    ohlcv: { pageSize: 300, until: true },
  },
  hyperliquid: {
    id: 'hyperliquid',
    name: 'Hyperliquid',
    // Reading needs only the public address; the signing key is never asked for.
    credentials: ['walletAddress'],
    credentialNoun: 'the wallet address',
    options: {},
    balances: [
      { account: 'futures', params: { type: 'swap' } },
      { account: 'spot', params: { type: 'spot' } },
    ],
    positions: [{ params: {} }],
    // userFillsByTime: oldest first from startTime, at most 2000 per response.
    fills: { kind: 'families', scopes: [{ params: {}, order: 'asc', windowMs: null, pageSize: 2000 }] },
    // userFunding: oldest first, at most 500 per response; positive usdc is received.
    funding: { order: 'asc', windowMs: null, pageSize: 500, positive: 'received' },
    protective: { scope: 'global', calls: [{}] },
    tickerParams: { spot: { type: 'spot' }, derivatives: { type: 'swap' } },
    // One `info` request per family; funding of every perpetual comes with their contexts.
    bulk: { tickers: { spot: { type: 'spot' }, linear: { type: 'swap' } }, funding: { linear: {} } },
    defaultFundingHours: 1,
    ohlcv: { pageSize: 5000, until: true },
  },
};

/** The profile of a venue; throws `VenueError('not_supported')` for a venue not served through ccxt. */
export function venueProfile(id: string): VenueProfile {
  if (!isCcxtVenue(id)) {
    throw new VenueError('not_supported', `${id} is not a supported venue (supported: ${CCXT_VENUES.join(', ')})`, {
      venue: id,
    });
  }
  return VENUE_PROFILES[id];
}
