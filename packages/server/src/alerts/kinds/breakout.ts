/** A breakout alert: fires when a candle of its window closes beyond the target. */
import { ALERT_KIND_WINDOWS, TARGET_RANGES } from '@marketlens/contract';
import { formatPrice } from '../push/notices.js';
import { type AlertKindSpec, analysisWindowOf } from './kind.js';
import { armAtPrice, livePrice } from './price-level.js';

export const breakoutKind: AlertKindSpec = {
  payload: { target: TARGET_RANGES.breakout, timeframes: ALERT_KIND_WINDOWS.breakout },
  window: (alert) => ({ timeframe: analysisWindowOf(alert.evaluates_as), warmup: 0 }),
  arm: armAtPrice,
  evaluate({ alert, candles, first, hit }) {
    const { close } = candles;
    const above = alert.direction === 'above';
    for (let i = first; i < close.length; i++) {
      if (above ? close[i] > alert.target : close[i] < alert.target) return hit(i, close[i]);
    }
    return null;
  },
  live: livePrice,
  text: (alert, name, hit) => ({
    title: `${name} broke ${alert.direction === 'above' ? 'above' : 'below'} ${formatPrice(alert.target)}`,
    body: `A ${alert.evaluates_as} candle closed at ${formatPrice(hit.value)}`,
    caption: null,
  }),
};
