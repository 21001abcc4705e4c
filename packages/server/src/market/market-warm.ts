import type { MarketData } from '@marketlens/exchanges';
import { analysisOf } from '../analysis/analysis.js';
import type { AppDeps } from '../platform/deps.js';
import { CHART_DEPTH, DEFAULT_TIMEFRAME } from '../platform/product-rules.js';
import { marketOf, universeOf } from './market.js';

/** Assets kept warm: the most favorited ones plus the universe's top ones by volume, this many of each. */
export const WARM_ASSETS = 20;

/**
 * One pass of the background refresher: the favorites' and the popular assets' default analysis
 * (d1 at the free depth) is computed, which refreshes their stored candles, so a request for them
 * is served from the store and the analysis cache. Failures are counted, never thrown: a source
 * that is down is the store's business (stale data), not the refresher's.
 */
export async function warmMarket(
  deps: AppDeps,
  market: MarketData = marketOf(deps),
): Promise<{ warmed: number; failed: number }> {
  const universe = universeOf(market);
  const favorites = (await deps.storage.favorites.popular(WARM_ASSETS)).map((f) => f.asset_id);
  const top = universe.assets
    .filter((a) => !a.is_stablecoin)
    .slice(0, WARM_ASSETS)
    .map((a) => a.id);
  let warmed = 0;
  let failed = 0;
  for (const id of new Set([...favorites, ...top])) {
    const asset = universe.get(id);
    if (asset === undefined || asset.is_stablecoin) continue;
    try {
      await analysisOf(deps, market, asset, { asset_id: id, timeframe: DEFAULT_TIMEFRAME, limit: CHART_DEPTH.free });
      warmed++;
    } catch {
      failed++;
    }
  }
  return { warmed, failed };
}

/** Runs {@link warmMarket} every `intervalMs` (one pass at a time) until stopped. */
export function startMarketWarmer(
  deps: AppDeps,
  intervalMs: number,
  onPass?: (r: { warmed: number; failed: number }) => void,
) {
  let running: Promise<void> | null = null;
  const pass = () => {
    running ??= warmMarket(deps)
      .then((r) => onPass?.(r))
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  pass();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
