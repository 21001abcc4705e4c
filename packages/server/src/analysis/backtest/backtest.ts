/**
 * The backtest record: beside the live record of the plans the service published, a walk-forward of
 * today's signal over the stored candles of each served asset and timeframe, out of sample after
 * the calibration's training window, computed by a background job and read by the track-record
 * routes and tools. Core does the walk (`walkForward`) and the figures (`recordStats`); this file
 * picks the series, reads their candles, keeps the result and shapes the wire.
 */
import type { BacktestRecord, BacktestSeries, RecordStats as RecordStatsWire } from '@marketlens/contract';
import {
  computeContext,
  outOfSampleSince,
  type RecordStats,
  type RecordTrade,
  recordStats,
  SIGNAL_CALIBRATION,
  timeframeFamily,
  walkForward,
} from '@marketlens/core';
import { type Asset, type AssetClass, splitClosed } from '@marketlens/exchanges';
import { iso, isoOrNull, marketOf, universeOf } from '../../market/market.js';
import { stateKey, stateOf } from '../../platform/app-state.js';
import type { AppDeps } from '../../platform/deps.js';
import type { JobRunner } from '../../platform/jobs/runner.js';
import { DEFAULT_TIMEFRAME, TIMEFRAMES, type Timeframe } from '../../platform/product-rules.js';
import { analyzeOptionsOf, planCostOf } from '../plan-costs.js';

/** The repeatable job that recomputes the backtest record (one run at a time across instances). */
export const BACKTEST_JOB = 'backtest-record';
/** Default time between two runs of {@link BACKTEST_JOB}: an hour (`MARKETLENS_BACKTEST_INTERVAL_MS`). */
export const BACKTEST_INTERVAL_MS = 3_600_000;
/** Closed candles walked per series: the newest stored ones. */
export const BACKTEST_CANDLES = 1000;
/** The universe's first assets (non-stablecoins) backtested on d1 besides the series with plans. */
export const BACKTEST_TOP_ASSETS = 5;
/** Series walked per run, at most (about 1.6 s of one core each on 1,000 candles). */
export const BACKTEST_MAX_SERIES = 16;
/** Analyses between two yields to the event loop, so a run never holds requests up for long. */
const SLICE = 20;
/** Where the shared record lives in Redis (every instance reads what the job's worker wrote). */
const SHARED_KEY = 'marketlens:backtest-record';
/** How long an instance serves the record it read from Redis before reading it again. */
const SHARED_READ_MS = 60_000;

/** A walked series as kept between runs: its wire figures and its resolved calls (for totals over any filter). */
export interface StoredSeries extends Omit<BacktestSeries, 'stats'> {
  trades: RecordTrade[];
}

/** The backtest as the job leaves it. */
export interface StoredBacktest {
  as_of: number;
  series: StoredSeries[];
}

/** A series to walk, named by asset id and timeframe. */
export interface SeriesKey {
  asset_id: string;
  timeframe: Timeframe;
}

/**
 * Series the job walks besides those with published plans and the universe's first assets: the
 * pilot's universe on its timeframe, given by the composition root (analysis knows no pilot).
 */
export type MoreSeries = (deps: AppDeps) => readonly SeriesKey[];

const NO_MORE: MoreSeries = () => [];

/** Which part of the record to show. */
export interface BacktestFilter {
  timeframe?: Timeframe;
  asset_class?: AssetClass;
  asset_id?: string;
}

interface BacktestState {
  local: StoredBacktest | null;
  shared: { at: number; value: Promise<StoredBacktest | null> } | null;
}

const STATE = stateKey('backtest-record', (): BacktestState => ({ local: null, shared: null }));

/**
 * The served series the job walks, at most {@link BACKTEST_MAX_SERIES}, by timeframe then asset: every
 * (asset, timeframe) the live record holds plans on (most plans first when they are too many), the
 * series of `more` (the pilot's universe on its timeframe), and the universe's first {@link BACKTEST_TOP_ASSETS}
 * non-stablecoins on d1. Assets the configured market does not list, and stablecoins, are left out.
 */
export async function servedSeries(
  deps: AppDeps,
  more: MoreSeries = NO_MORE,
): Promise<{ asset: Asset; timeframe: Timeframe }[]> {
  const universe = universeOf(marketOf(deps));
  const counts = new Map<string, number>();
  for (const a of await deps.storage.publishedPlans.aggregate(2)) {
    const key = `${a.asset_id}\u0000${a.timeframe}`;
    counts.set(key, (counts.get(key) ?? 0) + a.count);
  }
  const keys = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  keys.push(...more(deps).map((k) => `${k.asset_id}\u0000${k.timeframe}`));
  keys.push(
    ...universe.assets
      .filter((a) => !a.is_stablecoin)
      .slice(0, BACKTEST_TOP_ASSETS)
      .map((a) => `${a.id}\u0000${DEFAULT_TIMEFRAME}`),
  );
  const out: { asset: Asset; timeframe: Timeframe }[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (out.length >= BACKTEST_MAX_SERIES || seen.has(key)) continue;
    seen.add(key);
    const [id, tf] = key.split('\u0000');
    const asset = universe.get(id);
    const timeframe = TIMEFRAMES.find((t) => t === tf);
    if (asset === undefined || asset.is_stablecoin || timeframe === undefined) continue;
    out.push({ asset, timeframe });
  }
  return out.sort(
    (a, b) => TIMEFRAMES.indexOf(a.timeframe) - TIMEFRAMES.indexOf(b.timeframe) || a.asset.id.localeCompare(b.asset.id),
  );
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The wire form of core's figures (times as ISO date-times). */
export function statsWire(s: RecordStats): RecordStatsWire {
  return { ...s, from: isoOrNull(s.from), to: isoOrNull(s.to) };
}

/**
 * Walks one series: its newest {@link BACKTEST_CANDLES} closed candles, from the calibration's
 * out-of-sample start for the series' family, with the options its published analyses use (the
 * asset class's cost, the operator's edge floor). Yields to the event loop every few analyses.
 */
async function walkSeries(
  deps: AppDeps,
  asset: Asset,
  timeframe: Timeframe,
  signal: AbortSignal | undefined,
): Promise<StoredSeries> {
  const market = marketOf(deps);
  const base = {
    asset_id: asset.id,
    asset_class: asset.asset_class,
    timeframe,
    cost_pct: planCostOf(deps.config.planCosts, asset.asset_class, market.venue),
  };
  try {
    const read = await market.candles({ asset_id: asset.id, timeframe, limit: BACKTEST_CANDLES + 1 });
    const { closed } = splitClosed(read.candles, timeframe, deps.now(), BACKTEST_CANDLES);
    const n = closed.time.length;
    const since = n > 0 ? outOfSampleSince(SIGNAL_CALIBRATION, timeframeFamily(closed.time, n - 1)) : null;
    const options = analyzeOptionsOf(deps.config.planCosts, asset, market.venue, deps.config.signalMinExpectedR);
    const ctx = computeContext(closed);
    const trades: RecordTrade[] = [];
    let analyses = 0;
    let calls = 0;
    let first: number | null = null;
    let last: number | null = null;
    for (let start = 0; start < n - 1; start += SLICE) {
      const w = walkForward(ctx, {
        start,
        end: start + SLICE,
        ...(since === null ? {} : { since }),
        analyze: options,
      });
      analyses += w.analyses;
      calls += w.calls.length;
      trades.push(...w.trades);
      first ??= w.first_time;
      last = w.last_time ?? last;
      await pause();
      signal?.throwIfAborted();
    }
    return {
      ...base,
      candles: n,
      out_of_sample_since: isoOrNull(since),
      analyses,
      calls,
      first_analysis_at: isoOrNull(first),
      last_analysis_at: isoOrNull(last),
      error: null,
      trades,
    };
  } catch (err) {
    if (signal?.aborted === true) throw err;
    return {
      ...base,
      candles: 0,
      out_of_sample_since: null,
      analyses: 0,
      calls: 0,
      first_analysis_at: null,
      last_analysis_at: null,
      error: err instanceof Error ? err.message : String(err),
      trades: [],
    };
  }
}

/**
 * Walks every served series ({@link servedSeries}), one after the other; `signal` abandons the walk
 * (it rejects with the signal's reason) at the next yield.
 */
export async function computeBacktest(
  deps: AppDeps,
  signal?: AbortSignal,
  more: MoreSeries = NO_MORE,
): Promise<StoredBacktest> {
  const series: StoredSeries[] = [];
  for (const { asset, timeframe } of await servedSeries(deps, more)) {
    series.push(await walkSeries(deps, asset, timeframe, signal));
  }
  return { as_of: deps.now(), series };
}

/**
 * One run of the job: computes the backtest and keeps it for this app, and for every instance in
 * Redis when the deployment shares state. Running it twice only recomputes the same figures; an
 * abandoned run (`signal`) keeps nothing.
 */
export async function refreshBacktest(
  deps: AppDeps,
  signal?: AbortSignal,
  more: MoreSeries = NO_MORE,
): Promise<StoredBacktest> {
  const record = await computeBacktest(deps, signal, more);
  const state = stateOf(deps, STATE);
  state.local = record;
  if (deps.shared !== undefined) {
    await deps.shared.redis.set(SHARED_KEY, JSON.stringify(record));
    state.shared = { at: deps.now(), value: Promise.resolve(record) };
  }
  return record;
}

/**
 * The newest backtest this app can see: the shared one in Redis (read at most once a minute; a
 * failed read falls back to this process's), else the one this process computed, else null (the
 * job has not finished a run yet).
 */
export async function latestBacktest(deps: AppDeps): Promise<StoredBacktest | null> {
  const state = stateOf(deps, STATE);
  const shared = deps.shared;
  if (shared === undefined) return state.local;
  const now = deps.now();
  if (state.shared === null || now < state.shared.at || now - state.shared.at >= SHARED_READ_MS) {
    const value = shared.redis
      .get(SHARED_KEY)
      .then((raw) => (raw === null ? null : (JSON.parse(raw) as StoredBacktest)));
    const entry = { at: now, value };
    state.shared = entry;
    value.catch(() => {
      if (state.shared === entry) state.shared = null;
    });
  }
  try {
    return (await state.shared.value) ?? state.local;
  } catch {
    return state.local;
  }
}

const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const r2 = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;

/** The plain-words label of a backtest: what it is, and what it shows. */
export function backtestLabel(record: Omit<BacktestRecord, 'label'>): string {
  const what =
    'Backtest, not live trading: the signal walked forward over the stored candles of the served assets and timeframes, each candle analysed on the candles up to it, out of sample after the calibration window, each call scored on the candles after it with its asset class cost.';
  if (record.status === 'pending') {
    return `${what} The background job has not finished its first run yet; the figures appear once it has.`;
  }
  if (record.series.length === 0) {
    return `${what} No series here: the job walks the assets and timeframes with published plans, the pilot's, and the first assets on d1.`;
  }
  if (record.analyses === 0) {
    return `${what} No candle was analysed: no series has candles past the calibration window.`;
  }
  const s = record.total;
  const calls = `${record.calls} of ${record.analyses} analyses published a Buy or Sell (${pct(record.call_share ?? 0, 2)})`;
  const few =
    (record.call_share ?? 0) < 0.02
      ? ': almost every analysis is a Hold, the signal finding no edge after costs on these candles'
      : '';
  if (s.count === 0 || s.hit_rate === null || s.realized_r === null) {
    return `${what} ${calls}${few}; none was entered and closed, so there is no result to score yet.`;
  }
  const vs = s.break_even_hit_rate === null ? '' : ` against a break-even of ${pct(s.break_even_hit_rate)}`;
  const expected = s.expected_r === null ? '' : ` against an expected ${r2(s.expected_r.mean)} R`;
  return `${what} ${calls}${few}. ${s.count} resolved: hit rate ${pct(s.hit_rate.mean)}${vs}; realized ${r2(s.realized_r.mean)} R per call [${r2(s.realized_r.low)}, ${r2(s.realized_r.high)}]${expected}; maximum drawdown ${s.max_drawdown_r.toFixed(2)} R.`;
}

/** The wire backtest record of `stored` (null: pending) narrowed to `filter`, totals recomputed over what is kept. */
export function backtestWire(stored: StoredBacktest | null, filter: BacktestFilter = {}): BacktestRecord {
  const series = (stored?.series ?? []).filter(
    (s) =>
      (filter.timeframe === undefined || s.timeframe === filter.timeframe) &&
      (filter.asset_class === undefined || s.asset_class === filter.asset_class) &&
      (filter.asset_id === undefined || s.asset_id === filter.asset_id),
  );
  const analyses = series.reduce((n, s) => n + s.analyses, 0);
  const calls = series.reduce((n, s) => n + s.calls, 0);
  const record: Omit<BacktestRecord, 'label'> = {
    kind: 'backtest',
    status: stored === null ? 'pending' : 'ready',
    as_of: stored === null ? null : iso(stored.as_of),
    analyses,
    calls,
    call_share: analyses === 0 ? null : calls / analyses,
    total: statsWire(recordStats(series.flatMap((s) => s.trades))),
    series: series.map(({ trades, ...s }) => ({ ...s, stats: statsWire(recordStats(trades)) })),
  };
  return { ...record, label: backtestLabel(record) };
}

/**
 * Declares {@link BACKTEST_JOB} on `jobs` every `intervalMs` (the first run at once): one run at a
 * time across every process sharing the runner; a failed run is the runner's to report (the log,
 * the job metrics) and the next one tries again. A process that works jobs computes; the others
 * read what it stored. `stop` abandons a run under way at its next yield (a stopping server does
 * not wait for a whole walk), and the runs after it.
 */
export async function scheduleBacktest(
  deps: AppDeps,
  jobs: JobRunner,
  intervalMs: number,
  more: MoreSeries = NO_MORE,
): Promise<{ stop(): void }> {
  const stopping = new AbortController();
  await jobs.every(
    BACKTEST_JOB,
    intervalMs,
    async () => {
      if (stopping.signal.aborted) return;
      try {
        await refreshBacktest(deps, stopping.signal, more);
      } catch (err) {
        // abandoned because the process stops: not a failure
        if (!stopping.signal.aborted) throw err;
      }
    },
    { immediately: true },
  );
  return { stop: () => stopping.abort() };
}
