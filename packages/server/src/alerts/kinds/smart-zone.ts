/**
 * A smart-zone alert: fires when a close of its window is within the target's percent distance of
 * the entry zone of the plan published as of that candle.
 */
import { ALERT_KIND_WINDOWS, TARGET_RANGES } from '@marketlens/contract';
import { analysisOf } from '../../analysis/analysis.js';
import { distancePct } from '../../analysis/distance.js';
import { requireAsset } from '../../market/assets.js';
import { marketOf } from '../../market/market.js';
import { ALERT_DEPTH, type AlertKindSpec, analysisWindowOf, entryZoneAt } from './kind.js';

export const smartZoneKind: AlertKindSpec = {
  payload: { target: TARGET_RANGES.smart_zone, timeframes: ALERT_KIND_WINDOWS.smart_zone },
  // The published plan is re-read at each close: history enough for the analysis.
  window: (alert) => ({ timeframe: analysisWindowOf(alert.evaluates_as), warmup: 300 }),
  async arm(arming) {
    // Armed with the price's distance from the entry zone published now; null while none is.
    const price = (await arming.ticker()).last;
    const band = arming.analyze(await arming.closedCandles())?.zone.entry_zone ?? null;
    return { reference: band === null ? null : distancePct(price, band.low, band.high), direction: 'below' };
  },
  evaluate({ alert, candles, options, first, hit }) {
    const { close } = candles;
    for (let i = first; i < close.length; i++) {
      const band = entryZoneAt(candles, i, options);
      if (band === null) continue;
      const d = distancePct(close[i], band.low, band.high);
      if (d <= alert.target) return hit(i, d);
    }
    return null;
  },
  async live(deps, alert, ticker) {
    const market = marketOf(deps);
    const asset = requireAsset(deps, alert.asset_id);
    const result = await analysisOf(deps, market, asset, {
      asset_id: asset.id,
      timeframe: analysisWindowOf(alert.evaluates_as),
      limit: ALERT_DEPTH,
    });
    const band = result.analysis.zone.entry_zone;
    return band === null ? null : distancePct(ticker.last, band.low, band.high);
  },
  text: (alert, name, hit) => ({
    title: `${name} near its smart zone (${alert.evaluates_as})`,
    body: `${name} closed ${hit.value.toFixed(2)}% from the published entry zone`,
    caption: null,
  }),
};
