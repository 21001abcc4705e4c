import { analyze } from '@marketlens/core';
import { candleOpenTime, TIMEFRAME_MS } from '@marketlens/exchanges';
import { iso, marketOf, universeOf } from '../../market/market.js';
import type { AppDeps } from '../../platform/deps.js';
import { noticeOf } from './notices.js';

/** Push setting holding the open time of the last d1 candle checked for regime transitions. */
export const REGIME_MARK = 'regime_d1_checked';
/** d1 candles the regime is read from (the free analysis depth). */
const REGIME_DEPTH = 500;

/**
 * Regime-transition pushes, raised off `d1` analysis: once per closed d1 candle, each
 * asset some user with an active device favorites (and has not turned regime pushes off) is
 * analysed over closed candles; when that candle confirmed a transition, its audience gets a push
 * keyed by (asset, transition time), so a re-run never sends it twice. Returns outbox rows written.
 */
export async function checkRegimeTransitions(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const closeOfLast = candleOpenTime('d1', now);
  const lastClosed = closeOfLast - TIMEFRAME_MS.d1;
  const mark = await deps.storage.pushSettings.get(REGIME_MARK);
  if (mark !== null && Number(mark) >= lastClosed) return 0;
  const market = marketOf(deps);
  const universe = universeOf(market);
  let written = 0;
  for (const assetId of await deps.storage.pushDevices.regimeAssets()) {
    const asset = universe.get(assetId);
    if (!asset || asset.is_stablecoin) continue;
    let regime: ReturnType<typeof analyze>['regime'];
    try {
      const series = await market.candles({
        asset_id: assetId,
        timeframe: 'd1',
        limit: REGIME_DEPTH,
        end: closeOfLast,
      });
      if (series.candles.time.length === 0 || series.candles.time[series.candles.time.length - 1] !== lastClosed)
        continue;
      regime = analyze(series.candles).regime;
    } catch {
      // An asset the venue cannot serve (or too young to analyse) has no regime to report today.
      continue;
    }
    const t = regime.transition;
    if (!regime.changed || t === null) continue;
    const audience = await deps.storage.pushDevices.regimeAudience(assetId);
    const notice = noticeOf({
      key: `regime:${assetId}:${t.time}`,
      category: 'regime',
      title: `${asset.name} entered ${t.to}`,
      body: `${asset.name} (${asset.symbol}) moved from ${t.from} to ${t.to} on the daily chart`,
      time: iso(now),
      data: { asset_id: assetId, timeframe: 'd1', from: t.from, to: t.to, confirmed_at: iso(t.time) },
    });
    written += await deps.storage.pushOutbox.enqueue(audience, notice, now);
  }
  await deps.storage.pushSettings.set(REGIME_MARK, String(lastClosed));
  return written;
}
