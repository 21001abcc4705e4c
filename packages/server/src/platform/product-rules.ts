/**
 * Product constants the config document publishes and the analysis, signal and alert routes
 * enforce. One table each, so `/v2/config` and the enforcement never disagree.
 */

import { CHART_DEPTH, DEFAULT_TIMEFRAME, SIGNAL_TIMEFRAMES, TIMEFRAMES, type Timeframe } from '@marketlens/contract';

export { CHART_DEPTH, DEFAULT_TIMEFRAME, SIGNAL_TIMEFRAMES, TIMEFRAMES, type Timeframe };

/** Timeframes every caller may read; the rest need Pro (h1 aside for old mobile builds). */
export const FREE_TIMEFRAMES: readonly Timeframe[] = ['d1'];

/** The windows window-reading alerts are evaluated over. */
export const ALERT_WINDOWS = ['m15', 'h1', 'd1'] as const;
/** The change columns percent-change alerts compare against. */
export const CHANGE_COLUMNS = ['1h', '24h', '7d'] as const;

export interface AlertTimeframe {
  value: string;
  evaluates_as: string;
}

export interface AlertKind {
  kind: string;
  /** Accepted request timeframes with the window each is evaluated over; [] reads none. */
  timeframes: AlertTimeframe[];
}

const fold = (pairs: readonly (readonly [string, string])[]): AlertTimeframe[] =>
  pairs.map(([value, evaluates_as]) => ({ value, evaluates_as }));

/** Every timeframe folds down to the longest evaluation window not longer than it (m5 up to m15). */
const WINDOW_FOLD = fold([
  ['m5', 'm15'],
  ['m15', 'm15'],
  ['m30', 'm15'],
  ['h1', 'h1'],
  ['h4', 'h1'],
  ['d1', 'd1'],
  ['w1', 'd1'],
]);

/** Nine timeframes onto the three change columns: up to 1h, up to 1 day, beyond. */
const CHANGE_FOLD = fold([
  ['m5', '1h'],
  ['m15', '1h'],
  ['m30', '1h'],
  ['h1', '1h'],
  ['h4', '24h'],
  ['h12', '24h'],
  ['d1', '24h'],
  ['d3', '7d'],
  ['w1', '7d'],
]);

const ANALYSIS_WINDOWS = fold([
  ['m15', 'm15'],
  ['h1', 'h1'],
  ['d1', 'd1'],
]);

export const ALERT_KINDS: readonly AlertKind[] = [
  { kind: 'price', timeframes: [] },
  { kind: 'zone', timeframes: ANALYSIS_WINDOWS },
  { kind: 'breakout', timeframes: ANALYSIS_WINDOWS },
  { kind: 'rsi', timeframes: WINDOW_FOLD },
  { kind: 'smart_zone', timeframes: WINDOW_FOLD },
  { kind: 'percent_change', timeframes: CHANGE_FOLD },
];
