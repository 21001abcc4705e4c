import type { MarketData } from '@marketlens/exchanges';
import { marketOf, universeOf } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { InProcessJobs } from '../platform/jobs/in-process.js';
import type { JobRunner } from '../platform/jobs/runner.js';
import { CHART_DEPTH, DEFAULT_TIMEFRAME } from '../platform/product-rules.js';
import { analysisOf } from './analysis.js';

/** Assets kept warm: the most favorited ones plus the universe's top ones by volume, this many of each. */
export const WARM_ASSETS = 20;
/** The repeatable job of a refresher pass (one at a time across all instances on a shared runner). */
export const MARKET_WARM_JOB = 'market-warm';

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

/**
 * Runs {@link warmMarket} every `intervalMs` (the first pass at once, one pass at a time) until
 * stopped: on `jobs` when given (its owner closes it), else on timers in this process. A pass only
 * reads sources and refreshes caches, so running it again is harmless.
 */
export function startMarketWarmer(
  deps: AppDeps,
  intervalMs: number,
  onPass?: (r: { warmed: number; failed: number }) => void,
  jobs?: JobRunner,
) {
  let running: Promise<void> | null = null;
  let stopped = false;
  const pass = (): Promise<void> => {
    running ??= warmMarket(deps)
      .then((r) => onPass?.(r))
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
    return running;
  };
  const own = jobs === undefined ? new InProcessJobs() : null;
  void (jobs ?? own)
    ?.every(
      MARKET_WARM_JOB,
      intervalMs,
      async () => {
        if (!stopped) await pass();
      },
      { immediately: true },
    )
    .catch((err: unknown) =>
      console.error('[marketlens] market refresher not scheduled:', err instanceof Error ? err.message : err),
    );
  return {
    async stop() {
      stopped = true;
      await own?.close();
      await running;
    },
  };
}
