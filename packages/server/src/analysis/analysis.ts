import { ok } from '@marketlens/contract';
import {
  type Analysis,
  analyze,
  defaultTickSize,
  type Fact,
  InputError,
  type NearestLevel,
  type OverviewLocale,
  overviewFacts,
  renderOverview,
  resolveLocale,
  type Signal,
  type Zone,
} from '@marketlens/core';
import {
  type Asset,
  candleOpenTime,
  type FundingRate,
  type LiveCandle,
  MAX_CANDLES,
  type MarketData,
  type MarketType,
  SIMULATED_VENUE_ID,
  splitSeries,
  TIMEFRAME_MS,
} from '@marketlens/exchanges';
import { isAtLeast } from '../auth/tiers.js';
import { type AssetRef, assetRef } from '../market/assets.js';
import { timeframeNeedsPro } from '../market/config-document.js';
import { iso, isoOrNull } from '../market/market.js';
import { stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps, Caller, ClientInfo } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { venueCall } from '../platform/errors/venue-error.js';
import { type CachedBody, cachedBody } from '../platform/http-cache/cached-body.js';
import { Lru } from '../platform/lru.js';
import { CHART_DEPTH, type Timeframe } from '../platform/product-rules.js';
import { distancePct } from './distance.js';
import { type OverviewSource, overviewText } from './overview-llm.js';
import { analyzeOptionsOf } from './plan-costs.js';

/** What an analysis is asked for (query of `/v2/analysis*`). */
export interface AnalysisRequest {
  asset_id: string;
  timeframe: Timeframe;
  /** Preferred market; the asset is served from the market it trades on when it has none of this type. */
  market_type?: MarketType;
  /** A venue-native instrument of the asset to read instead of its default market. */
  pair?: string;
  /** Candles analysed (the window depth). */
  limit: number;
  /** The exchange id to read; absent: the configured venue. Resolved by `marketFor`. */
  connection?: string;
}

/** Which market served an analysis. */
export interface Served {
  asset: AssetRef;
  timeframe: Timeframe;
  market_type: MarketType;
  pair: string;
  venue: string;
  /** The configured source that served the candles (`simulated`, `ccxt:binance`, `yahoo`, `files:<dir>`). */
  data_source: string;
  /** When the candles were read from that source (ms). */
  fetched_at: number;
  /** True when the source failed and the last stored candles were served. */
  stale: boolean;
}

export interface AnalysisResult extends Served {
  /** The analysis of the closed candles: fixed for the life of the candle that follows them. */
  analysis: Analysis;
  /** The candle still forming when the candles were read, or null (closed session, stale source). */
  live: LiveCandle | null;
  /** When it was computed (clock ms). */
  computed_at: number;
}

interface AnalysisCaches {
  analyses: Lru<AnalysisResult>;
  signals: Lru<AnalysisResult>;
  /** The analysis of each closed candle, kept while that candle is the newest closed one. */
  closed: Lru<Analysis>;
}

/** Analyses are kept per (venue, asset, timeframe, market, pair, depth, last candle open time), at most this many. */
export const ANALYSIS_CACHE_SIZE = 256;
/** ... and at most this long, so the live candle shows through within a minute. */
export const ANALYSIS_CACHE_MS = 60_000;
/** The signal route serves one computation for at most an hour, and never longer than its timeframe's candle. */
export const SIGNAL_CACHE_MS = 3_600_000;

/**
 * How long a cached signal or analysis of `timeframe` may be served: an hour, but never longer than
 * one candle of the timeframe (m5: 5 minutes), so a cache entry is never older than its candle.
 */
export function cacheLimitMs(timeframe: Timeframe): number {
  return Math.min(SIGNAL_CACHE_MS, TIMEFRAME_MS[timeframe]);
}

/**
 * Seconds a client may keep a signal computed `age` seconds ago at `now`: what is left of
 * {@link cacheLimitMs}, and never past the close of the candle now forming, when the signal turns.
 */
export function signalMaxAge(timeframe: Timeframe, now: number, age: number): number {
  const untilClose = Math.floor((candleOpenTime(timeframe, now) + TIMEFRAME_MS[timeframe] - now) / 1000);
  return Math.max(0, Math.min(cacheLimitMs(timeframe) / 1000 - age, untilClose));
}
/** The longest candle (w1): an analysis of closed candles is valid at most this long. */
const CLOSED_ANALYSIS_MS = 7 * 86_400_000;

/** The app's analyses, of every venue it reads (the venue is part of each key). */
const CACHES = stateKey(
  'analyses',
  (): AnalysisCaches => ({
    analyses: new Lru<AnalysisResult>(ANALYSIS_CACHE_SIZE, ANALYSIS_CACHE_MS),
    signals: new Lru<AnalysisResult>(ANALYSIS_CACHE_SIZE, SIGNAL_CACHE_MS),
    closed: new Lru<Analysis>(ANALYSIS_CACHE_SIZE, CLOSED_ANALYSIS_MS),
  }),
);

/** The tier a caller is served as: free when anonymous or when the subscription could not be read. */
export function tierOf(caller: Caller) {
  return caller.kind === 'anonymous' ? 'free' : (caller.tier ?? 'free');
}

/**
 * The analysis gates: a paid timeframe without Pro is 402 (1004) unless the client gets h1
 * free or the asset is on-chain (`external`: every timeframe free); a window deeper than the free
 * candle ceiling without Pro is 402 (1005). A caller whose subscription could not be read is free.
 */
export function checkAnalysisAccess(
  asset: Asset,
  request: Pick<AnalysisRequest, 'timeframe' | 'limit'>,
  caller: Caller,
  client: ClientInfo,
): void {
  if (isAtLeast(tierOf(caller), 'pro')) return;
  if (asset.asset_class !== 'external' && timeframeNeedsPro(request.timeframe, client)) {
    throw new AppError('AnalysisTimeframeRestricted', `Timeframe ${request.timeframe} requires Pro`);
  }
  if (request.limit > CHART_DEPTH.free) {
    throw new AppError(
      'AnalysisHistoryDepthRestricted',
      `Windows deeper than ${CHART_DEPTH.free} candles require Pro (asked ${request.limit})`,
    );
  }
}

// The venue is in the key: one app's caches hold the analyses of every venue it reads.
function cacheKey(market: MarketData, assetId: string, r: AnalysisRequest, lastOpen: number): string {
  return [market.venue, assetId, r.timeframe, r.market_type ?? '', r.pair ?? '', r.limit, lastOpen].join('|');
}

/** The last key made for a request object, and what it was made of besides the request. */
interface KeyMade {
  readonly venue: string;
  readonly assetId: string;
  readonly lastOpen: number;
  readonly key: string;
}
const keysMade = new WeakMap<AnalysisRequest, KeyMade>();

/**
 * {@link cacheKey}, made once per request object and candle: a polled URL is one request object
 * (validated inputs are kept per URL), and a key string that is not rebuilt keeps its hash, so a
 * cache hit costs one lookup instead of a join and a hash of a new string.
 */
function cacheKeyOf(market: MarketData, assetId: string, r: AnalysisRequest, lastOpen: number): string {
  const made = keysMade.get(r);
  if (made !== undefined && made.lastOpen === lastOpen && made.assetId === assetId && made.venue === market.venue) {
    return made.key;
  }
  const key = cacheKey(market, assetId, r, lastOpen);
  keysMade.set(r, { venue: market.venue, assetId, lastOpen, key });
  return key;
}

/**
 * Reads the newest `limit` closed candles (one more is asked for: the live one) and analyses
 * them. The analysis of a closed candle is computed once and kept while no newer candle has
 * closed, so the signal, levels and plan stay fixed for the life of a candle even when the
 * funding input moves; the live candle only supplies the mark.
 */
async function compute(deps: AppDeps, market: MarketData, asset: Asset, r: AnalysisRequest): Promise<AnalysisResult> {
  const now = deps.now();
  const series = await venueCall(() =>
    market.candles({
      asset_id: r.asset_id,
      timeframe: r.timeframe,
      limit: Math.min(r.limit + 1, MAX_CANDLES),
      ...(r.market_type ? { market_type: r.market_type } : {}),
      ...(r.pair ? { pair: r.pair } : {}),
    }),
  );
  const { closed, live } = splitSeries(series, now, r.limit);
  const n = closed.time.length;
  const { closed: memo } = stateOf(deps, CACHES);
  const key = cacheKey(market, r.asset_id, { ...r, pair: series.pair }, n > 0 ? closed.time[n - 1] : -1);
  // An entry older than one candle is recomputed (a market between sessions keeps its last closed candle).
  const kept = memo.entry(key, now);
  let analysis = kept !== undefined && now - kept.at < TIMEFRAME_MS[r.timeframe] ? kept.value : undefined;
  if (analysis === undefined) {
    const analyzeClosed = async (): Promise<Analysis> => {
      // Perpetual funding feeds the Fear & Greed; an asset without a perpetual simply lacks that part.
      const funding: FundingRate | null = await market
        .fundingRate({ asset_id: r.asset_id, ...(series.market_type === 'derivatives' ? { pair: series.pair } : {}) })
        .catch(() => null);
      try {
        // stocks and indices intraday: no entry in a session's last candle (issue 38.2)
        const options = analyzeOptionsOf(deps.config.planCosts, asset, market.venue, deps.config.signalMinExpectedR, {
          time: closed.time,
          stepMs: TIMEFRAME_MS[r.timeframe],
        });
        return analyze(closed, { ...options, market: { funding: funding?.rate ?? null } });
      } catch (err) {
        if (err instanceof InputError) {
          throw new AppError('UnknownMarket', `Not enough market data to analyse ${r.asset_id} on ${r.timeframe}`);
        }
        throw err;
      }
    };
    // Several instances compute a closed candle's analysis once between them (single-flight in
    // Redis) and serve the same one; the analysis is plain JSON data, so it travels as its text.
    const shared = deps.shared;
    analysis =
      shared === undefined
        ? await analyzeClosed()
        : (JSON.parse(
            await shared.cache.getOrCompute(
              `analysis:${key}`,
              TIMEFRAME_MS[r.timeframe] + ANALYSIS_CACHE_MS,
              async () => JSON.stringify(await analyzeClosed()),
            ),
          ) as Analysis);
    memo.set(key, analysis, now);
  }
  return {
    asset: assetRef(asset),
    timeframe: r.timeframe,
    market_type: series.market_type,
    pair: series.pair,
    venue: series.venue,
    data_source: series.source ?? (market.venue === SIMULATED_VENUE_ID ? 'simulated' : `ccxt:${series.venue}`),
    fetched_at: series.fetched_at ?? now,
    stale: series.stale ?? false,
    analysis,
    live,
    computed_at: now,
  };
}

/** The analysis of a request on `market`, from the cache while its last candle and the minute are the same. */
export async function analysisOf(
  deps: AppDeps,
  market: MarketData,
  asset: Asset,
  r: AnalysisRequest,
): Promise<AnalysisResult> {
  const hit = cachedAnalysisOf(deps, market, asset, r);
  if (hit) return hit;
  r = { ...r, asset_id: asset.id }; // the request may name it by ticker (BTC): read and cache by id
  const now = deps.now();
  const result = await compute(deps, market, asset, r);
  stateOf(deps, CACHES).analyses.set(cacheKey(market, r.asset_id, r, candleOpenTime(r.timeframe, now)), result, now);
  return result;
}

/** The analysis {@link analysisOf} would answer from its cache now, if any (nothing is read or computed). */
export function cachedAnalysisOf(
  deps: AppDeps,
  market: MarketData,
  asset: Asset,
  r: AnalysisRequest,
): AnalysisResult | undefined {
  if (asset.is_stablecoin) {
    throw new AppError('StablecoinNotAnalyzed', `${asset.id} is a stablecoin; it is not analysed`);
  }
  const now = deps.now();
  const key = cacheKeyOf(market, asset.id, r, candleOpenTime(r.timeframe, now));
  return stateOf(deps, CACHES).analyses.get(key, now) ?? undefined;
}

/** The wire of an analysis as served: made once per computation (see {@link servedAnalysisWire}). */
export type AnalysisWire = ReturnType<typeof analysisWire>;

const wires = new WeakMap<AnalysisResult, AnalysisWire>();
const envelopes = new WeakMap<AnalysisWire, CachedBody>();

/**
 * The wire of a computed analysis, made once per computation and shared by every answer of it
 * (read, never changed): what the operation `analysis.get` answers, and the key of its bytes as
 * REST sends them ({@link analysisEnvelope}).
 */
export function servedAnalysisWire(result: AnalysisResult): AnalysisWire {
  let wire = wires.get(result);
  if (wire === undefined) {
    wire = analysisWire(result);
    wires.set(result, wire);
  }
  return wire;
}

/**
 * The success envelope of an analysis as sent: its JSON bytes and entity tag, made once per
 * computation (the wire of {@link servedAnalysisWire} is one object per computation), and its
 * compressed forms, each made the first time a client accepts it. A cached analysis is served as
 * the same bytes, so a cache hit costs no wire mapping, stringify, encoding or hashing.
 */
export function analysisEnvelope(wire: AnalysisWire): CachedBody {
  let body = envelopes.get(wire);
  if (body === undefined) {
    body = cachedBody(JSON.stringify(ok(wire)));
    envelopes.set(wire, body);
  }
  return body;
}

/** A signal as published: the declined plan's time as an ISO date-time. */
export function signalWire(sig: Signal) {
  const declined = sig.declined_plan;
  return {
    ...sig,
    declined_plan: declined === null ? null : { ...declined, published_time: iso(declined.published_time) },
  };
}

/** The analysis as published: times as ISO date-times. */
export function analysisWire(result: AnalysisResult) {
  const a = result.analysis;
  const zone = (z: Zone) => ({ ...z, last_touch_time: iso(z.last_touch_time) });
  const nearest = (z: NearestLevel | null) => z && { ...z, last_touch_time: iso(z.last_touch_time) };
  return {
    asset: result.asset,
    timeframe: result.timeframe,
    market_type: result.market_type,
    pair: result.pair,
    venue: result.venue,
    ...servedSource(result),
    as_of: iso(a.as_of),
    as_of_index: a.as_of_index,
    indicators: a.indicators,
    levels: {
      ...a.levels,
      as_of_time: iso(a.levels.as_of_time),
      range: {
        ...a.levels.range,
        all_time_high_time: iso(a.levels.range.all_time_high_time),
        all_time_low_time: iso(a.levels.range.all_time_low_time),
      },
      zones: a.levels.zones.map(zone),
      inside: a.levels.inside && zone(a.levels.inside),
      nearest_support: nearest(a.levels.nearest_support),
      nearest_resistance: nearest(a.levels.nearest_resistance),
    },
    volume_profile: a.volume_profile,
    zone: { ...a.zone, published_time: iso(a.zone.published_time) },
    signal: signalWire(a.signal),
    technical_rating: a.technical_rating,
    fear_greed: a.fear_greed,
    regime: {
      ...a.regime,
      since: isoOrNull(a.regime.since),
      transition: a.regime.transition && { ...a.regime.transition, time: iso(a.regime.transition.time) },
    },
    patterns: a.patterns,
    history: a.history,
    live: liveWire(result),
  };
}

/** The live mark beside an analysis of closed candles, with its distance to the published entry band. */
function liveWire(result: AnalysisResult) {
  const live = result.live;
  if (live === null) return null;
  const a = result.analysis;
  const close = a.zone.mark;
  const band = a.zone.entry_zone;
  return {
    price: live.price,
    time: iso(live.time),
    change_pct: close > 0 ? ((live.price - close) / close) * 100 : null,
    entry_distance_pct: band === null ? null : distancePct(live.price, band.low, band.high),
  };
}

/** Where an analysis's candles came from and when, as published. */
function servedSource(r: Served) {
  return { data_source: r.data_source, fetched_at: iso(r.fetched_at), stale: r.stale };
}

export interface SignalResult extends Omit<Served, 'fetched_at'> {
  fetched_at: string;
  as_of: string;
  signal: ReturnType<typeof signalWire>;
  cached_at: string;
  /** Seconds since the signal was computed. */
  age: number;
  /** Seconds it is still served from the cache. */
  max_age: number;
}

/**
 * The signal of the newest closed candle, served from one computation for at most an hour and at
 * most one candle of its timeframe ({@link cacheLimitMs}) per (venue, asset, timeframe, market,
 * pair, depth, closed candle): it always equals the signal of the analysis served at the same
 * moment, and its `max_age` ends at the close of the candle now forming ({@link signalMaxAge}).
 */
export async function signalOf(
  deps: AppDeps,
  market: MarketData,
  asset: Asset,
  r: AnalysisRequest,
): Promise<SignalResult> {
  const now = deps.now();
  r = { ...r, asset_id: asset.id };
  const result = await analysisOf(deps, market, asset, r);
  const { signals } = stateOf(deps, CACHES);
  // Keyed by the closed candle analysed: the signal is never of an older candle than the analysis.
  const key = cacheKey(market, r.asset_id, r, result.analysis.as_of);
  let entry = signals.entry(key, now);
  if (!entry || now - entry.at >= cacheLimitMs(r.timeframe)) {
    signals.set(key, result, now);
    entry = signals.entry(key, now);
  }
  if (!entry) throw new Error('signal cache refused a fresh entry');
  const { value, at } = entry;
  const age = Math.floor((now - at) / 1000);
  return {
    asset: value.asset,
    timeframe: value.timeframe,
    market_type: value.market_type,
    pair: value.pair,
    venue: value.venue,
    ...servedSource(value),
    as_of: iso(value.analysis.as_of),
    signal: signalWire(value.analysis.signal),
    cached_at: iso(at),
    age,
    max_age: signalMaxAge(r.timeframe, now, age),
  };
}

export interface OverviewResult extends Omit<Served, 'fetched_at'> {
  fetched_at: string;
  as_of: string;
  locale: OverviewLocale;
  text: string;
  /** `llm` when an OpenAI-compatible endpoint's rewrite passed the number check, else `facts`. */
  source: OverviewSource;
  facts: Fact[];
}

/**
 * The overview narrative in the requested locale (its language, else English): the facts'
 * deterministic text, or its LLM rewrite when one is configured and every number in it is a
 * fact's (cached per analysis, locale and facts).
 */
export async function overviewOf(
  deps: AppDeps,
  market: MarketData,
  asset: Asset,
  r: AnalysisRequest,
  locale: string | undefined,
): Promise<OverviewResult> {
  r = { ...r, asset_id: asset.id };
  const result = await analysisOf(deps, market, asset, r);
  // Prices as the market served quotes them: its tick (else the class's), in its quote currency.
  const served = await market
    .markets(asset.id)
    .then((all) => all.find((m) => m.pair === result.pair && m.market_type === result.market_type) ?? null)
    .catch(() => null);
  const facts = overviewFacts(result.analysis, {
    // `XXX` is ISO 4217's "no currency" (a file that does not say its quote): not said.
    quote: served === null || served.quote === 'XXX' ? null : served.quote,
    tick_size: served?.tick_size ?? defaultTickSize(asset.asset_class),
  });
  const resolved = resolveLocale(locale);
  const deterministic = renderOverview(facts, resolved);
  const now = deps.now();
  const { text, source } = await overviewText(
    deps,
    cacheKey(market, r.asset_id, r, result.analysis.as_of),
    facts,
    deterministic,
    resolved,
    now,
  );
  return {
    asset: result.asset,
    timeframe: result.timeframe,
    market_type: result.market_type,
    pair: result.pair,
    venue: result.venue,
    ...servedSource(result),
    as_of: iso(result.analysis.as_of),
    locale: resolved,
    text,
    source,
    facts,
  };
}
