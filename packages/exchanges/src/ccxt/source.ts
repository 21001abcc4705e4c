import type { FundingRate as CcxtFundingRate, Ticker as CcxtTicker } from 'ccxt';
import { VenueError } from '../errors.js';
import type { FundingRate, MarketRequest, Ticker } from '../ports.js';
import type { ListedAsset, MarketSource } from '../sources/source.js';
import { type AssetDefinition, BUILTIN_ASSETS } from '../universe/assets.js';
import { available } from './capability.js';
import type { CcxtMarket } from './client.js';
import { toVenueError } from './errors.js';
import { CcxtMarketData, type CcxtMarketDataOptions, usdQuoteVolume } from './market-data.js';
import type { IndexedMarket } from './market-index.js';
import { CcxtSession } from './session.js';
import { type BulkFamily, type CallParams, venueProfile } from './venues.js';

/** Options of {@link createCcxtSource}. */
export interface CcxtSourceOptions extends CcxtMarketDataOptions {
  /**
   * Reads the venue's testnet instead of its live API (ccxt's sandbox mode). Venues without one
   * (Kraken, Coinbase) fail with `not_supported`.
   */
  sandbox?: boolean;
  /**
   * How long one bulk read of every ticker (and of every funding rate) serves `ticker()` and
   * `fundingRate()`, in ms; default 30 000. 0 reads again on every call.
   */
  tickerTtlMs?: number;
}

/** Default of {@link CcxtSourceOptions.tickerTtlMs}. */
const DEFAULT_TICKER_TTL_MS = 30_000;

/** Venue answers keyed by unified ccxt symbol, as `fetchTickers` and `fetchFundingRates` return them. */
type BySymbol<T> = Readonly<Record<string, T | undefined>>;

const BUILTIN_BY_ID: ReadonlyMap<string, AssetDefinition> = new Map(BUILTIN_ASSETS.map((a) => [a.id, a]));

/** The bulk family a market is read with; null for dated futures, which are read one by one. */
function familyOf(market: CcxtMarket): BulkFamily | null {
  if (market.spot === true) return 'spot';
  if (market.swap !== true) return null;
  return market.inverse === true ? 'inverse' : 'linear';
}

/**
 * One venue read shared by everyone who asks within `ttlMs` of its start; callers arriving while
 * it runs wait for it. A failed read is forgotten at once, so the next caller tries again.
 */
class SharedRead<T> {
  private last: { at: number; value: Promise<T> } | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(): Promise<T> {
    const now = this.now();
    if (this.last !== undefined && now - this.last.at < this.ttlMs) return this.last.value;
    const entry = { at: now, value: this.read() };
    this.last = entry;
    entry.value.catch(() => {
      if (this.last === entry) this.last = undefined;
    });
    return entry.value;
  }
}

class CcxtSource extends CcxtMarketData implements MarketSource {
  readonly source: string;
  private readonly tickerReads = new Map<string, SharedRead<BySymbol<CcxtTicker>>>();
  private readonly fundingReads = new Map<string, SharedRead<BySymbol<CcxtFundingRate>>>();

  constructor(
    session: CcxtSession,
    private readonly ttlMs: number,
  ) {
    super(session);
    this.source = `ccxt:${session.profile.id}`;
  }

  /**
   * Coins with at least one active spot or perpetual market here, by summed 24 h USD quote volume
   * over their markets, highest first (null, ranked last, when no market reports a USD volume or the
   * venue has no bulk tickers). Only coins of the built-in universe are listed: their definitions
   * come from it, so a coin it does not know, and a stock or an fx pair some venues also trade, is
   * left out.
   */
  async listAssets(): Promise<ListedAsset[]> {
    const index = await this.session.index();
    const listed: { definition: AssetDefinition; markets: readonly IndexedMarket[] }[] = [];
    const families = new Set<BulkFamily>();
    for (const asset_id of index.assets()) {
      const definition = BUILTIN_BY_ID.get(asset_id);
      if (definition?.asset_class !== 'coins') continue;
      const markets = index.marketsOf(asset_id);
      const readable = markets.map((m) => familyOf(m.ccxt)).filter((f): f is BulkFamily => f !== null);
      if (readable.length === 0) continue;
      for (const f of readable) families.add(f);
      listed.push({ definition, markets });
    }
    const books = await Promise.all([...families].map((f) => this.bulkTickers(f)));
    const tickers = new Map<string, CcxtTicker>();
    for (const book of books) {
      for (const [symbol, t] of Object.entries(book ?? {})) if (t !== undefined) tickers.set(symbol, t);
    }
    const assets = listed.map(({ definition, markets }): ListedAsset => {
      let volume: number | null = null;
      for (const m of markets) {
        const t = tickers.get(m.ccxt.symbol);
        const usd = t === undefined ? null : usdQuoteVolume(m, t);
        if (usd !== null) volume = (volume ?? 0) + usd;
      }
      return { definition, quote_volume_usd: volume };
    });
    return assets.sort(
      (a, b) =>
        (b.quote_volume_usd ?? -1) - (a.quote_volume_usd ?? -1) || a.definition.id.localeCompare(b.definition.id),
    );
  }

  /** Served from the venue's bulk tickers (one read per family and TTL); one `fetchTicker` otherwise. */
  override async ticker(request: MarketRequest): Promise<Ticker> {
    const market = (await this.session.index()).resolve(request, request.market_type ?? 'spot');
    const family = familyOf(market.ccxt);
    const book = family === null ? null : await this.bulkTickers(family);
    const t = book?.[market.ccxt.symbol];
    // A market missing from the bulk answer is asked for alone: the venue decides whether it has one.
    return t === undefined ? super.ticker(request) : this.toTicker(market, t);
  }

  /** Served from the venue's bulk funding rates (one read per family and TTL); one `fetchFundingRate` otherwise. */
  override async fundingRate(request: MarketRequest): Promise<FundingRate | null> {
    const market = await this.perpetualOf(request);
    if (market === null) return null;
    const family = familyOf(market.ccxt);
    const book = family === null ? null : await this.bulkFunding(family);
    const f = book?.[market.ccxt.symbol];
    return f === undefined ? super.fundingRate(request) : this.toFundingRate(market, f);
  }

  /** Every ticker of a family, or null when the venue reads this family one market at a time. */
  private bulkTickers(family: BulkFamily): Promise<BySymbol<CcxtTicker>> | null {
    const { session } = this;
    const params = session.profile.bulk?.tickers[family];
    if (params === undefined || !available(session.client.has.fetchTickers)) return null;
    return this.shared(this.tickerReads, params, () => session.call((c) => c.fetchTickers(undefined, { ...params })));
  }

  /** Every funding rate of a family, or null when the venue reads them one market at a time. */
  private bulkFunding(family: BulkFamily): Promise<BySymbol<CcxtFundingRate>> | null {
    const { session } = this;
    const params = session.profile.bulk?.funding[family];
    if (params === undefined || !available(session.client.has.fetchFundingRates)) return null;
    return this.shared(this.fundingReads, params, () =>
      session.call((c) => c.fetchFundingRates(undefined, { ...params })),
    );
  }

  /** The shared read of one call; families sent with the same parameters get the same one. */
  private shared<T>(
    reads: Map<string, SharedRead<BySymbol<T>>>,
    params: CallParams,
    read: () => Promise<BySymbol<T>>,
  ): Promise<BySymbol<T>> {
    const key = JSON.stringify(params);
    let shared = reads.get(key);
    if (shared === undefined) {
      shared = new SharedRead(read, this.ttlMs, this.session.now);
      reads.set(key, shared);
    }
    return shared.get();
  }
}

/**
 * A venue as a market source (`ccxt:binance`): the venue's coins ranked by 24 h quote volume, and
 * their market data. Tickers and funding rates come from one bulk read per market family (spot,
 * linear and inverse perpetuals), reused for `tickerTtlMs`, so ranking and pricing many assets
 * costs a few venue calls rather than one per asset; candles and markets are read as
 * `createCcxtMarketData` reads them. Loads ccxt on first use (never at import), then the
 * venue's markets unless `markets` are given. Failures are `VenueError`s.
 */
export async function createCcxtSource(options: CcxtSourceOptions): Promise<MarketSource> {
  const profile = venueProfile(options.venue);
  const ttlMs = options.tickerTtlMs ?? DEFAULT_TICKER_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs < 0) {
    throw new VenueError('bad_request', `tickerTtlMs must be a non-negative number of ms, got ${ttlMs}`, {
      venue: profile.id,
    });
  }
  // ccxt switches to the testnet URLs when built with the `sandbox` option.
  const ccxtOptions = options.sandbox === true ? { ...options.ccxtOptions, sandbox: true } : options.ccxtOptions;
  try {
    return new CcxtSource(await CcxtSession.open(profile, {}, { ...options, ccxtOptions }), ttlMs);
  } catch (error) {
    // The ccxt constructor throws its own errors (a venue without a testnet).
    throw toVenueError(error, profile);
  }
}
