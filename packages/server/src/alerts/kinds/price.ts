/** A price alert: fires when an m5 candle touches the target (its high or low reaches it). */
import { ALERT_KIND_WINDOWS, TARGET_RANGES } from '@marketlens/contract';
import { formatPrice } from '../push/notices.js';
import type { AlertKindSpec } from './kind.js';
import { armAtPrice, livePrice } from './price-level.js';

export const priceKind: AlertKindSpec = {
  payload: { target: TARGET_RANGES.price, timeframes: ALERT_KIND_WINDOWS.price },
  // Every m5 candle, its high and low: a touch counts.
  window: () => ({ timeframe: 'm5', warmup: 0 }),
  arm: armAtPrice,
  evaluate({ alert, candles, first, high, low, hit, touched }) {
    const above = alert.direction === 'above';
    for (let i = first; i < candles.time.length; i++) {
      if (above ? high(i) >= alert.target : low(i) <= alert.target) return hit(i, touched(i, alert.target));
    }
    return null;
  },
  live: livePrice,
  text: (alert, name, hit) => ({
    title: `${name} ${alert.direction === 'above' ? 'above' : 'below'} ${formatPrice(alert.target)}`,
    body: `${name} reached ${formatPrice(alert.target)} (last close ${formatPrice(hit.close)})`,
    caption: null,
  }),
};
