import type { AnalyzeOptions, Candles } from '@marketlens/core';
import { TIMEFRAME_MS } from '@marketlens/exchanges';
import { distancePct } from '../analysis/distance.js';
import type { AlertRecord } from '../storage/alerts-types.js';
import { type AlertHit, type EvalWindow, entryZoneAt, type Scan } from './kinds/kind.js';
import { alertKindOf } from './kinds/registry.js';

export { type AlertHit, distancePct, type EvalWindow, entryZoneAt };

/**
 * The candles an alert is evaluated on (its kind's: price alerts watch every m5 candle, breakout
 * and zone alerts the candles of their window, RSI and smart-zone alerts with the history their
 * value needs, percent-change alerts the candles of their column).
 */
export function evalWindowOf(alert: Pick<AlertRecord, 'kind' | 'evaluates_as'>): EvalWindow {
  return alertKindOf(alert.kind).window(alert);
}

/**
 * Evaluates an alert over closed candles (oldest first) of its {@link evalWindowOf} timeframe and
 * returns the first candle whose close fires it, or null. Only candles after
 * `last_evaluated_open` and closing after `armed_at` count; of the candle that was open when the
 * alert was armed only the close counts (its earlier high and low happened before). What fires it
 * is its kind's rule. Pure.
 */
export function evaluateAlert(alert: AlertRecord, candles: Candles, options?: AnalyzeOptions): AlertHit | null {
  const kind = alertKindOf(alert.kind);
  const step = TIMEFRAME_MS[kind.window(alert).timeframe];
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
  const scan: Scan = {
    alert,
    candles,
    options,
    first,
    high: hiOf,
    low: loOf,
    hit: (i, value) => ({ candle_open: time[i], value, close: close[i] }),
    touched: (i, level) => (above ? Math.max(loOf(i), level) : Math.min(hiOf(i), level)),
  };
  return kind.evaluate(scan);
}
