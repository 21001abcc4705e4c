import { type AnalyzeOptions, analyze, type Candles, rsi } from '@marketlens/core';
import { TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { distancePct } from '../analysis/distance.js';
import type { AlertRecord } from '../storage/alerts-types.js';

export { distancePct };

/** RSI period of RSI alerts. */
export const ALERT_RSI_PERIOD = 14;

/** The change columns of percent-change alerts: the candle they are evaluated at, and how many make the column. */
export const CHANGE_COLUMN_CANDLES: Readonly<Record<string, { timeframe: Timeframe; candles: number }>> = {
  '1h': { timeframe: 'm5', candles: 12 },
  '24h': { timeframe: 'h1', candles: 24 },
  '7d': { timeframe: 'h4', candles: 42 },
};

/** The candles an alert is evaluated on, and how many closed candles before the first evaluated one it reads. */
export interface EvalWindow {
  timeframe: Timeframe;
  warmup: number;
}

/**
 * Price alerts watch every m5 candle (its high and low: a touch counts); breakout and zone alerts
 * the candles of their window; RSI alerts need history for Wilder's smoothing to settle; smart-zone
 * alerts re-read the published plan at each close; percent-change alerts compare a close with the
 * close one column earlier.
 */
export function evalWindowOf(alert: Pick<AlertRecord, 'kind' | 'evaluates_as'>): EvalWindow {
  switch (alert.kind) {
    case 'price':
      return { timeframe: 'm5', warmup: 0 };
    case 'percent_change': {
      const column = CHANGE_COLUMN_CANDLES[alert.evaluates_as ?? ''] ?? CHANGE_COLUMN_CANDLES['24h'];
      return { timeframe: column.timeframe, warmup: column.candles };
    }
    case 'rsi':
      return { timeframe: windowOf(alert), warmup: 250 };
    case 'smart_zone':
      return { timeframe: windowOf(alert), warmup: 300 };
    default:
      return { timeframe: windowOf(alert), warmup: 0 };
  }
}

function windowOf(alert: Pick<AlertRecord, 'evaluates_as'>): Timeframe {
  const w = alert.evaluates_as;
  return w === 'm15' || w === 'h1' || w === 'd1' ? w : 'h1';
}

/**
 * The candle whose close fired an alert and the value that fired it: the price level touched (price
 * and zone alerts), the close (breakout), the RSI, the % change or the % distance; and that candle's close.
 */
export interface AlertHit {
  candle_open: number;
  value: number;
  close: number;
}

/**
 * Evaluates an alert over closed candles (oldest first) of its {@link evalWindowOf} timeframe and
 * returns the first candle whose close fires it, or null. Only candles after
 * `last_evaluated_open` and closing after `armed_at` count; of the candle that was open when the
 * alert was armed only the close counts (its earlier high and low happened before). Pure.
 */
export function evaluateAlert(alert: AlertRecord, candles: Candles, options?: AnalyzeOptions): AlertHit | null {
  const { timeframe } = evalWindowOf(alert);
  const step = TIMEFRAME_MS[timeframe];
  const { time, high, low, close } = candles;
  const n = time.length;
  const after = alert.last_evaluated_open ?? Number.NEGATIVE_INFINITY;
  let first = n;
  for (let i = 0; i < n; i++) {
    if (time[i] > after && time[i] + step > alert.armed_at) {
      first = i;
      break;
    }
  }
  if (first === n) return null;
  const hiOf = (i: number) => (time[i] < alert.armed_at ? close[i] : high[i]);
  const loOf = (i: number) => (time[i] < alert.armed_at ? close[i] : low[i]);
  const above = alert.direction === 'above';
  const hit = (i: number, value: number): AlertHit => ({ candle_open: time[i], value, close: close[i] });
  // The level a touch reached: `level` when the candle traded through it, else (a gap past it, or
  // the candle open at arming, of which only the close counts) the candle's price nearest to it.
  const touched = (i: number, level: number) => (above ? Math.max(loOf(i), level) : Math.min(hiOf(i), level));

  switch (alert.kind) {
    case 'price':
      for (let i = first; i < n; i++) {
        if (above ? hiOf(i) >= alert.target : loOf(i) <= alert.target) return hit(i, touched(i, alert.target));
      }
      return null;
    case 'breakout':
      for (let i = first; i < n; i++) {
        if (above ? close[i] > alert.target : close[i] < alert.target) return hit(i, close[i]);
      }
      return null;
    case 'zone': {
      const zl = alert.zone_low ?? alert.target;
      const zh = alert.zone_high ?? alert.target;
      // Approached from below the zone's lower edge is the level touched, from above its upper edge.
      for (let i = first; i < n; i++) {
        if (loOf(i) <= zh && hiOf(i) >= zl) return hit(i, touched(i, above ? zl : zh));
      }
      return null;
    }
    case 'rsi': {
      const values = rsi(close, { period: ALERT_RSI_PERIOD });
      for (let i = first; i < n; i++) {
        const v = values[i];
        if (Number.isNaN(v)) continue;
        if (above ? v >= alert.target : v <= alert.target) return hit(i, v);
      }
      return null;
    }
    case 'percent_change': {
      const back = evalWindowOf(alert).warmup;
      for (let i = Math.max(first, back); i < n; i++) {
        const pct = (close[i] / close[i - back] - 1) * 100;
        if (alert.target > 0 ? pct >= alert.target : pct <= alert.target) return hit(i, pct);
      }
      return null;
    }
    case 'smart_zone':
      for (let i = first; i < n; i++) {
        const band = entryZoneAt(candles, i, options);
        if (band === null) continue;
        const d = distancePct(close[i], band.low, band.high);
        if (d <= alert.target) return hit(i, d);
      }
      return null;
  }
}

/**
 * The entry zone of the plan published as of candle `i` (with the analysis `options` of the asset,
 * see `analyzeOptionsOf`), or null (no trade, or too little history).
 */
export function entryZoneAt(
  candles: Candles,
  i: number,
  options?: AnalyzeOptions,
): { low: number; high: number } | null {
  try {
    return analyze(candles, { ...options, asOf: i }).zone.entry_zone;
  } catch {
    return null;
  }
}
