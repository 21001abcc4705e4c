import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Candles } from '@marketlens/core';
import { VenueError } from '../errors.js';
import { CandleFileError } from '../files/errors.js';
import { importCandleFile } from '../files/import.js';
import {
  type CandleRequest,
  type CandleSeries,
  type FundingRate,
  isTimeframe,
  type Market,
  type MarketRequest,
  TIMEFRAME_MS,
  TIMEFRAMES,
  type Ticker,
  type Timeframe,
} from '../ports.js';
import type { AssetDefinition } from '../universe/assets.js';
import { BUILTIN_ASSETS } from '../universe/assets.js';
import { foldCandles, type RepairReport, repairCandles, sliceCandles } from './repair.js';
import type { ListedAsset, MarketSource } from './source.js';

/** The venue id of candle-file sources. */
export const FILES_VENUE = 'files';

/** Options of {@link createFilesSource}. */
export interface FilesSourceOptions {
  /** The folder: `DIR/<asset-id>/<timeframe>.csv` (or `.json`). */
  dir: string;
  /** Told when a file needed repair (rows dropped, duplicates, gaps). */
  onRepair?: (file: string, report: RepairReport) => void;
}

/** The folder of a `files:` source could not be read, or a file in it is broken. */
export class FilesSourceError extends Error {
  override readonly name = 'FilesSourceError';
}

const ASSET_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const FILE = /^(m5|m15|m30|h1|h4|d1|w1)\.(csv|json)$/;

interface Loaded {
  mtimeMs: number;
  size: number;
  candles: Candles;
}

/** The definition of an asset named only by its folder: the built-in one, else one read from the id. */
export function definitionOf(id: string): AssetDefinition {
  const builtin = BUILTIN_ASSETS.find((a) => a.id === id);
  if (builtin !== undefined) return builtin;
  const [prefix, ...rest] = id.split('-');
  const name = rest.join('-').toUpperCase();
  if (prefix === 'stock' && name.length > 0) return { id, symbol: name, name, asset_class: 'stocks' };
  if (prefix === 'index' && name.length > 0) return { id, symbol: name, name: `${name} index`, asset_class: 'stocks' };
  if (prefix === 'fx' && /^[A-Z]{6}$/.test(name)) {
    return { id, symbol: name, name, asset_class: 'fx', fx: [name.slice(0, 3), name.slice(3)] };
  }
  const symbol = id.toUpperCase();
  return { id, symbol, name: symbol, asset_class: 'coins' };
}

/**
 * A folder of candle files as a market source, for air-gapped use: every
 * `DIR/<asset-id>/<timeframe>.csv` (Yahoo, Binance kline or generic CSV) or `.json` (ccxt OHLCV)
 * is an asset's series. The folder name is the asset id. A timeframe without its own file is
 * folded from the longest shorter one present (`h1` from `m5`). Files are read when first asked
 * for and again when they change on disk; bad rows are repaired or dropped (see `repairCandles`).
 * Opening checks the whole folder, every file included, so a broken file stops the start with its
 * path and line instead of failing a request later.
 */
export async function createFilesSource(options: FilesSourceOptions): Promise<MarketSource> {
  const { dir } = options;
  const layout = new Map<string, Map<Timeframe, string>>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new FilesSourceError(
      `files:${dir}: the folder cannot be read (${(err as NodeJS.ErrnoException).code ?? err})`,
    );
  }
  for (const name of names.sort()) {
    const folder = join(dir, name);
    if (!statSync(folder).isDirectory()) continue;
    if (!ASSET_ID.test(name)) {
      throw new FilesSourceError(`${folder}: a folder name is an asset id (lowercase letters, digits, '-')`);
    }
    const files = new Map<Timeframe, string>();
    for (const file of readdirSync(folder).sort()) {
      const m = FILE.exec(file);
      if (m === null) continue;
      const tf = m[1];
      if (isTimeframe(tf)) files.set(tf, join(folder, file));
    }
    if (files.size > 0) layout.set(name, files);
  }
  if (layout.size === 0) {
    throw new FilesSourceError(`files:${dir}: no <asset-id>/<timeframe>.csv or .json files in the folder`);
  }
  const cache = new Map<string, Loaded>();

  async function load(path: string): Promise<Candles> {
    const st = statSync(path);
    const held = cache.get(path);
    if (held !== undefined && held.mtimeMs === st.mtimeMs && held.size === st.size) return held.candles;
    let candles: Candles;
    try {
      candles = (await importCandleFile(path)).candles;
    } catch (err) {
      if (err instanceof CandleFileError) throw new FilesSourceError(`${path}: ${err.message}`);
      throw new FilesSourceError(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const { candles: clean, report } = repairCandles(candles);
    if (report.invalid + report.duplicates > 0 || report.reordered) options.onRepair?.(path, report);
    cache.set(path, { mtimeMs: st.mtimeMs, size: st.size, candles: clean });
    return clean;
  }

  // Every file is read once at open: a broken one names itself now, not at the first request.
  for (const files of layout.values()) for (const path of files.values()) await load(path);

  // What a request's error says of the folder: its name, never its absolute path (an answer of the
  // API carries it to anyone). Errors at open, for the operator, keep the path.
  const shown = `files:${basename(dir)}`;
  const hidePath = (message: string) => message.replaceAll(dir, shown);

  function filesOf(asset_id: string): Map<Timeframe, string> {
    const files = layout.get(asset_id);
    if (files === undefined) throw new VenueError('unknown_asset', `${shown} has no folder ${asset_id}`);
    return files;
  }

  async function series(asset_id: string, timeframe: Timeframe): Promise<Candles> {
    const files = filesOf(asset_id);
    const own = files.get(timeframe);
    try {
      if (own !== undefined) return await load(own);
      // The longest shorter timeframe that divides this one folds into it.
      for (let i = TIMEFRAMES.indexOf(timeframe) - 1; i >= 0; i--) {
        const finer = TIMEFRAMES[i];
        const path = files.get(finer);
        if (path !== undefined && TIMEFRAME_MS[timeframe] % TIMEFRAME_MS[finer] === 0) {
          return foldCandles(await load(path), timeframe);
        }
      }
    } catch (err) {
      if (err instanceof FilesSourceError) {
        throw new VenueError('network', hidePath(err.message), { venue: FILES_VENUE });
      }
      throw err;
    }
    throw new VenueError('unknown_market', `${shown} has no ${timeframe} candles of ${asset_id}`, {
      venue: FILES_VENUE,
    });
  }

  function market(asset_id: string): Market {
    const d = definitionOf(asset_id);
    return {
      venue: FILES_VENUE,
      pair: d.symbol,
      asset_id,
      market_type: 'spot',
      base: d.fx?.[0] ?? d.symbol,
      quote: d.fx?.[1] ?? 'USD',
      settle: null,
    };
  }

  return {
    source: `files:${dir}`,
    venue: FILES_VENUE,
    async candles(request: CandleRequest): Promise<CandleSeries> {
      const all = await series(request.asset_id, request.timeframe);
      let to = all.time.length;
      if (request.end !== undefined) while (to > 0 && all.time[to - 1] >= request.end) to--;
      const m = market(request.asset_id);
      return {
        asset_id: request.asset_id,
        venue: FILES_VENUE,
        pair: m.pair,
        market_type: 'spot',
        timeframe: request.timeframe,
        candles: sliceCandles(all, Math.max(0, to - request.limit), to),
      };
    },
    async ticker(request: MarketRequest): Promise<Ticker> {
      const files = filesOf(request.asset_id);
      const finest = TIMEFRAMES.find((tf) => files.has(tf)) ?? 'd1';
      const c = await series(request.asset_id, finest);
      const n = c.time.length;
      const last = c.close[n - 1];
      const day = await series(request.asset_id, 'd1').catch(() => null);
      const m = day === null ? 0 : day.time.length;
      const previous = m >= 2 ? day?.close[m - 2] : undefined;
      return {
        venue: FILES_VENUE,
        pair: market(request.asset_id).pair,
        asset_id: request.asset_id,
        market_type: 'spot',
        last,
        bid: null,
        ask: null,
        change_1h_pct: null,
        change_24h_pct: previous === undefined ? null : ((last - previous) / previous) * 100,
        change_7d_pct: null,
        volume_24h: day === null || m === 0 ? null : day.volume[m - 1],
        quote_volume_usd: null,
        time: c.time[n - 1],
      };
    },
    async fundingRate(): Promise<FundingRate | null> {
      return null;
    },
    async markets(asset_id: string): Promise<Market[]> {
      return layout.has(asset_id) ? [market(asset_id)] : [];
    },
    async listAssets(): Promise<ListedAsset[]> {
      return [...layout.keys()].map((id) => ({ definition: definitionOf(id), quote_volume_usd: null }));
    },
  };
}
