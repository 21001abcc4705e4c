import type { TrackRecordQuery } from '@marketlens/contract';
import { InputError, parseSignalControls } from '@marketlens/core';
import type { MarketType } from '@marketlens/exchanges';
import { type AssetClassFilter, assetRef, requireAsset } from '../market/assets.js';
import { marketsOf } from '../market/exchanges.js';
import { marketFor, marketOf } from '../market/market.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { CHART_DEPTH, type Timeframe } from '../platform/product-rules.js';
import {
  type AnalysisRequest,
  type AnalysisResult,
  analysisOf,
  cachedAnalysisOf,
  checkAnalysisAccess,
  type OverviewResult,
  overviewOf,
  type SignalResult,
  signalOf,
} from './analysis.js';
import { backtestWire, latestBacktest } from './backtest/backtest.js';
import { candlesOf } from './candles.js';
import { type FearGreedQuery, fearGreedListOf, insightsOf } from './insights.js';
import { planCostOf } from './plan-costs.js';
import { liveTradesOf, liveWire } from './plans/live-record.js';
import { planRecorded, recordServedPlan } from './plans/recorder.js';
import { planSumsReader, serviceTrackRecord } from './plans/service-record.js';
import { planTrackRecord, recentPlans } from './plans/track-record.js';
import {
  checkSignalControlAccess,
  controlsUsed,
  mayUseSignalControls,
  type SignalListQuery,
  screenerOf,
  signalListOf,
} from './screener.js';

/** A markets request: the asset, and optionally the market type and venue. */
export interface MarketsRequest {
  asset_id: string;
  market_type?: MarketType;
  connection?: string;
}

/** The signal controls as the query names them (a control may be repeated). */
export type SignalControlsQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The analysis of one asset, as REST (`/v2/analysis*`) and MCP (`get_asset_analysis`,
 * `get_asset_signal`, `get_asset_overview`, `get_asset_markets`) ask for it. Every rule is here: the venue named by
 * `connection`, the asset on it, the gates by tier and client (timeframe, depth), and the plan of
 * an analysis served recorded as published (track record, pilot). With them the lists over a class
 * (signals, screener, Fear & Greed, insights) and the track records of the published plans.
 */
export function analysisUseCases(deps: AppDeps) {
  const planSums = planSumsReader(deps.storage);

  /** Resolves the venue and the asset on it, and applies the analysis gates. */
  async function gated(actor: Actor, request: AnalysisRequest) {
    const market = await marketFor(deps, request.connection);
    const asset = requireAsset(deps, request.asset_id, market);
    checkAnalysisAccess(asset, request, actor.caller, actor.client);
    return { market, asset };
  }

  return {
    /**
     * The analysis of the newest closed candles, its plan recorded as published before it is
     * returned. The request is resolved, checked and looked up in the cache before the actor's
     * admission is awaited (a rate limit's verdict on its way); computing and recording wait for it.
     */
    async get(actor: Actor, request: AnalysisRequest): Promise<AnalysisResult> {
      const { market, asset } = await gated(actor, request);
      const hit = cachedAnalysisOf(deps, market, asset, request);
      await actor.admitted?.();
      const result = hit ?? (await analysisOf(deps, market, asset, request));
      await recordServedPlan(deps, market, result);
      return result;
    },

    /**
     * What {@link get} would answer right now from its cache without waiting for anything, else
     * undefined (another venue named, a rate limit's verdict on its way, nothing cached, or a plan
     * not yet recorded). The same gates apply, in the same order; REST serves a hit synchronously.
     */
    cached(actor: Actor, request: AnalysisRequest): AnalysisResult | undefined {
      if (request.connection !== undefined || actor.admitted?.() !== undefined) return undefined;
      const market = marketOf(deps);
      const asset = requireAsset(deps, request.asset_id, market);
      checkAnalysisAccess(asset, request, actor.caller, actor.client);
      const hit = cachedAnalysisOf(deps, market, asset, request);
      return hit !== undefined && planRecorded(deps, market, hit) ? hit : undefined;
    },

    /** The Buy/Hold/Sell signal of the newest closed candle, one computation served for an hour. */
    async signal(actor: Actor, request: AnalysisRequest): Promise<SignalResult> {
      const { market, asset } = await gated(actor, request);
      return signalOf(deps, market, asset, request);
    },

    /** The candles the analysis of the same request reads, and the live one apart (the chart's data). */
    async candles(actor: Actor, request: AnalysisRequest) {
      const { market, asset } = await gated(actor, request);
      await actor.admitted?.();
      return candlesOf(deps, market, asset, request);
    },

    /** The overview narrative in `locale` (its language, else English). */
    async overview(actor: Actor, request: AnalysisRequest, locale: string | undefined): Promise<OverviewResult> {
      const { market, asset } = await gated(actor, request);
      return overviewOf(deps, market, asset, request, locale);
    },

    /** The markets of an asset with their tickers (no tier gate: listing markets is free). */
    async markets(_actor: Actor, request: MarketsRequest) {
      const market = await marketFor(deps, request.connection);
      return marketsOf(market, requireAsset(deps, request.asset_id, market), request.market_type);
    },

    /**
     * The signal list of a class filtered and sorted by the ten controls. The controls are Pro: a
     * caller without Pro naming any of them is refused (402) before a value is read, and gets the
     * top rows by confidence without them; a malformed control value is 400.
     */
    async signals(actor: Actor, request: SignalListQuery, controls: SignalControlsQuery = {}) {
      checkSignalControlAccess(controlsUsed(controls), actor.caller);
      let parsed: ReturnType<typeof parseSignalControls>;
      try {
        parsed = parseSignalControls(controls);
      } catch (err) {
        if (err instanceof InputError) throw new AppError('InvalidRequest', `Invalid query: ${err.message}`);
        throw err;
      }
      const { timeframe, asset_class, limit } = request;
      return signalListOf(deps, { timeframe, asset_class, limit }, parsed, mayUseSignalControls(actor.caller));
    },

    /** Breakouts, oversold zones and volume surges over a class on d1 (free to every caller). */
    screener: (_actor: Actor, assetClass: AssetClassFilter) => screenerOf(deps, assetClass),

    /** The coins by Fear & Greed, filtered and sorted (free to every caller). */
    fearGreed: (_actor: Actor, query: FearGreedQuery) => fearGreedListOf(deps, query),

    /** Live prices of the top coins, perpetual funding and market breadth (free to every caller). */
    insights: (_actor: Actor) => insightsOf(deps),

    /**
     * The track record of the plans published on one asset and timeframe, with the newest of them;
     * the timeframe gate of the analysis applies, at the free depth.
     */
    async trackRecord(actor: Actor, assetId: string, timeframe: Timeframe) {
      const asset = requireAsset(deps, assetId, marketOf(deps));
      checkAnalysisAccess(asset, { timeframe, limit: CHART_DEPTH.free }, actor.caller, actor.client);
      const [record, recent, live, backtest] = await Promise.all([
        planTrackRecord(
          deps.storage,
          asset.id,
          timeframe,
          planCostOf(deps.config.planCosts, asset.asset_class, marketOf(deps).venue),
        ),
        recentPlans(deps.storage, asset.id, timeframe),
        liveTradesOf(deps.storage, asset.id, timeframe),
        latestBacktest(deps),
      ]);
      return {
        asset: assetRef(asset),
        ...record,
        timeframe,
        recent,
        live: liveWire(live),
        backtest: backtestWire(backtest, { asset_id: asset.id, timeframe }),
      };
    },

    /** The service's track record over every plan it published (public); the sums are kept a minute. */
    serviceTrackRecord: (_actor: Actor, query: TrackRecordQuery) => serviceTrackRecord(deps, planSums, query),
  };
}

/** The analysis use cases of one app. */
export type AnalysisUseCases = ReturnType<typeof analysisUseCases>;
