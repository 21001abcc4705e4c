/**
 * The questions the CLI's data commands ask, answered as REST answers them: each method is one
 * declared operation of the service (`OPERATIONS` of `@marketlens/contract`) and resolves to its
 * REST route's `data`, so `--json` speaks the service's dialect (field names, ISO times, defaults,
 * error codes). Two implementations:
 *
 * - {@link venueOperations}: the server's registry of operations over a market (the simulated venue,
 *   a ccxt venue, yahoo, a `files:` folder), invoked by id as a local operator who passes every tier
 *   gate, with the same input parse, caller check and error codes as REST;
 * - {@link fileOperations}: one candle file (`--file`), which no REST route reads: the same shapes,
 *   with what a file cannot say (asset, market, pair) null.
 */
import { basename } from 'node:path';
import {
  AnalysisQuery,
  type AssetClassFilter,
  type OperationId,
  type OperationOutput,
  ScreenerQuery,
} from '@marketlens/contract';
import { analyze, type Candles, defaultTickSize, overviewFacts, renderOverview, resolveLocale } from '@marketlens/core';
import {
  defaultUniverse,
  importCandleFile,
  type MarketData,
  type MarketType,
  TIMEFRAME_MS,
  TIMEFRAMES,
  type Timeframe,
  type Universe,
} from '@marketlens/exchanges';
import {
  type AppDeps,
  analysisWire,
  type Caller,
  createSqliteStorage,
  createUseCases,
  invokeOperation,
  MCP_CLIENT,
  type ServerConfig,
} from '@marketlens/server';
import { dataError, usageError } from '../errors.js';

/** One asset's analysis question: `GET /v2/analysis/{asset_id}` and its signal, overview and candles. */
export interface AnalysisQuestion {
  /** As typed: an id (`bitcoin`), a ticker (`BTC`) or a pair (`EURUSD`); resolved like REST's path. */
  asset_id: string;
  timeframe: Timeframe;
  market_type?: MarketType;
  limit: number;
}

/** `data` of `GET /v2/analysis/{asset_id}` (operation `analysis.get`). */
export type AnalysisData = OperationOutput<'analysis.get'>;
/** `data` of `GET /v2/analysis/{asset_id}/signal` (`analysis.signal`). */
export type SignalData = OperationOutput<'analysis.signal'>;
/** `data` of `GET /v2/analysis/{asset_id}/overview` (`analysis.overview`). */
export type OverviewData = OperationOutput<'analysis.overview'>;
/** `data` of `GET /v2/analysis/{asset_id}/candles` (`analysis.candles`). */
export type CandlesData = OperationOutput<'analysis.candles'>;
/** `data` of `GET /v2/assets/screener` (`analysis.screener`). */
export type ScreenerData = OperationOutput<'analysis.screener'>;

/** A REST answer as a file gives it: no asset (unless named), no market, no pair, maybe no timeframe. */
export type Answer<T extends { asset: unknown; market_type: unknown; pair: unknown; timeframe: unknown }> = Omit<
  T,
  'asset' | 'market_type' | 'pair' | 'timeframe'
> & {
  asset: T['asset'] | null;
  market_type: T['market_type'] | null;
  pair: string | null;
  timeframe: T['timeframe'] | null;
};

/** How the market of an answer quotes its prices: for people (prices at the tick, the currency named). */
export interface Quoting {
  /** The quote currency (`USDT`), null when unknown. */
  quote: string | null;
  /** The tick size, null when unknown (prices by magnitude). */
  tick_size: number | null;
}

/** The REST questions of the data commands (see the module comment). */
export interface DataOperations {
  /** `GET /v2/analysis/{asset_id}`. */
  analysis(q: AnalysisQuestion): Promise<Answer<AnalysisData>>;
  /** `GET /v2/analysis/{asset_id}/signal`. */
  signal(q: AnalysisQuestion): Promise<Answer<SignalData>>;
  /** `GET /v2/analysis/{asset_id}/overview` with `x-locale: locale`. */
  overview(q: AnalysisQuestion, locale: string | undefined): Promise<Answer<OverviewData>>;
  /** `GET /v2/analysis/{asset_id}/candles`. */
  candles(q: AnalysisQuestion): Promise<Answer<CandlesData>>;
  /** How the market that served an answer quotes prices. */
  quoting(answer: { asset: { id: string; asset_class: string } | null; pair: string | null; market_type: string | null }): Promise<Quoting>;
  /** Releases what the operations hold (the in-memory storage). */
  close(): Promise<void>;
}

/** The REST questions over a market, with the screener (a question over the market's universe). */
export interface VenueOperations extends DataOperations {
  /** `GET /v2/assets/screener?asset_class=...`. */
  screener(assetClass: AssetClassFilter): Promise<ScreenerData>;
}

/**
 * The analysis question of the command-line options, with REST's defaults and bounds: the
 * contract's own `AnalysisQuery` parses them (timeframe `d1`, 500 candles, 50..5,000). A value it
 * refuses is a usage error with REST's code, `InvalidRequest`.
 */
export function analysisQuestion(
  asset: string,
  options: { timeframe?: string | undefined; market_type?: string | undefined; limit?: string | undefined },
  command?: string,
): AnalysisQuestion {
  if (options.limit !== undefined && !/^\d+$/.test(options.limit)) {
    throw usageError(`--limit must be an integer 50..5000; got '${options.limit}'`, command, 'InvalidRequest');
  }
  const parsed = AnalysisQuery.safeParse({
    ...(options.timeframe === undefined ? {} : { timeframe: options.timeframe }),
    ...(options.market_type === undefined ? {} : { market_type: options.market_type }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.');
    const flag = field === 'timeframe' ? 'tf' : field === 'market_type' ? 'market' : field;
    throw usageError(`--${flag}: ${issue.message}`, command, 'InvalidRequest');
  }
  const { timeframe, market_type, limit } = parsed.data;
  return { asset_id: asset, timeframe: timeframe as Timeframe, limit, ...(market_type ? { market_type } : {}) };
}

/** The screener's asset class as REST reads it (default `coins`). */
export function screenerClass(value: string | undefined, command?: string): AssetClassFilter {
  const parsed = ScreenerQuery.safeParse(value === undefined ? {} : { asset_class: value });
  if (!parsed.success) throw usageError(`--class: ${parsed.error.issues[0].message}`, command, 'InvalidRequest');
  return parsed.data.asset_class;
}

/** The client the CLI is to the use cases: not a mobile build, so no client-version gate and today's shapes (as MCP). */
const CLI_CLIENT = { ...MCP_CLIENT };

/** The local operator: the one who runs the command reads every timeframe and depth (no tier gate). */
const OPERATOR = {
  id: 'cli-operator',
  email: 'operator@marketlens.local',
  password_hash: '',
  tier: 'elite',
} as const;

function universeOf(market: MarketData | undefined): Universe {
  return (market as { universe?: Universe } | undefined)?.universe ?? defaultUniverse;
}

/**
 * The REST questions over `market`, each invoked by its operation id through the server's registry
 * (`invokeOperation`, what `Marketlens.invoke` runs) on the server's `config` (plan costs, the
 * expected-R floor, the overview rewrite), at the clock `now`: the input parsed by the operation's
 * schema, the caller checked, the use case run. The use cases record a served plan as published:
 * here into an in-memory storage, discarded on close.
 */
export async function venueOperations(options: {
  market: MarketData;
  now: () => number;
  config: ServerConfig;
}): Promise<VenueOperations> {
  const storage = createSqliteStorage(':memory:');
  const deps: AppDeps = { storage, config: options.config, now: options.now, market: options.market };
  const user = await storage.users.create({ ...OPERATOR, created_at: options.now() }, []);
  if (user === null) throw new Error('the in-memory storage refused the operator');
  const caller: Caller = { kind: 'session', user, tier: 'elite', tier_expires_at: null, api_key_id: null };
  const actor = { caller, client: CLI_CLIENT };
  const useCases = createUseCases(deps);
  const invoke = async <K extends OperationId>(id: K, input: Record<string, unknown>) =>
    (await invokeOperation(useCases, actor, id, input)) as OperationOutput<K>;
  const request = (q: AnalysisQuestion) => ({
    asset_id: q.asset_id,
    timeframe: q.timeframe,
    limit: q.limit,
    ...(q.market_type === undefined ? {} : { market_type: q.market_type }),
  });
  return {
    analysis: (q) => invoke('analysis.get', request(q)),
    signal: (q) => invoke('analysis.signal', request(q)),
    overview: (q, locale) =>
      invoke('analysis.overview', { ...request(q), ...(locale === undefined ? {} : { locale }) }),
    candles: (q) => invoke('analysis.candles', request(q)),
    screener: (assetClass) => invoke('analysis.screener', { asset_class: assetClass }),
    quoting: (answer) => quotingOf(options.market, answer),
    close: () => storage.close(),
  };
}

/** The quote and tick of the market that served an answer (a `files:` folder may declare both). */
async function quotingOf(
  market: MarketData,
  answer: { asset: { id: string; asset_class: string } | null; pair: string | null; market_type: string | null },
): Promise<Quoting> {
  if (answer.asset === null) return { quote: null, tick_size: null };
  const served = await market
    .markets(answer.asset.id)
    .then((all) => all.find((m) => m.pair === answer.pair && m.market_type === answer.market_type) ?? null)
    .catch(() => null);
  const assetClass = universeOf(market).get(answer.asset.id)?.asset_class ?? null;
  return {
    // `XXX` is ISO 4217's "no currency": a file that does not say its quote.
    quote: served === null || served.quote === 'XXX' ? null : served.quote,
    tick_size: served?.tick_size ?? defaultTickSize(assetClass),
  };
}

/** The timeframe whose length is the median spacing of the candles, or null. */
export function spacingTimeframe(c: Candles): Timeframe | null {
  const spacings: number[] = [];
  for (let i = 1; i < c.time.length; i++) spacings.push(c.time[i] - c.time[i - 1]);
  if (spacings.length === 0) return null;
  spacings.sort((x, y) => x - y);
  const median = spacings[Math.floor(spacings.length / 2)];
  return TIMEFRAMES.find((tf) => TIMEFRAME_MS[tf] === median) ?? null;
}

/**
 * An asset as typed (`bitcoin`, `BTC`, `EURUSD`) in the built-in universe, by the rule of the server
 * (`Universe.find`): `UnknownAsset` when it names none, `AmbiguousAsset` when it names several.
 */
export function resolveAsset(input: string, market?: MarketData) {
  const found = universeOf(market).find(input);
  if (found.length === 1) return found[0];
  if (found.length > 1) {
    const list = found.map((a) => `${a.id} (${a.symbol}, ${a.asset_class})`).join(', ');
    throw dataError('AmbiguousAsset', `'${input}' names ${found.length} assets: ${list}; use one of their ids`);
  }
  throw dataError('UnknownAsset', `Unknown asset '${input}' (an id such as bitcoin, a ticker such as BTC)`);
}

const iso = (t: number) => new Date(t).toISOString();

/**
 * The REST questions over one candle file: its candles as they are (all closed, no live one), the
 * asset the command names (if any) from the built-in universe, the timeframe of their spacing.
 * `venue` is `file`, `data_source` `file:<name>`; asset, market type and pair are null when unknown.
 */
export async function fileOperations(file: string, assetInput: string | undefined, now: () => number): Promise<DataOperations> {
  const asset = assetInput === undefined ? null : resolveAsset(assetInput);
  const imported = await importCandleFile(file);
  const candles = imported.candles;
  const n = candles.time.length;
  if (n === 0) throw dataError('file_empty', `${file} holds no candles`);
  const fetchedAt = now();
  const analysis = analyze(candles);
  const served = {
    asset:
      asset === null
        ? null
        : { id: asset.id, symbol: asset.symbol, name: asset.name, icon: asset.icon, asset_class: asset.asset_class },
    timeframe: spacingTimeframe(candles),
    market_type: null,
    pair: null,
    venue: 'file',
    data_source: `file:${basename(file)}`,
    fetched_at: iso(fetchedAt),
    stale: false,
  };
  // analysisWire maps every time of the analysis to ISO; the market fields are then the file's.
  const wire = analysisWire({
    asset: { id: '', symbol: '', name: '', icon: '', asset_class: 'external' },
    timeframe: 'd1',
    market_type: 'spot',
    pair: '',
    venue: 'file',
    data_source: served.data_source,
    fetched_at: fetchedAt,
    stale: false,
    analysis,
    live: null,
    computed_at: fetchedAt,
  });
  const analysisAnswer: Answer<AnalysisData> = { ...wire, ...served };
  const asOf = analysisAnswer.as_of;
  return {
    analysis: async () => analysisAnswer,
    signal: async () => ({
      ...served,
      as_of: asOf,
      signal: wire.signal,
      cached_at: iso(fetchedAt),
      age: 0,
      // Nothing is kept: the next command reads the file again.
      max_age: 0,
    }),
    overview: async (_q, locale) => {
      const facts = overviewFacts(analysis, { quote: null, tick_size: null });
      const resolved = resolveLocale(locale);
      return { ...served, as_of: asOf, locale: resolved, text: renderOverview(facts, resolved), source: 'facts', facts };
    },
    candles: async () => ({
      ...served,
      as_of: iso(candles.time[n - 1]),
      candles: Array.from({ length: n }, (_, i) => ({
        time: iso(candles.time[i]),
        open: candles.open[i],
        high: candles.high[i],
        low: candles.low[i],
        close: candles.close[i],
        volume: candles.volume[i],
      })),
      live: null,
    }),
    quoting: async () => ({ quote: null, tick_size: null }),
    close: async () => {},
  };
}

/** The candles of a candles answer as core reads them (times in ms). */
export function candlesOfAnswer(answer: { candles: readonly { time: string; open: number; high: number; low: number; close: number; volume: number }[] }): Candles {
  const bars = answer.candles;
  const column = (read: (b: (typeof bars)[number]) => number) => Float64Array.from(bars, read);
  return {
    time: column((b) => Date.parse(b.time)),
    open: column((b) => b.open),
    high: column((b) => b.high),
    low: column((b) => b.low),
    close: column((b) => b.close),
    volume: column((b) => b.volume),
  };
}
