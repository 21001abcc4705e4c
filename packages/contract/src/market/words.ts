/**
 * Words of the analysis objects that core computes: the wire spelling of its factor, pattern and
 * phase names. The five lists core also uses (signal factors, candle patterns, regime phases, Fear &
 * Greed zones, signal sorts) are written once in `../words.ts` (the zod-free subpath
 * `@marketlens/contract/words` core imports) and re-exported here.
 */
export {
  CANDLE_PATTERNS,
  type CandlePatternName,
  FEAR_GREED_ZONES,
  type FearGreedZoneName,
  REGIME_PHASES,
  type RegimePhaseName,
  SIGNAL_FACTORS,
  SIGNAL_SORTS,
  type SignalFactor,
  type SignalSortName,
} from '../words.js';

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

/** The outputs of an analysis that need a history of candles before they are published. */
export const HISTORY_OUTPUTS = ['technical_rating', 'fear_greed', 'patterns', 'levels', 'signal', 'regime'] as const;
export type HistoryOutputName = (typeof HISTORY_OUTPUTS)[number];
