import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Candles } from '@marketlens/core';
import { calendarOf, countGaps, describeSpacing, measuredSpacing, seenUntil } from '../calendar.js';
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
import { foldCandles, type RepairReport, repairCandles, repaired, sliceCandles } from './repair.js';
import type { ListedAsset, MarketSource } from './source.js';

/** The venue id of candle-file sources. */
export const FILES_VENUE = 'files';

/** Options of {@link createFilesSource}. */
export interface FilesSourceOptions {
  /** The folder: `DIR/<asset-id>/<timeframe>.csv` (or `.json`). */
  dir: string;
  /** Told when a file needed repair (rows dropped, duplicates) or has gaps the market's calendar does not explain. */
  onRepair?: (file: string, report: RepairReport) => void;
  /** Told about each file or folder the source does not serve, with the reason (a wrong spacing, an unknown name). */
  onSkip?: (path: string, reason: string) => void;
}

/** The folder of a `files:` source could not be read, or a file in it is broken. */
export class FilesSourceError extends Error {
  override readonly name = 'FilesSourceError';
}

/** A file whose measured spacing is not the one its name says. */
class SpacingError extends FilesSourceError {}

/** The spacings a file may hold: every timeframe, and 1-minute candles, which are only folded. */
type FileSpacing = Timeframe | 'm1';

const ASSET_FOLDER = /^([a-z0-9][a-z0-9-]{0,63})(?:@([a-z0-9]{2,12}))?$/;
const FILE = /^(m1|m5|m15|m30|h1|h4|d1|w1)\.(csv|json)$/;
/** The optional description of an asset folder's market: `{"quote": "BTC", "tick_size": 0.00000001}`. */
const MANIFEST = 'market.json';

function stepOf(spacing: FileSpacing): number {
  return spacing === 'm1' ? 60_000 : TIMEFRAME_MS[spacing];
}

interface Loaded {
  mtimeMs: number;
  size: number;
  candles: Candles;
  /** Up to when the file has seen the market (see `seenUntil`). */
  seenUntil: number | null;
}

/** An asset folder: its candle files by spacing, and what it declares of its market. */
interface AssetFolder {
  files: Map<FileSpacing, string>;
  quote: string | null;
  tickSize: number | null;
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

/** Reads an asset folder's `market.json`; a broken one stops the start, naming itself. */
function readManifest(path: string): { quote: string | null; tickSize: number | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new FilesSourceError(`${path}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new FilesSourceError(`${path}: an object is expected, such as {"quote": "BTC", "tick_size": 0.00000001}`);
  }
  const { quote, tick_size } = raw as Record<string, unknown>;
  if (quote !== undefined && (typeof quote !== 'string' || !/^[A-Za-z0-9]{2,12}$/.test(quote))) {
    throw new FilesSourceError(`${path}: "quote" is a currency code such as "USD" or "BTC"`);
  }
  if (tick_size !== undefined && !(typeof tick_size === 'number' && tick_size > 0 && Number.isFinite(tick_size))) {
    throw new FilesSourceError(`${path}: "tick_size" is a positive number such as 0.01`);
  }
  return {
    quote: typeof quote === 'string' ? quote.toUpperCase() : null,
    tickSize: typeof tick_size === 'number' ? tick_size : null,
  };
}

/**
 * A folder of candle files as a market source, for air-gapped use: every
 * `DIR/<asset-id>/<timeframe>.csv` (Yahoo, Binance kline or generic CSV) or `.json` (ccxt OHLCV)
 * is an asset's series, the timeframe one of `m1 m5 m15 m30 h1 h4 d1 w1`. The folder name is the
 * asset id, optionally with its quote currency (`ethereum@btc`); a `market.json` in the folder may
 * declare `quote` and `tick_size`. Without a declared quote, an fx pair's is its second currency
 * and anything else's is `XXX` (no currency), never a guessed USD. A timeframe without its own file
 * is folded from the longest shorter one present (`h1` from `m5`, every timeframe from `m1`).
 *
 * Each file's spacing is measured (the most common distance between its candles) and must be the
 * one its name says: a 1-minute file named `m5.csv` is skipped, and `onSkip` is told why, with the
 * spacing measured; so is a file or folder whose name the source does not read. Gaps are counted
 * against the asset's calendar (a stock's weekend or night is no gap). The series served carry
 * `seen_until`, the time up to which the file has seen the market, so a candle folded from a file
 * that stops inside its span is the live one (`splitSeries`), never a closed one.
 *
 * Files are read when first asked for and again when they change on disk; bad rows are repaired
 * or dropped (see `repairCandles`). Opening checks the whole folder, every file included, so a
 * broken file stops the start with its path and line instead of failing a request later.
 */
export async function createFilesSource(options: FilesSourceOptions): Promise<MarketSource> {
  const { dir } = options;
  const skip = (path: string, reason: string): void => options.onSkip?.(path, reason);
  const layout = new Map<string, AssetFolder>();
  const skipped: string[] = [];
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
    const id = ASSET_FOLDER.exec(name);
    if (id === null) {
      throw new FilesSourceError(
        `${folder}: a folder name is an asset id (lowercase letters, digits, '-'), optionally with its quote currency (ethereum@btc)`,
      );
    }
    const assetId = id[1];
    if (layout.has(assetId)) {
      skip(folder, `a second folder of asset ${assetId}: only the first (in name order) is served`);
      skipped.push(folder);
      continue;
    }
    const files = new Map<FileSpacing, string>();
    let manifest: { quote: string | null; tickSize: number | null } = { quote: null, tickSize: null };
    for (const file of readdirSync(folder).sort()) {
      const path = join(folder, file);
      if (file === MANIFEST) {
        manifest = readManifest(path);
        continue;
      }
      const m = FILE.exec(file);
      const spacing = m?.[1];
      if (spacing === 'm1' || isTimeframe(spacing)) files.set(spacing, path);
      else if (!file.startsWith('.')) {
        skip(
          path,
          'not a candle file: files are named <timeframe>.csv or .json, the timeframe one of m1 m5 m15 m30 h1 h4 d1 w1',
        );
      }
    }
    const quote = id[2]?.toUpperCase() ?? manifest.quote;
    if (files.size > 0) layout.set(assetId, { files, quote, tickSize: manifest.tickSize });
  }
  if (layout.size === 0) {
    throw new FilesSourceError(`files:${dir}: no <asset-id>/<timeframe>.csv or .json files in the folder`);
  }
  const cache = new Map<string, Loaded>();

  async function load(asset_id: string, spacing: FileSpacing, path: string): Promise<Loaded> {
    const st = statSync(path);
    const held = cache.get(path);
    if (held !== undefined && held.mtimeMs === st.mtimeMs && held.size === st.size) return held;
    let candles: Candles;
    try {
      candles = (await importCandleFile(path)).candles;
    } catch (err) {
      if (err instanceof CandleFileError) throw new FilesSourceError(`${path}: ${err.message}`);
      throw new FilesSourceError(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const { candles: clean, report } = repairCandles(candles);
    const step = stepOf(spacing);
    const measured = measuredSpacing(clean.time);
    if (measured !== null && measured !== step) {
      throw new SpacingError(
        `its candles are ${describeSpacing(measured)} apart (measured), not ${describeSpacing(step)} as the name ${spacing} says`,
      );
    }
    const calendar = calendarOf(definitionOf(asset_id).asset_class);
    report.gaps = countGaps(clean.time, step, calendar);
    if (repaired(report) || report.gaps > 0) options.onRepair?.(path, report);
    const loaded = {
      mtimeMs: st.mtimeMs,
      size: st.size,
      candles: clean,
      seenUntil: seenUntil(clean.time, step, calendar),
    };
    cache.set(path, loaded);
    return loaded;
  }

  // Every file is read once at open: a broken one names itself now, not at the first request; one
  // whose spacing is not its name's is skipped, and said so.
  for (const [assetId, folder] of layout) {
    for (const [spacing, path] of folder.files) {
      try {
        await load(assetId, spacing, path);
      } catch (err) {
        if (!(err instanceof SpacingError)) throw err;
        skip(path, err.message);
        skipped.push(`${path}: ${err.message}`);
        folder.files.delete(spacing);
      }
    }
    if (folder.files.size === 0) layout.delete(assetId);
  }
  if (layout.size === 0) {
    throw new FilesSourceError(`files:${dir}: no candle file can be served (${skipped.join('; ')})`);
  }

  // What a request's error says of the folder: its name, never its absolute path (an answer of the
  // API carries it to anyone). Errors at open, for the operator, keep the path.
  const shown = `files:${basename(dir)}`;
  const hidePath = (message: string) => message.replaceAll(dir, shown);

  function folderOf(asset_id: string): AssetFolder {
    const folder = layout.get(asset_id);
    if (folder === undefined) throw new VenueError('unknown_asset', `${shown} has no folder ${asset_id}`);
    return folder;
  }

  /** The candles of a timeframe (its own file, else folded from a shorter one) and up to when they have seen the market. */
  async function series(
    asset_id: string,
    timeframe: Timeframe,
  ): Promise<{ candles: Candles; seenUntil: number | null }> {
    const { files } = folderOf(asset_id);
    const own = files.get(timeframe);
    try {
      if (own !== undefined) return await load(asset_id, timeframe, own);
      // The longest shorter spacing that divides this timeframe folds into it.
      const shorter: FileSpacing[] = ['m1', ...TIMEFRAMES.slice(0, TIMEFRAMES.indexOf(timeframe))];
      for (let i = shorter.length - 1; i >= 0; i--) {
        const finer = shorter[i];
        const path = files.get(finer);
        if (path !== undefined && TIMEFRAME_MS[timeframe] % stepOf(finer) === 0) {
          const loaded = await load(asset_id, finer, path);
          return { candles: foldCandles(loaded.candles, timeframe), seenUntil: loaded.seenUntil };
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
    const folder = folderOf(asset_id);
    return {
      venue: FILES_VENUE,
      pair: d.symbol,
      asset_id,
      market_type: 'spot',
      base: d.fx?.[0] ?? d.symbol,
      // ISO 4217's code for "no currency": a file that does not say its quote is never labelled USD.
      quote: folder.quote ?? d.fx?.[1] ?? 'XXX',
      settle: null,
      ...(folder.tickSize === null ? {} : { tick_size: folder.tickSize }),
    };
  }

  return {
    source: `files:${dir}`,
    venue: FILES_VENUE,
    local: true,
    async candles(request: CandleRequest): Promise<CandleSeries> {
      const { candles: all, seenUntil: seen } = await series(request.asset_id, request.timeframe);
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
        ...(seen === null ? {} : { seen_until: seen }),
      };
    },
    async ticker(request: MarketRequest): Promise<Ticker> {
      const { files } = folderOf(request.asset_id);
      const finest = TIMEFRAMES.find((tf) => files.has(tf)) ?? (files.has('m1') ? 'm5' : 'd1');
      const c = (await series(request.asset_id, finest)).candles;
      const n = c.time.length;
      const last = c.close[n - 1];
      const day = await series(request.asset_id, 'd1').catch(() => null);
      const m = day === null ? 0 : day.candles.time.length;
      const previous = m >= 2 ? day?.candles.close[m - 2] : undefined;
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
        volume_24h: day === null || m === 0 ? null : day.candles.volume[m - 1],
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
