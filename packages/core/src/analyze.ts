import { InputError } from './errors.js';
import { type FearGreed, fearGreed } from './feargreed/fear-greed.js';
import {
  type AnalysisHistory,
  analysisHistory,
  withholdFearGreed,
  withholdRating,
  withholdSignal,
} from './history/history.js';
import type { VolumeProfile } from './levels/volume-profile.js';
import { type SupportResistance, type SupportResistanceOptions, supportResistance } from './levels/zones.js';
import { buildPlan, type Direction, type PlanOptions, type TradePlan } from './plan/plan.js';
import { type Regime, type RegimeOptions, regime } from './regime/regime.js';
import { type CandlePattern, patternsAtUnchecked } from './screeners/patterns.js';
import { asOfIndex, type ContextInput, contextOf } from './signal/context.js';
import { type Signal, type SignalFactorName, signalAndPlan } from './signal/signal.js';
import { type IndicatorSnapshot, indicatorSnapshot } from './signal/snapshot.js';
import { type TechnicalRating, technicalRating } from './signal/technical-rating.js';

/**
 * Support and resistance of an analysis (the volume profile is its own block): the zones, the
 * zone holding the price (`inside`, neither support nor resistance) and the nearest zone entirely
 * below (`nearest_support`) and above (`nearest_resistance`), by `zoneContext`, the one
 * definition the screeners, the signal list and the overview share.
 */
export type AnalysisLevels = Omit<SupportResistance, 'volume_profile'> & {
  /** `insufficient_data`: fewer candles than the levels need (`history.min_candles.levels`); no zones then. */
  reason?: 'insufficient_data';
};

/** The full analysis of one series as of one candle: the wire object of `/v2/analysis`. */
export interface Analysis {
  /** Open time (ms UTC) of the as-of candle. */
  as_of: number;
  /** Index of the as-of candle in the input. */
  as_of_index: number;
  /** Latest indicator values. */
  indicators: IndicatorSnapshot;
  /** Support/resistance zones, the zone holding the price and the nearest zone on each side. */
  levels: AnalysisLevels;
  /** Volume profile of the levels' window. */
  volume_profile: VolumeProfile;
  /** The trade plan ("zone"); follows the signal (see {@link analyze}). */
  zone: TradePlan;
  signal: Signal;
  /** TradingView-style technical rating, to compare with the signal. */
  technical_rating: TechnicalRating;
  fear_greed: FearGreed;
  regime: Regime;
  /** Candlestick patterns of the as-of candle; null below their history (`history.insufficient` names it). */
  patterns: CandlePattern[] | null;
  /** The candles read and the candles each output needs; the outputs withheld below their need. */
  history: AnalysisHistory;
}

/** Options of {@link analyze}. */
export interface AnalyzeOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Market inputs of the Fear & Greed (perpetual funding, breadth, dominance change). */
  market?: { funding?: number | null; breadth?: number | null; dominanceChange?: number | null };
  /**
   * Signal factor weights and threshold, the floor of a call's expected R at the lower end of its
   * interval and the interval's coverage (see `signal`; the call is judged by the plan built with
   * `plan`'s options, its cost among them).
   */
  signal?: {
    weights?: Partial<Record<SignalFactorName, number>>;
    threshold?: number;
    minExpectedR?: number;
    intervalLevel?: number;
  };
  /** Options of the support/resistance search (ATR comes from the analysis). */
  levels?: Omit<SupportResistanceOptions, 'asOf' | 'atr'>;
  /** Options of the trade plan, except its direction (see `planDirection`). */
  plan?: Omit<PlanOptions, 'direction'>;
  /**
   * `'signal'` (default): the plan is long on Buy, short on Sell, none on Hold (reason
   * `no_direction`). `'trend'`: the plan infers its side from the trend whatever the signal.
   */
  planDirection?: 'signal' | 'trend';
  /** Options of the regime walk. */
  regime?: Omit<RegimeOptions, 'asOf'>;
}

/**
 * The analysis of a candle series as of one candle (default the last): latest indicator
 * values, support/resistance zones with the volume profile, the trade plan ("zone"), the
 * Buy/Hold/Sell signal with its factor breakdown, the TradingView-style technical rating, the
 * Fear & Greed score, the regime phase and the candlestick patterns of the candle.
 *
 * Every output knows the history it needs (`history.min_candles`, see `ANALYSIS_HISTORY`): below
 * it the output is withheld with `reason: 'insufficient_data'` (the technical rating, Fear & Greed
 * and regime null, the signal a Hold with score and confidence 0, the levels without zones, the
 * patterns null), and `history.insufficient` lists what was withheld.
 *
 * Every part reads one shared indicator context, so each indicator column is computed once.
 * Only candles `0..asOf` are read: the analysis of a prefix equals the analysis of the full
 * series as of the prefix's last candle. Deterministic, pure, synchronous. The last candle may
 * be still open; it is analysed as it stands.
 * @example
 * ```ts
 * import { analyze } from '@marketlens/core';
 *
 * // 300 daily candles of a made-up series; real ones come from @marketlens/exchanges
 * const close = Float64Array.from({ length: 300 }, (_, i) => 100 + i / 10 + 8 * Math.sin(i / 9));
 * const candles = {
 *   time: close.map((_, i) => Date.UTC(2024, 0, 1) + i * 86_400_000),
 *   open: close.map((c, i) => (i > 0 ? close[i - 1] : c)),
 *   high: close.map((c) => c * 1.01),
 *   low: close.map((c) => c * 0.99),
 *   close,
 *   volume: close.map((_, i) => 1000 + (i % 7) * 100),
 * };
 * const a = analyze(candles); // as of the last candle; { asOf: i } for any other
 * console.log(a.signal.action, a.zone.direction ?? a.zone.reason, a.levels.nearest_support?.low, a.fear_greed.zone);
 * ```
 * @throws InputError on bad candles or options.
 */
export function analyze(candles: ContextInput, options?: AnalyzeOptions): Analysis {
  const ctx = contextOf(candles);
  const i = asOfIndex(ctx, options?.asOf);
  const planDirection = options?.planDirection ?? 'signal';
  if (planDirection !== 'signal' && planDirection !== 'trend') {
    throw new InputError(
      'invalid_option',
      `planDirection must be 'signal' or 'trend', got ${String(planDirection)}`,
      'planDirection',
    );
  }
  const history = analysisHistory(i + 1);
  const short = new Set(history.insufficient);
  const fg = withholdFearGreed(fearGreed(ctx, { asOf: i, ...options?.market }), i + 1);
  const rg = regime(ctx, { ...options?.regime, asOf: i });
  const found = supportResistance(ctx.candles, { ...options?.levels, asOf: i, atr: ctx.atr(14) });
  // Too short a history for levels: none published, so no plan is drawn on them.
  const sr: SupportResistance & { reason?: 'insufficient_data' } = short.has('levels')
    ? {
        ...found,
        zones: [],
        inside: null,
        nearest_support: null,
        nearest_resistance: null,
        reason: 'insufficient_data',
      }
    : found;
  const judged = signalAndPlan(ctx, {
    ...options?.signal,
    asOf: i,
    fearGreed: fg,
    regime: rg,
    levels: sr,
    plan: options?.plan,
  });
  // Too short a history for the signal: a Hold, and the plan it was judged by is not published.
  const sig = withholdSignal(judged.signal, i + 1);
  const plan = sig === judged.signal ? judged.plan : null;
  const direction: Direction | null | undefined =
    planDirection === 'trend' ? undefined : sig.action === 'buy' ? 'long' : sig.action === 'sell' ? 'short' : null;
  // A published call's plan is the one it was judged by; a hold publishes none (see its declined_plan).
  const zone =
    plan !== null && direction !== undefined ? plan : buildPlan(ctx.candles, sr, { ...options?.plan, direction });
  const { volume_profile, ...levels } = sr;
  return {
    as_of: ctx.candles.time[i],
    as_of_index: i,
    indicators: indicatorSnapshot(ctx, { asOf: i }),
    levels,
    volume_profile,
    zone,
    signal: sig,
    technical_rating: withholdRating(technicalRating(ctx, { asOf: i }), i + 1),
    fear_greed: fg,
    regime: rg,
    patterns: short.has('patterns') ? null : patternsAtUnchecked(ctx.candles, i),
    history,
  };
}
