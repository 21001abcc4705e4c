import { analyze, type Candles, computeContext, type PlanOutcome, simulatePlan } from '@marketlens/core';
import { type Command, JSON_OPTION, type Parsed } from '../args.js';
import { candlesOfAnswer } from '../data/operations.js';
import { DATA_OPTIONS, dataOperations, describeServed } from '../data/source.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { num, table } from '../output/format.js';
import { printData } from '../output/json.js';
import { progress } from '../output/progress.js';
import { styleFor } from '../output/style.js';
import { servedOf } from './analysis.js';

export const OUTCOMES: readonly PlanOutcome[] = [
  'tp_hit',
  'stopped_out',
  'time_stopped',
  'expired',
  'entered',
  'pending',
];
const CLOSED: ReadonlySet<PlanOutcome> = new Set(['tp_hit', 'stopped_out', 'time_stopped']);
/** Confidence buckets of the calibration table: [0, 0.2), [0.2, 0.4), ..., [0.8, 1]. */
const BUCKETS = [0, 0.2, 0.4, 0.6, 0.8, 1] as const;
/** Candles read before the first published plan (the 200-candle averages need them). */
const WARMUP = 210;

/** One row of the calibration table. */
export interface CalibrationRow {
  confidence_min: number;
  confidence_max: number;
  /** Closed plans published with a confidence in the bucket. */
  plans: number;
  /** tp_hit / closed; null without closed plans. */
  hit_rate: number | null;
  mean_r: number | null;
}

/** The result of a walk-forward backtest (the `--json` payload of `backtest`, without `source`). */
export interface Backtest {
  cost_pct: number;
  warmup: number;
  step: number;
  analyses: number;
  plans: number;
  outcomes: Record<PlanOutcome, number>;
  closed: number;
  hit_rate: number | null;
  mean_r: number | null;
  total_r: number;
  calibration: CalibrationRow[];
}

function warmupOf(n: number): number {
  return Math.min(WARMUP, Math.floor(n / 3));
}

/** Number of analyses a walk-forward over `n` candles makes. */
export function walkForwardSteps(n: number, step: number): number {
  return Math.max(0, Math.ceil((n - 1 - warmupOf(n)) / step));
}

/**
 * Walks forward: at each candle from the warm-up on, the analysis reads only the candles up to it
 * and publishes its plan; the plan is simulated on the candles after it with the round-trip cost.
 */
export function walkForward(
  candles: Candles,
  options: { costPct: number; step: number; onProgress?: (done: number, total: number) => void },
): Backtest {
  const n = candles.close.length;
  const warmup = warmupOf(n);
  const ctx = computeContext(candles);
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<PlanOutcome, number>;
  const buckets = BUCKETS.slice(0, -1).map(() => ({ n: 0, hits: 0, r: 0 }));
  let analyses = 0;
  let plans = 0;
  let closed = 0;
  let hits = 0;
  let totalR = 0;
  const total = walkForwardSteps(n, options.step);
  for (let i = warmup; i < n - 1; i += options.step) {
    const a = analyze(ctx, { asOf: i });
    analyses++;
    options.onProgress?.(analyses, total);
    const plan = a.zone;
    if (plan.direction === null) continue;
    const sim = simulatePlan(plan, candles, { fromIndex: i + 1, costPct: options.costPct });
    if (sim.outcome === null) continue;
    plans++;
    outcomes[sim.outcome]++;
    if (!CLOSED.has(sim.outcome) || sim.realized_r === null) continue;
    closed++;
    totalR += sim.realized_r;
    const hit = sim.outcome === 'tp_hit' ? 1 : 0;
    hits += hit;
    const k = Math.min(buckets.length - 1, Math.floor(a.signal.confidence / 0.2));
    buckets[Math.max(0, k)].n++;
    buckets[Math.max(0, k)].hits += hit;
    buckets[Math.max(0, k)].r += sim.realized_r;
  }
  return {
    cost_pct: options.costPct,
    warmup,
    step: options.step,
    analyses,
    plans,
    outcomes,
    closed,
    hit_rate: closed === 0 ? null : hits / closed,
    mean_r: closed === 0 ? null : totalR / closed,
    total_r: totalR,
    calibration: buckets.map((b, k) => ({
      confidence_min: BUCKETS[k],
      confidence_max: BUCKETS[k + 1],
      plans: b.n,
      hit_rate: b.n === 0 ? null : b.hits / b.n,
      mean_r: b.n === 0 ? null : b.r / b.n,
    })),
  };
}

function numberOption(args: Parsed, name: string, fallback: number, ok: (x: number) => boolean, what: string): number {
  const raw = args.string(name);
  if (raw === undefined) return fallback;
  const x = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(x) || !ok(x))
    throw usageError(`--${name} must be ${what}; got '${raw}'`, 'backtest');
  return x;
}

const rate = (x: number | null): string => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);

export const backtestCommand: Command = {
  spec: {
    name: 'backtest',
    summary: 'walk-forward of the published plans with costs: outcomes and calibration',
    args: '[asset]',
    minArgs: 0,
    maxArgs: 1,
    options: {
      ...DATA_OPTIONS,
      cost: { type: 'string', value: '<pct>', description: 'round-trip cost in % of the entry, default 0.2' },
      step: { type: 'string', value: '<n>', description: 'publish a plan every n candles, default 1' },
      json: JSON_OPTION,
    },
    examples: [
      'marketlens backtest bitcoin',
      'marketlens backtest ethereum --tf h4 --limit 2000 --json',
      'marketlens backtest --file prices.csv',
    ],
    notes: [
      'At each candle after a 210-candle warm-up the analysis reads only the past, publishes its plan, and the',
      'plan is simulated on the later candles (fills, stops, targets, time stop) net of the cost. The still-open',
      'last candle of a venue is left out. hit rate = tp_hit / closed (closed = tp_hit + stopped_out + time_stopped).',
    ],
  },
  async run(args, io: Io) {
    const costPct = numberOption(args, 'cost', 0.2, (x) => x >= 0 && x < 50, 'a percentage 0..50');
    const step = numberOption(args, 'step', 1, (x) => Number.isInteger(x) && x >= 1, 'a positive integer');
    // The candles of GET /v2/analysis/{asset}/candles: the closed ones of the question, as REST reads them.
    const { operations, question } = await dataOperations(
      args,
      io,
      'backtest',
      args.positionals[0] ?? (args.string('file') === undefined ? 'bitcoin' : undefined),
    );
    const answer = await operations.candles(question).finally(() => operations.close());
    const candles = candlesOfAnswer(answer);
    if (candles.time.length < 60) {
      throw dataError('too_few_candles', `a backtest needs at least 60 candles; got ${candles.time.length}`);
    }
    const bar = progress(io, 'backtesting', walkForwardSteps(candles.time.length, step));
    let result: Backtest;
    try {
      result = walkForward(candles, { costPct, step, onProgress: (done) => bar.update(done) });
    } finally {
      bar.done();
    }
    if (args.flag('json')) {
      printData(io, 'backtest', { ...servedOf(answer), as_of: answer.as_of, bars: candles.time.length, ...result });
      return;
    }
    const style = styleFor(io);
    const out = [
      `${style.bold('marketlens backtest')}: ${describeServed(answer)}, ${candles.time.length} candles\n`,
      `${result.analyses} analyses, ${result.plans} plans, cost ${result.cost_pct}% round trip, warm-up ${result.warmup} candles\n\n`,
      table(
        [
          ['outcome', 'plans', 'share'],
          ...OUTCOMES.map((o) => [
            o,
            String(result.outcomes[o]),
            rate(result.plans === 0 ? null : result.outcomes[o] / result.plans),
          ]),
        ],
        ['left', 'right', 'right'],
      ),
      `\nclosed ${result.closed}  hit rate ${rate(result.hit_rate)}  mean R ${num(result.mean_r, 3)}  total R ${num(result.total_r, 2)}\n\n`,
      `${style.bold('Calibration')}: signal confidence against outcome (closed plans)\n`,
      table(
        [
          ['confidence', 'plans', 'hit rate', 'mean R'],
          ...result.calibration.map((c) => [
            `${c.confidence_min.toFixed(1)}-${c.confidence_max.toFixed(1)}`,
            String(c.plans),
            rate(c.hit_rate),
            num(c.mean_r, 3),
          ]),
        ],
        ['left', 'right', 'right', 'right'],
      ),
    ];
    io.stdout(out.join(''));
  },
};
