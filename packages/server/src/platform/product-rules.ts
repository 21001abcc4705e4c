/**
 * Product constants the config document publishes and the analysis, signal and alert routes
 * enforce. One table each, so `/v2/config` and the enforcement never disagree.
 */

import {
  ALERT_KIND_WINDOWS,
  type AlertTimeframe,
  CHART_DEPTH,
  DEFAULT_TIMEFRAME,
  type NotificationKind,
  SIGNAL_TIMEFRAMES,
  TIMEFRAMES,
  type Timeframe,
} from '@marketlens/contract';

export { CHART_DEPTH, DEFAULT_TIMEFRAME, SIGNAL_TIMEFRAMES, TIMEFRAMES, type Timeframe };

/** Timeframes every caller may read; the rest need Pro (h1 aside for old mobile builds). */
export const FREE_TIMEFRAMES: readonly Timeframe[] = ['d1'];

export type { AlertTimeframe };

export interface AlertKind {
  kind: NotificationKind;
  /** Accepted request timeframes with the window each is evaluated over; [] reads none. */
  timeframes: readonly AlertTimeframe[];
}

/** The contract's table of alert kinds and their windows, as `/v2/config` lists it. */
export const ALERT_KINDS: readonly AlertKind[] = Object.entries(ALERT_KIND_WINDOWS).map(([kind, timeframes]) => ({
  kind: kind as NotificationKind,
  timeframes,
}));
