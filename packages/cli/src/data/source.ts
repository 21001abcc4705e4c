import { type AssetClass, type Candles, defaultTickSize } from '@marketlens/core';
import {
  createMarketSources,
  createSimulatedVenue,
  defaultUniverse,
  FilesSourceError,
  importCandleFile,
  isCcxtVenue,
  isTimeframe,
  MAX_CANDLES,
  type MarketData,
  type MarketType,
  SIMULATED_VENUE_ID,
  openSource,
  parseSourceName,
  type SimulatedVenue,
  type SourceSpec,
  splitSeries,
  TIMEFRAMES,
  type Timeframe,
  type Universe,
} from '@marketlens/exchanges';
import { progress } from '../output/progress.js';
import type { OptionSpec, Parsed } from '../args.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';

/** Options every data command takes. */
export const DATA_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  tf: { type: 'string', value: '<tf>', description: 'timeframe, default d1', choices: TIMEFRAMES },
  market: {
    type: 'string',
    value: '<type>',
    description: 'market type, default spot (an asset without it is served from the one it trades on)',
    choices: ['spot', 'derivatives'],
  },
  source: {
    type: 'string',
    value: '<source>',
    description: 'where candles come from: simulated (default, offline), ccxt:<venue>, yahoo, files:<dir> (network for ccxt and yahoo)',
  },
  venue: {
    type: 'string',
    value: '<id>',
    description: 'a ccxt venue, e.g. binance: the same as --source ccxt:<id>',
  },
  file: { type: 'string', value: '<path>', description: 'read candles from a CSV or ccxt JSON file instead' },
  limit: { type: 'string', value: '<n>', description: `candles to read, 50..${MAX_CANDLES}, default 1000` },
};

/** Where candles came from: part of every `--json` output. */
export interface SourceInfo {
  /** `marketlens-sim`, a ccxt venue id, or `file`. */
  venue: string;
  asset_id: string | null;
  pair: string | null;
  market_type: MarketType | null;
  /** Null for a file (its spacing is whatever the file has). */
  timeframe: Timeframe | null;
  file: string | null;
  candles: number;
  first_time: number;
  last_time: number;
}

export interface Loaded {
  /** A file's candles as they are; a venue's closed candles only (analysis is on bar close). */
  candles: Candles;
  source: SourceInfo;
  /** The asset's class when read from a venue (it sets the plan's costs), null for a file. */
  asset_class: AssetClass | null;
  /** The currency prices are quoted in (the venue's market: `USDT`, `BTC`), null when unknown (a file). */
  quote: string | null;
  /** The market's tick size (the venue's, else 0.01 for stocks), null when unknown: prices by magnitude. */
  tick_size: number | null;
}

/**
 * A venue's newest `limit` closed candles: one more is read and the candle still forming at the
 * venue's clock is left out, as the server does, so a plan stays the same for the life of a candle.
 */
export async function closedSeries(
  data: MarketData,
  request: { asset_id: string; timeframe: Timeframe; limit: number; market_type?: MarketType | undefined },
  now: number,
) {
  const series = await data.candles({ ...request, limit: Math.min(request.limit + 1, MAX_CANDLES) });
  return { ...series, candles: splitSeries(series, now, request.limit).closed };
}

/** The clock of the simulated venue: MARKETLENS_NOW (epoch ms or ISO time) pins it for reproducible runs. */
export function clockFrom(env: NodeJS.ProcessEnv): () => number {
  const raw = env.MARKETLENS_NOW;
  if (raw === undefined || raw === '') return Date.now;
  const t = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(t)) throw usageError(`MARKETLENS_NOW must be epoch milliseconds or an ISO time; got '${raw}'`);
  return () => t;
}

let simulated: SimulatedVenue | undefined;

/** The embedded default venue (one per process). */
export function simulatedVenue(env: NodeJS.ProcessEnv): SimulatedVenue {
  simulated ??= createSimulatedVenue({ now: clockFrom(env) });
  return simulated;
}

/**
 * The market data of `--source` (or `--venue`), or the simulated venue. `warn` is told what a
 * `files:` folder does not serve (a file skipped, and why).
 */
export async function marketData(
  source: string | undefined,
  env: NodeJS.ProcessEnv,
  warn?: (message: string) => void,
): Promise<MarketData> {
  if (source === undefined || source === SIMULATED_VENUE_ID || source === 'simulated') return simulatedVenue(env);
  let spec: SourceSpec;
  try {
    spec = parseSourceName(isCcxtVenue(source) ? `ccxt:${source}` : source);
  } catch (err) {
    throw usageError(`${err instanceof Error ? err.message : String(err)} (${SIMULATED_VENUE_ID} also works)`);
  }
  if (spec.kind === 'simulated') return simulatedVenue(env);
  try {
    // Through the composite: its universe is what the source lists, and calls are retried and bounded.
    return await createMarketSources({
      sources: [await openSource(spec, undefined, warn)],
      relistMs: 24 * 3_600_000,
    });
  } catch (err) {
    if (err instanceof FilesSourceError) throw dataError('bad_source', err.message);
    throw err;
  }
}

/** The universe of a market: its own (a simulated venue, configured sources), else the built-in one. */
function universeOf(market: MarketData | undefined): Universe {
  return (market as { universe?: Universe } | undefined)?.universe ?? defaultUniverse;
}

/**
 * An asset as typed (`bitcoin`, a ticker such as `BTC`, a pair such as `EURUSD`) to the universe's
 * id, by the same rule as the server (`Universe.find`); a ticker of several assets is refused.
 */
export function resolveAsset(input: string, market?: MarketData): string {
  const found = universeOf(market).find(input);
  if (found.length === 1) return found[0].id;
  if (found.length > 1) {
    const list = found.map((a) => `${a.id} (${a.asset_class})`).join(', ');
    throw dataError('ambiguous_asset', `'${input}' names ${found.length} assets: ${list}; give one of their ids`);
  }
  throw dataError('unknown_asset', `unknown asset '${input}' (try an id such as bitcoin, ethereum, stock-aapl, fx-eurusd)`);
}

export function timeframeOf(args: Parsed): Timeframe {
  const tf = args.string('tf') ?? 'd1';
  if (!isTimeframe(tf)) throw usageError(`--tf must be one of ${TIMEFRAMES.join(', ')}; got '${tf}'`);
  return tf;
}

export function limitOf(args: Parsed, fallback = 1000): number {
  const raw = args.string('limit');
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 50 || n > MAX_CANDLES) {
    throw usageError(`--limit must be an integer 50..${MAX_CANDLES}; got '${raw}'`);
  }
  return n;
}

/** Reads the candles a data command asks for: `--file`, else the asset on the venue. */
export async function loadCandles(args: Parsed, io: Io, asset: string | undefined): Promise<Loaded> {
  const file = args.string('file');
  const venue = args.string('source') ?? args.string('venue');
  if (args.string('source') !== undefined && args.string('venue') !== undefined) {
    throw usageError('--source and --venue name the same thing; give one');
  }
  const tf = timeframeOf(args);
  const limit = limitOf(args);
  if (file !== undefined) {
    if (venue !== undefined) throw usageError('--file and --source exclude each other');
    const imported = await importCandleFile(file);
    const candles = imported.candles;
    const n = candles.time.length;
    if (n === 0) throw dataError('file_empty', `${file} holds no candles`);
    return {
      candles,
      asset_class: null,
      quote: null,
      tick_size: null,
      source: {
        venue: 'file',
        asset_id: asset ?? null,
        pair: null,
        market_type: null,
        timeframe: null,
        file,
        candles: n,
        first_time: candles.time[0],
        last_time: candles.time[n - 1],
      },
    };
  }
  if (asset === undefined) throw usageError('name an asset (e.g. bitcoin) or give --file');
  const data = await marketData(venue, io.env, (message) => io.stderr(`${message}\n`));
  const assetId = resolveAsset(asset, data);
  const market = args.string('market') as MarketType | undefined;
  // A line while a real source is read (the simulated venue answers at once, offline).
  const fetching = progress(io, `reading ${assetId} ${tf} from ${data.venue}`, data.venue === SIMULATED_VENUE_ID ? 0 : 1);
  fetching.update(0);
  let series: Awaited<ReturnType<MarketData['candles']>>;
  try {
    series = await closedSeries(data, { asset_id: assetId, timeframe: tf, limit, market_type: market }, clockFrom(io.env)());
  } finally {
    fetching.done();
  }
  const n = series.candles.time.length;
  if (n === 0) throw dataError('no_candles', `${data.venue} has no ${tf} candles of ${assetId}`);
  const assetClass = universeOf(data).get(assetId)?.asset_class ?? null;
  // The market served: its quote currency and tick (a files: folder may declare both).
  const served = await data
    .markets(assetId)
    .then((all) => all.find((m) => m.pair === series.pair && m.market_type === series.market_type) ?? null)
    .catch(() => null);
  return {
    candles: series.candles,
    asset_class: assetClass,
    // `XXX` is ISO 4217's "no currency": a file that does not say its quote.
    quote: served === null || served.quote === 'XXX' ? null : served.quote,
    tick_size: served?.tick_size ?? defaultTickSize(assetClass),
    source: {
      venue: series.venue,
      asset_id: series.asset_id,
      pair: series.pair,
      market_type: series.market_type,
      timeframe: series.timeframe,
      file: null,
      candles: n,
      first_time: series.candles.time[0],
      last_time: series.candles.time[n - 1],
    },
  };
}

/** One line naming the source, for people. */
export function describeSource(s: SourceInfo): string {
  if (s.file !== null) return `${s.asset_id === null ? '' : `${s.asset_id} `}${s.file} (${s.candles} candles)`;
  const offline = s.venue === SIMULATED_VENUE_ID ? ', simulated venue' : '';
  return `${s.asset_id} ${s.timeframe} ${s.market_type} ${s.pair} on ${s.venue}${offline}`;
}
