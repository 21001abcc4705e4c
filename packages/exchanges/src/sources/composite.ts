import { calendarOf } from '../calendar.js';
import { VenueError } from '../errors.js';
import type { CandleRequest, CandleSeries, FundingRate, Market, MarketData, MarketRequest, Ticker } from '../ports.js';
import type { AssetDefinition } from '../universe/assets.js';
import { createUniverse, type Universe } from '../universe/universe.js';
import { type BreakerState, type GuardedSource, guardSource, type SourceGuardOptions } from './guard.js';
import type { ListedAsset, MarketSource } from './source.js';
import type { CandleStore } from './store.js';
import { type StoredCandlesOptions, storedCandles } from './stored.js';

/** Options of {@link createMarketSources}. */
export interface MarketSourcesOptions {
  /** The sources, in the order they are tried for an asset. */
  sources: readonly MarketSource[];
  /** Where candles persist; absent: every read goes upstream. */
  store?: CandleStore;
  /** Store settings (backfill depth, refresh interval, observers); see `storedCandles`. */
  stored?: Omit<StoredCandlesOptions, 'store'>;
  /** How each source's calls are bounded; see `guardSource`. */
  guard?: SourceGuardOptions;
  /** How often the asset lists are read again; default one hour. */
  relistMs?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
  /** Where failures of a source's listing are told; default nowhere. */
  log?: (message: string) => void;
}

/** The health of one source. */
export interface SourceStatus {
  source: string;
  /** Assets the source serves (from its last successful listing). */
  assets: number;
  breaker: BreakerState;
  /** Last successful call (ms UTC), null: none yet. */
  last_success_at: number | null;
  /** Why the last listing failed, null when it did not. */
  listing_error: string | null;
}

/** Market data from several configured sources, with the universe they list. */
export interface MarketSources extends MarketData {
  /** The assets of every source, ranked by 24 h USD quote volume. */
  readonly universe: Universe;
  /** The source ids, in order. */
  readonly sourceIds: readonly string[];
  /** Reads every source's asset list again (the universe is rebuilt from what answers). */
  relist(): Promise<void>;
  /** Health of each source. */
  status(): SourceStatus[];
  /** Stops the periodic relisting. */
  close(): void;
}

interface Entry {
  guarded: GuardedSource;
  candles: (request: CandleRequest) => Promise<CandleSeries>;
  listed: ListedAsset[] | null;
  listingError: string | null;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Builds a universe from the listed assets, ranked by summed 24 h USD quote volume (assets without
 * a known volume keep the configured order after those with one). A definition that would make the
 * mapping ambiguous (a currency code claimed by two assets) is left out rather than guessed.
 */
export function universeOfListings(listings: readonly (readonly ListedAsset[])[]): Universe {
  const byId = new Map<string, { definition: AssetDefinition; volume: number | null; order: number }>();
  for (const listing of listings) {
    for (const { definition, quote_volume_usd } of listing) {
      const held = byId.get(definition.id);
      if (held === undefined) byId.set(definition.id, { definition, volume: quote_volume_usd, order: byId.size });
      else if (quote_volume_usd !== null) held.volume = (held.volume ?? 0) + quote_volume_usd;
    }
  }
  const ranked = [...byId.values()].sort((a, b) => {
    if (a.volume !== null && b.volume !== null && a.volume !== b.volume) return b.volume - a.volume;
    if (a.volume !== null && b.volume === null) return -1;
    if (a.volume === null && b.volume !== null) return 1;
    return a.order - b.order;
  });
  const accepted: AssetDefinition[] = [];
  for (const { definition } of ranked) {
    try {
      createUniverse([...accepted, definition]);
      accepted.push(definition);
    } catch {
      // An ambiguous definition is dropped; the first (higher ranked) claim keeps the code.
    }
  }
  return createUniverse(accepted);
}

/**
 * Market data from configured sources, tried in order per asset: an asset is served by the first
 * source that lists it, the next one taking over when that one fails with nothing stored. Each
 * source is guarded (deadline, retries with backoff, circuit breaker, rate) and its candles go
 * through the store. The universe is what the sources list; an asset none of them lists is
 * `unknown_asset`: nothing simulated is ever mixed in. Resolves once every source has been asked
 * for its assets (a source that fails to answer is retried at each relisting).
 */
export async function createMarketSources(options: MarketSourcesOptions): Promise<MarketSources> {
  if (options.sources.length === 0) throw new Error('at least one market source is needed');
  const entries: Entry[] = options.sources.map((source) => {
    const guarded = guardSource(source, {
      ...options.guard,
      ...(source.ratePerSecond === undefined || options.guard?.ratePerSecond !== undefined
        ? {}
        : { ratePerSecond: source.ratePerSecond }),
    });
    return {
      guarded,
      candles:
        options.store === undefined || source.local === true
          ? (request) => guarded.candles(request).then((s) => ({ ...s, source: source.source }))
          : storedCandles(guarded, {
              calendarOf: (id) => calendarOf(universe.get(id)?.asset_class),
              ...options.stored,
              store: options.store,
            }),
      listed: null,
      listingError: null,
    };
  });
  let universe: Universe = createUniverse([]);
  let bySource = new Map<string, Entry[]>();

  async function relist(): Promise<void> {
    await Promise.all(
      entries.map(async (e) => {
        try {
          e.listed = await e.guarded.listAssets();
          e.listingError = null;
        } catch (err) {
          e.listingError = message(err);
          options.log?.(`market source ${e.guarded.source} could not list its assets: ${e.listingError}`);
        }
      }),
    );
    universe = universeOfListings(entries.map((e) => e.listed ?? []));
    const next = new Map<string, Entry[]>();
    for (const e of entries) {
      for (const { definition } of e.listed ?? []) {
        const list = next.get(definition.id) ?? [];
        list.push(e);
        next.set(definition.id, list);
      }
    }
    bySource = next;
  }

  await relist();
  const timer = setInterval(() => void relist(), options.relistMs ?? 3_600_000);
  timer.unref();

  function sourcesOf(asset_id: string): Entry[] {
    const list = universe.get(asset_id) === undefined ? undefined : bySource.get(asset_id);
    if (list === undefined || list.length === 0) {
      throw new VenueError('unknown_asset', `no configured market source serves '${asset_id}'`);
    }
    return list;
  }

  /** Runs `read` on the asset's sources in order until one answers; the first failure is thrown. */
  async function firstAnswer<T>(asset_id: string, read: (e: Entry) => Promise<T>): Promise<T> {
    let first: unknown;
    for (const e of sourcesOf(asset_id)) {
      try {
        return await read(e);
      } catch (err) {
        first ??= err;
        if (err instanceof VenueError && !err.retryable) break;
      }
    }
    throw first;
  }

  return {
    venue: entries.map((e) => e.guarded.venue).join('+'),
    get universe() {
      return universe;
    },
    sourceIds: entries.map((e) => e.guarded.source),
    async candles(request: CandleRequest): Promise<CandleSeries> {
      let stale: CandleSeries | null = null;
      let first: unknown;
      for (const e of sourcesOf(request.asset_id)) {
        try {
          const series = await e.candles(request);
          if (series.stale !== true) return series;
          stale ??= series;
        } catch (err) {
          first ??= err;
          if (err instanceof VenueError && !err.retryable) break;
        }
      }
      if (stale !== null) return stale;
      if (first instanceof VenueError && !first.retryable) throw first;
      throw new VenueError('unavailable', `no market source could serve ${request.asset_id}: ${message(first)}`, {
        ...(first instanceof VenueError && first.retryAfterMs !== undefined
          ? { retryAfterMs: first.retryAfterMs }
          : {}),
        cause: first,
      });
    },
    ticker: (request: MarketRequest): Promise<Ticker> =>
      firstAnswer(request.asset_id, (e) => e.guarded.ticker(request)),
    fundingRate: (request: MarketRequest): Promise<FundingRate | null> =>
      firstAnswer(request.asset_id, (e) => e.guarded.fundingRate(request)),
    async markets(asset_id: string): Promise<Market[]> {
      return firstAnswer(asset_id, (e) => e.guarded.markets(asset_id));
    },
    relist,
    status: () =>
      entries.map((e) => {
        const h = e.guarded.health();
        return {
          source: e.guarded.source,
          assets: e.listed?.length ?? 0,
          breaker: h.breaker,
          last_success_at: h.last_success_at,
          listing_error: e.listingError,
        };
      }),
    close: () => clearInterval(timer),
  };
}
