/** An RSI alert: fires when RSI(14) of its window, at a candle close, reaches the target. */
import { ALERT_KIND_WINDOWS, TARGET_RANGES } from '@marketlens/contract';
import { rsi } from '@marketlens/core';
import { marketOf } from '../../market/market.js';
import { ALERT_DEPTH, ALERT_RSI_PERIOD, type AlertKindSpec, analysisWindowOf, lastValue } from './kind.js';

export const rsiKind: AlertKindSpec = {
  payload: { target: TARGET_RANGES.rsi, timeframes: ALERT_KIND_WINDOWS.rsi },
  // History enough for Wilder's smoothing to settle.
  window: (alert) => ({ timeframe: analysisWindowOf(alert.evaluates_as), warmup: 250 }),
  async arm(arming) {
    const reference = lastValue(rsi((await arming.closedCandles()).close, { period: ALERT_RSI_PERIOD }));
    return { reference, direction: reference === null || arming.target >= reference ? 'above' : 'below' };
  },
  evaluate({ alert, candles, first, hit }) {
    const values = rsi(candles.close, { period: ALERT_RSI_PERIOD });
    const above = alert.direction === 'above';
    for (let i = first; i < values.length; i++) {
      const v = values[i];
      if (Number.isNaN(v)) continue;
      if (above ? v >= alert.target : v <= alert.target) return hit(i, v);
    }
    return null;
  },
  async live(deps, alert) {
    const series = await marketOf(deps).candles({
      asset_id: alert.asset_id,
      timeframe: rsiKind.window(alert).timeframe,
      limit: ALERT_DEPTH,
    });
    return lastValue(rsi(series.candles.close, { period: ALERT_RSI_PERIOD }));
  },
  text: (alert, name, hit) => ({
    title: `${name} RSI ${hit.value.toFixed(1)} (${alert.evaluates_as})`,
    body: `RSI(14) on ${alert.evaluates_as} closed ${alert.direction === 'above' ? 'above' : 'below'} ${alert.target}`,
    caption: null,
  }),
};
