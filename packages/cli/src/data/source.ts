import {
  createMarketSources,
  createSimulatedVenue,
  FilesSourceError,
  isCcxtVenue,
  type MarketData,
  openSource,
  parseSourceName,
  SIMULATED_VENUE_ID,
  type SimulatedVenue,
  type SourceSpec,
  TIMEFRAMES,
} from '@marketlens/exchanges';
import { ConfigError, loadConfig, type ServerConfig } from '@marketlens/server';
import type { OptionSpec, Parsed } from '../args.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { progress } from '../output/progress.js';
import {
  type AnalysisQuestion,
  analysisQuestion,
  type DataOperations,
  fileOperations,
  type VenueOperations,
  venueOperations,
} from './operations.js';

/** Options every data command takes. */
export const DATA_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  tf: { type: 'string', value: '<tf>', description: 'timeframe, default d1 (as REST)', choices: TIMEFRAMES },
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
  limit: { type: 'string', value: '<n>', description: 'candles to read, 50..5000, default 500 (as REST)' },
};

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
      // MARKETLENS_NOW pins this clock too: candles split and stamped at the same time as the simulated venue's.
      now: clockFrom(env),
    });
  } catch (err) {
    if (err instanceof FilesSourceError) throw dataError('bad_source', err.message);
    throw err;
  }
}

/**
 * The server's settings as `marketlens serve` reads them from the environment (plan costs, the
 * expected-R floor, the overview rewrite), so a question is answered on the same configuration.
 */
export function serverConfig(env: NodeJS.ProcessEnv): ServerConfig {
  try {
    return loadConfig({ env, overrides: { PORT: '' }, purpose: 'migrate' }).server.config;
  } catch (err) {
    if (err instanceof ConfigError) throw usageError(err.message);
    throw err;
  }
}

/** The market a data command reads (`--source` or `--venue`, else the simulated venue). */
export async function marketOfArgs(args: Parsed, io: Io, command: string): Promise<MarketData> {
  if (args.string('source') !== undefined && args.string('venue') !== undefined) {
    throw usageError('--source and --venue name the same thing; give one', command);
  }
  return marketData(args.string('source') ?? args.string('venue'), io.env, (message) => io.stderr(`${message}\n`));
}

/**
 * The operations over `market` for a command; a real source shows a line on stderr while each
 * question is read (the simulated venue answers at once, offline).
 */
export async function operationsOver(market: MarketData, io: Io): Promise<VenueOperations> {
  const ops = await venueOperations({ market, now: clockFrom(io.env), config: serverConfig(io.env) });
  if (market.venue === SIMULATED_VENUE_ID) return ops;
  const reading =
    <A extends unknown[], R>(what: (...args: A) => string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const line = progress(io, `reading ${what(...args)} from ${market.venue}`, 1);
      line.update(0);
      try {
        return await call(...args);
      } finally {
        line.done();
      }
    };
  const of = (q: AnalysisQuestion) => `${q.asset_id} ${q.timeframe}`;
  return {
    ...ops,
    analysis: reading(of, ops.analysis),
    signal: reading(of, ops.signal),
    overview: reading((q: AnalysisQuestion, _locale: string | undefined) => of(q), ops.overview),
    candles: reading(of, ops.candles),
    screener: reading((c) => `the ${c} screener`, ops.screener),
  };
}

/**
 * The operations a data command asks and its question: over `--file`, else over the asset on the
 * market (`--source`, `--venue`, else the simulated venue). The options are read as REST reads its
 * query (defaults d1 and 500 candles).
 */
export async function dataOperations(
  args: Parsed,
  io: Io,
  command: string,
  asset: string | undefined,
): Promise<{ operations: DataOperations; question: AnalysisQuestion }> {
  const file = args.string('file');
  const question = analysisQuestion(
    asset ?? '',
    { timeframe: args.string('tf'), market_type: args.string('market'), limit: args.string('limit') },
    command,
  );
  if (file !== undefined) {
    if (args.string('source') !== undefined || args.string('venue') !== undefined) {
      throw usageError('--file and --source exclude each other', command);
    }
    return { operations: await fileOperations(file, asset, clockFrom(io.env)), question };
  }
  if (asset === undefined) throw usageError('name an asset (e.g. bitcoin) or give --file', command);
  const market = await marketOfArgs(args, io, command);
  return { operations: await operationsOver(market, io), question };
}

/** The served block of a REST answer, for people: what was read, from where. */
export function describeServed(s: {
  asset: { id: string } | null;
  timeframe: string | null;
  market_type: string | null;
  pair: string | null;
  venue: string;
  data_source: string;
}): string {
  if (s.venue === 'file') {
    return `${s.asset === null ? '' : `${s.asset.id} `}${s.data_source.slice('file:'.length)}${s.timeframe === null ? '' : ` ${s.timeframe}`}`;
  }
  const offline = s.venue === SIMULATED_VENUE_ID ? ', simulated venue' : '';
  return `${s.asset?.id} ${s.timeframe} ${s.market_type} ${s.pair} on ${s.venue}${offline}`;
}
