/**
 * Words of the analysis objects that core computes: the wire spelling of its factor, pattern and
 * phase names. Core owns the maths; these are the same lists as published (the server's contract
 * test checks that they equal core's).
 */

/** The factors of the signal, in the order they are reported. */
export const SIGNAL_FACTORS = ['trend', 'momentum', 'sentiment', 'breakout', 'risk', 'cycle_phase'] as const;
export type SignalFactor = (typeof SIGNAL_FACTORS)[number];

/** The candle patterns the analysis reports. */
/** What made a support/resistance zone (core's `ZONE_SOURCES`, in the order a zone lists them). */
export const ZONE_SOURCES = [
  'swing',
  'gap',
  'all_time_high',
  'all_time_low',
  'high_52w',
  'low_52w',
  'volume_node',
] as const;
export type ZoneSource = (typeof ZONE_SOURCES)[number];

export const CANDLE_PATTERNS = ['bullish_engulfing', 'bearish_engulfing', 'hammer', 'shooting_star', 'doji'] as const;
export type CandlePatternName = (typeof CANDLE_PATTERNS)[number];

/** The phases of the market regime. */
export const REGIME_PHASES = ['accumulation', 'markup', 'distribution', 'markdown', 'range'] as const;

/** The outputs of an analysis that need a history of candles before they are published. */
export const HISTORY_OUTPUTS = ['technical_rating', 'fear_greed', 'patterns', 'levels', 'signal', 'regime'] as const;
export type HistoryOutputName = (typeof HISTORY_OUTPUTS)[number];
export type RegimePhaseName = (typeof REGIME_PHASES)[number];

/** Sort orders of the signal list. */
export const SIGNAL_SORTS = [
  'confidence_desc',
  'confidence_asc',
  'score_desc',
  'score_asc',
  'rsi_asc',
  'rsi_desc',
  'volume_z_desc',
  'fear_greed_asc',
  'fear_greed_desc',
  'change_desc',
  'change_asc',
] as const;
export type SignalSortName = (typeof SIGNAL_SORTS)[number];
