/**
 * The word lists core computes and the contract publishes, written once: the signal factors, the
 * candle patterns, the regime phases, the Fear & Greed zones and the signal list's sort orders.
 * Plain `as const` arrays and their types, no zod: this module is the subpath export
 * `@marketlens/contract/words`, which core imports (core stays free of zod at run time), and the
 * contract's schemas wrap these same arrays in `z.enum(...)`.
 */

/** The factors of the signal, in the order they are reported. */
export const SIGNAL_FACTORS = ['trend', 'momentum', 'sentiment', 'breakout', 'risk', 'cycle_phase'] as const;
/** A factor of the signal. */
export type SignalFactor = (typeof SIGNAL_FACTORS)[number];

/** The candle patterns the analysis reports, in the order it reports them. */
export const CANDLE_PATTERNS = ['bullish_engulfing', 'bearish_engulfing', 'hammer', 'shooting_star', 'doji'] as const;
/** A candle pattern. */
export type CandlePatternName = (typeof CANDLE_PATTERNS)[number];

/** The phases of the market regime (core indexes its phase codes into this order). */
export const REGIME_PHASES = ['accumulation', 'markup', 'distribution', 'markdown', 'range'] as const;
/** A phase of the market regime. */
export type RegimePhaseName = (typeof REGIME_PHASES)[number];

/** Fear & Greed zones, from most fearful to most greedy. */
export const FEAR_GREED_ZONES = ['extreme_fear', 'fear', 'neutral', 'greed', 'extreme_greed'] as const;
/** A Fear & Greed zone. */
export type FearGreedZoneName = (typeof FEAR_GREED_ZONES)[number];

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
/** A sort order of the signal list. */
export type SignalSortName = (typeof SIGNAL_SORTS)[number];
