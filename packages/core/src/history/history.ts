import { FEAR_GREED_HISTORY, type FearGreed, type FearGreedUnavailable } from '../feargreed/fear-greed.js';
import { REGIME_HISTORY } from '../regime/regime.js';
import { PATTERNS_HISTORY } from '../screeners/patterns.js';
import { SIGNAL_HISTORY, type Signal } from '../signal/signal.js';
import { type RatingGroup, TECHNICAL_RATING_HISTORY, type TechnicalRating } from '../signal/technical-rating.js';

/**
 * Candles the support/resistance levels need before they are published: ATR(14) out of its
 * warm-up and room for a few swings of the zigzag (about two ATR each) on both sides.
 */
export const LEVELS_HISTORY = 50;

/** The outputs of an analysis that need a history before they are published. */
export type HistoryOutput = 'technical_rating' | 'fear_greed' | 'patterns' | 'levels' | 'signal' | 'regime';

/**
 * Candles each output needs, counting the as-of candle: below it the output is null (or empty)
 * with `reason: 'insufficient_data'`, at and above it the output is computed. The technical
 * rating and the signal read SMA(200); Fear & Greed the 90-bar mean of a 14-return volatility;
 * the regime SMA(200) and its slope over 20 bars; the patterns a prior trend of 5 bars before
 * the previous candle; the levels {@link LEVELS_HISTORY}.
 */
export const ANALYSIS_HISTORY: Readonly<Record<HistoryOutput, number>> = {
  technical_rating: TECHNICAL_RATING_HISTORY,
  fear_greed: FEAR_GREED_HISTORY,
  patterns: PATTERNS_HISTORY,
  levels: LEVELS_HISTORY,
  signal: SIGNAL_HISTORY,
  regime: REGIME_HISTORY,
};

/** The history an analysis had and what each of its outputs needs: the wire object. */
export interface AnalysisHistory {
  /** Candles read: the as-of candle and those before it. */
  candles: number;
  /** Candles each output needs ({@link ANALYSIS_HISTORY}). */
  min_candles: Record<HistoryOutput, number>;
  /** The outputs withheld for too short a history (`insufficient_data`), in {@link ANALYSIS_HISTORY} order. */
  insufficient: HistoryOutput[];
}

/**
 * The history block of an analysis that read `candles` candles (the as-of candle included): the
 * requirement of every output and the outputs withheld below it.
 * @example
 * ```ts
 * import { analysisHistory } from '@marketlens/core';
 *
 * const h = analysisHistory(120);
 * console.log(h.insufficient); // [ 'technical_rating', 'signal', 'regime' ]
 * console.log(h.min_candles.technical_rating); // 200
 * ```
 */
export function analysisHistory(candles: number): AnalysisHistory {
  const insufficient: HistoryOutput[] = [];
  for (const [k, need] of Object.entries(ANALYSIS_HISTORY) as [HistoryOutput, number][]) {
    if (candles < need) insufficient.push(k);
  }
  return { candles, min_candles: { ...ANALYSIS_HISTORY }, insufficient };
}

/**
 * A technical rating as an analysis of `candles` candles publishes it: below
 * {@link TECHNICAL_RATING_HISTORY} the total, both group values and their labels are null with
 * `reason: 'insufficient_data'` (the votes cast are still listed); else unchanged.
 */
export function withholdRating(rating: TechnicalRating, candles: number): TechnicalRating {
  if (candles >= TECHNICAL_RATING_HISTORY) return rating;
  const group = (g: RatingGroup): RatingGroup => ({ ...g, value: null, rating: null });
  return {
    value: null,
    rating: null,
    moving_averages: group(rating.moving_averages),
    oscillators: group(rating.oscillators),
    reason: 'insufficient_data',
  };
}

/**
 * A Fear & Greed as an analysis of `candles` candles publishes it: below
 * {@link FEAR_GREED_HISTORY} no score or zone, no components (each listed unavailable, those
 * computed as `insufficient_data`), `reason: 'insufficient_data'`; else unchanged.
 */
export function withholdFearGreed(fg: FearGreed, candles: number): FearGreed {
  if (candles >= FEAR_GREED_HISTORY) return fg;
  const computed: FearGreedUnavailable[] = fg.components.map((c) => ({ name: c.name, reason: 'insufficient_data' }));
  return {
    score: null,
    zone: null,
    components: [],
    unavailable: [...computed, ...fg.unavailable],
    reason: 'insufficient_data',
  };
}

/**
 * A signal as an analysis of `candles` candles publishes it: below {@link SIGNAL_HISTORY} a Hold
 * with score 0, confidence 0, raw confidence 0 and `reason: 'insufficient_data'`, every factor
 * absent with the same reason (its inputs kept); else unchanged.
 */
export function withholdSignal(sig: Signal, candles: number): Signal {
  if (candles >= SIGNAL_HISTORY) return sig;
  return {
    ...sig,
    action: 'hold',
    score: 0,
    confidence: 0,
    raw_confidence: 0,
    factors: sig.factors.map((f) => ({ ...f, score: null, weight: 0, contribution: 0, reason: 'insufficient_data' })),
    reason: 'insufficient_data',
    edge: null,
    declined_plan: null,
  };
}
