import type { Asset, MarketData } from '@marketlens/exchanges';
import { MAX_CANDLES, SIMULATED_VENUE_ID, splitClosed } from '@marketlens/exchanges';
import { assetRef } from '../market/assets.js';
import { iso } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { venueCall } from '../platform/errors/venue-error.js';
import type { AnalysisRequest } from './analysis.js';

/** One candle as published: its open time as an ISO date-time. */
export interface CandleBar {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * The candles an analysis of the same request reads: the newest `limit` closed ones, and the one
 * still forming apart (`live`), so a chart draws exactly what was analysed and the live candle
 * beside it. Read from the venue like the analysis (its candle cache answers a repeated read).
 */
export async function candlesOf(deps: AppDeps, market: MarketData, asset: Asset, r: AnalysisRequest) {
  if (asset.is_stablecoin) {
    // The same refusal as the analysis: a chart of a stablecoin would have no analysis to draw.
    throw new AppError('StablecoinNotAnalyzed', `${asset.id} is a stablecoin; it is not analysed`);
  }
  const now = deps.now();
  const series = await venueCall(() =>
    market.candles({
      asset_id: asset.id,
      timeframe: r.timeframe,
      limit: Math.min(r.limit + 1, MAX_CANDLES),
      ...(r.market_type ? { market_type: r.market_type } : {}),
      ...(r.pair ? { pair: r.pair } : {}),
    }),
  );
  const all = series.candles;
  const { closed, live } = splitClosed(all, r.timeframe, now, r.limit);
  const bar = (c: typeof all, i: number): CandleBar => ({
    time: iso(c.time[i]),
    open: c.open[i],
    high: c.high[i],
    low: c.low[i],
    close: c.close[i],
    volume: c.volume[i],
  });
  const n = closed.time.length;
  const last = all.time.length - 1;
  return {
    asset: assetRef(asset),
    timeframe: r.timeframe,
    market_type: series.market_type,
    pair: series.pair,
    venue: series.venue,
    data_source: series.source ?? (market.venue === SIMULATED_VENUE_ID ? 'simulated' : `ccxt:${series.venue}`),
    fetched_at: iso(series.fetched_at ?? now),
    stale: series.stale ?? false,
    as_of: iso(n > 0 ? closed.time[n - 1] : now),
    candles: Array.from({ length: n }, (_, i) => bar(closed, i)),
    live: live === null ? null : bar(all, last),
  };
}
