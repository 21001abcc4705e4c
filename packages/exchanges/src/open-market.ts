import { createCcxtSource } from './ccxt/source.js';
import type { MarketData } from './ports.js';
import { createSimulatedVenue } from './simulated/venue.js';
import type { SourceSpec } from './source-spec.js';
import { createMarketSources, type MarketSources, type MarketSourcesOptions } from './sources/composite.js';
import { createFilesSource } from './sources/files.js';
import type { MarketSource } from './sources/source.js';
import { createYahooSource } from './sources/yahoo/index.js';

/** Options of {@link openMarket}: the composite's settings, without its sources. */
export interface OpenMarketOptions extends Omit<MarketSourcesOptions, 'sources'> {
  /** Upstream call deadline of the ccxt and Yahoo clients; default 10 000 ms. */
  timeoutMs?: number;
}

/**
 * Opens one configured real source (ccxt loads lazily, files are read and checked now). `log` is
 * told what a folder of files does not serve (a file skipped, and why) and the gaps and repairs of
 * its files.
 */
export async function openSource(
  spec: Exclude<SourceSpec, { kind: 'simulated' }>,
  timeoutMs?: number,
  log?: (message: string) => void,
): Promise<MarketSource> {
  switch (spec.kind) {
    case 'ccxt':
      return createCcxtSource({
        venue: spec.venue,
        ...(spec.proxyUrl === undefined ? {} : { proxyUrl: spec.proxyUrl }),
        ...(spec.sandbox === undefined ? {} : { sandbox: spec.sandbox }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    case 'yahoo':
      return createYahooSource({
        ...(spec.baseUrl === undefined ? {} : { baseUrl: spec.baseUrl }),
        ...(spec.symbols === undefined ? {} : { symbols: spec.symbols }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    case 'files':
      return createFilesSource({
        dir: spec.dir,
        onSkip: (path, reason) => log?.(`files: ${path} is not served: ${reason}`),
        onRepair: (path, r) =>
          log?.(
            `files: ${path}: ${r.invalid} invalid and ${r.duplicates} duplicate rows dropped${r.reordered ? ', rows sorted' : ''}, ${r.gaps} candles missing where the market trades`,
          ),
      });
  }
}

/**
 * The market data a configuration names: the simulated venue for `[{kind: 'simulated'}]` (the
 * embedded default), else the composite of the real sources, in order, through the store.
 * `parseSourceList` reads the specs from a configuration's text (`'ccxt:binance,yahoo'`).
 * @example
 * ```ts
 * import { openMarket, parseSourceList } from '@marketlens/exchanges';
 *
 * // 'simulated' runs offline; 'ccxt:binance,yahoo' would read those venues over the network
 * const market = await openMarket(parseSourceList('simulated'), { now: () => Date.UTC(2025, 0, 15) });
 * const series = await market.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 200 });
 * console.log(series.pair, series.candles.close.length);
 * ```
 */
export async function openMarket(
  specs: readonly SourceSpec[],
  options: OpenMarketOptions = {},
): Promise<MarketData | MarketSources> {
  if (specs.length === 1 && specs[0].kind === 'simulated') {
    return createSimulatedVenue(options.now === undefined ? {} : { now: options.now });
  }
  const sources: MarketSource[] = [];
  for (const spec of specs) {
    if (spec.kind === 'simulated') throw new Error('`simulated` cannot be combined with real sources');
    sources.push(await openSource(spec, options.timeoutMs, options.log));
  }
  return createMarketSources({ ...options, sources });
}
