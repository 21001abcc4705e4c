// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// assessPosition rebuilt field by field from its documentation (the reference plan's three
// sources, thesis, stop placement, liquidation, timing, excursion, plan geometry, nearest levels,
// the published plan at entry and the warnings) over drawn positions and published plans, and its
// edges pinned (inclusive bounds, ties, error fields and messages).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atr } from '../indicators/atr.js';
import { supportResistance, type Zone } from '../levels/zones.js';
import { buildPlan, type Direction, type TradePlan } from '../plan/plan.js';
import type { PlanOutcome } from '../simulation/simulate.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { toColumns } from '../testing/props.js';
import type { Candles } from '../types.js';
import {
  type AssessedPosition,
  type AssessmentInput,
  type AssessmentOptions,
  assessPosition,
  type PositionAssessment,
  type PositionWarning,
  type PublishedPlanRecord,
  type ReferencePlan,
} from './assessment.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

/** `n` daily candles: a drift of `drift` a day with a 6-point swing. */
function series(n: number, drift = 0.15): Candles {
  const at = (i: number): number => 100 + drift * i + 6 * Math.sin(i / 6);
  return toColumns(
    Array.from({ length: n }, (_, i) => {
      const o = at(i - 1);
      const c = at(i);
      return {
        time: T0 + i * DAY,
        open: o,
        high: Math.max(o, c) + 0.8,
        low: Math.min(o, c) - 0.8,
        close: c,
        volume: 1e3,
      };
    }),
  );
}

const price = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : null);

/** `(M - E) / (E - S)` when the stop is on the loss side of the entry (`s (E - S) > 0`). */
function rMultiple(s: number, e: number, m: number, stop: number): number | null {
  return s * (e - stop) > 0 ? (m - e) / (e - stop) : null;
}

/** `s (T - M) / s (M - S)`, null once the mark is past the target or at/past the stop. */
function remaining(s: number, m: number, stop: number, target: number): number | null {
  return s * (target - m) >= 0 && s * (m - stop) > 0 ? (s * (target - m)) / (s * (m - stop)) : null;
}

function referenceOf(plan: TradePlan, source: ReferencePlan['source'], time: number): ReferencePlan | null {
  const { entry_zone, entry_price, invalidation, stop_loss, take_profits } = plan;
  if (entry_zone === null || entry_price === null || invalidation === null || stop_loss === null) return null;
  if (take_profits.length === 0) return null;
  return {
    source,
    published_time: time,
    entry_zone: { low: entry_zone.low, high: entry_zone.high },
    entry_price,
    invalidation,
    stop_loss,
    take_profits,
    horizon_bars: plan.horizon_bars,
  };
}

/** assessPosition by its documentation, step by step. */
function byHand(inp: AssessmentInput, opts: AssessmentOptions = {}): PositionAssessment {
  const pos = inp.position;
  const c = inp.candles as Candles;
  const n = c.close.length;
  const side = pos.side ?? null;
  const s = side === 'long' ? 1 : -1;
  const mark = pos.current_price ?? c.close[n - 1];
  const entry = pos.entry_price as number;
  const stop = price(pos.stop_loss);
  const target = price(pos.take_profit);
  const liq = price(pos.liquidation_price);
  const entryTime =
    pos.opened_at == null ? null : typeof pos.opened_at === 'string' ? Date.parse(pos.opened_at) : pos.opened_at;
  const atrCol = atr(c, { period: opts.atrPeriod ?? 14 });
  const lastAtr = atrCol[n - 1];
  const a = Number.isFinite(lastAtr) && lastAtr > 0 ? lastAtr : null;
  const zones: Zone[] = supportResistance(c, { ...opts.levels, atr: atrCol }).zones;
  // the entry candle: the last one opening at or before the entry
  let entryIdx = -1;
  if (entryTime !== null) for (let i = 0; i < n; i++) if (c.time[i] <= entryTime) entryIdx = i;

  // reference plan: published in force at the entry, else the structure before it, else now
  let record: PublishedPlanRecord | null = null;
  let ref: ReferencePlan | null = null;
  if (side !== null) {
    if (entryTime !== null) {
      for (const r of inp.published_plans ?? []) {
        if (r.plan.direction !== side || r.published_time > entryTime) continue;
        if (r.closed_time != null && r.closed_time <= entryTime) continue;
        if (inp.timeframe != null && r.timeframe != null && r.timeframe !== inp.timeframe) continue;
        if (record === null || r.published_time >= record.published_time) record = r;
      }
      if (record !== null) ref = referenceOf(record.plan, 'published', record.published_time);
      if (ref === null) record = null;
    }
    const planAsOf = (i: number, source: ReferencePlan['source']) => {
      // without the reward minimums unless the options set them: the structure of a held position
      const plan = buildPlan(c, supportResistance(c, { ...opts.levels, asOf: i, atr: atrCol }), {
        minRiskReward: 0,
        minNetRiskReward: -1e6,
        ...opts.plan,
        direction: side,
      });
      return referenceOf(plan, source, plan.published_time);
    };
    if (ref === null && entryIdx >= 1) ref = planAsOf(entryIdx - 1, 'entry_structure');
    if (ref === null) ref = planAsOf(n - 1, 'current');
  }
  const thesisRef = ref !== null && ref.source !== 'current' ? ref : null;

  let thesis: PositionAssessment['thesis_status'] = 'unknown';
  let invalidation: PositionAssessment['invalidation'] = null;
  if (side !== null && ref !== null) {
    const level = ref.invalidation;
    let breached: number | null = null;
    if (thesisRef !== null) {
      for (let i = Math.max(0, entryIdx); i < n && breached === null; i++) {
        if (s * (c.close[i] - level) < 0) breached = c.time[i];
      }
      thesis = breached !== null || s * (mark - level) < 0 ? 'invalidated' : 'intact';
    }
    invalidation = {
      price: level,
      source: ref.source,
      signed_distance_pct: ((s * (mark - level)) / mark) * 100,
      signed_distance_atr: a === null ? null : (s * (mark - level)) / a,
      breached_at: breached,
    };
  }

  const stopPlacement =
    side === null || stop === null
      ? null
      : {
          stop_loss: stop,
          signed_distance_pct: ((s * (mark - stop)) / mark) * 100,
          noise_distance_atr: a === null ? null : (s * (mark - stop)) / a,
          inside_entry_zone: ref === null ? null : ref.entry_zone.low <= stop && stop <= ref.entry_zone.high,
          beyond_invalidation: ref === null ? null : s * (ref.invalidation - stop) > 0,
          inside_opposing_zone: zones.some((z) => s * (z.mid - mark) > 0 && z.low <= stop && stop <= z.high),
          breakeven_or_better: s * (stop - entry) >= 0,
        };

  const barsHeld = entryIdx >= 0 ? n - entryIdx : null;
  const atLeast = barsHeld ?? (entryTime !== null ? n : 1);
  const horizon = thesisRef?.horizon_bars ?? null;
  const exceeded = horizon === null ? null : atLeast > horizon ? true : barsHeld !== null ? false : null;

  let excursion: PositionAssessment['excursion'] = null;
  if (side !== null && entryIdx >= 0) {
    // the entry candle's close, the highs and lows after it, and the mark
    const points: [number, number, number][] = [[c.close[entryIdx], c.close[entryIdx], entryIdx]];
    for (let i = entryIdx + 1; i < n; i++) points.push(s > 0 ? [c.high[i], c.low[i], i] : [c.low[i], c.high[i], i]);
    points.push([mark, mark, n - 1]);
    let best = 0;
    let worst = 0;
    let peak = entryIdx;
    for (const [good, bad, i] of points) {
      if (s * (good - entry) > best) {
        best = s * (good - entry);
        peak = i;
      }
      worst = Math.max(worst, s * (entry - bad));
    }
    excursion = {
      mfe_pct: (best / entry) * 100,
      mae_pct: (worst / entry) * 100,
      mfe_atr: a === null ? null : best / a,
      mae_atr: a === null ? null : worst / a,
      bars_since_peak: n - 1 - peak,
      current_over_peak: best > 0 ? (s * (mark - entry)) / best : null,
    };
  }

  const distance = (z: Zone | undefined) =>
    z === undefined
      ? null
      : {
          low: z.low,
          high: z.high,
          mid: z.mid,
          strength: z.strength,
          distance_pct: ((z.mid - mark) / mark) * 100,
          distance_atr: a === null ? null : (z.mid - mark) / a,
        };
  const below = zones.filter((z) => z.mid <= mark);
  const above = zones.filter((z) => z.mid > mark);
  const support = below.find((z) => z.mid === Math.max(...below.map((x) => x.mid)));
  const resistance = above.find((z) => z.mid === Math.min(...above.map((x) => x.mid)));

  const warnings: PositionWarning[] = [];
  const recorded = pos.stop_loss != null;
  if (!recorded) warnings.push('no_stop_recorded');
  if (pos.protective_levels_synced_at == null) warnings.push('protective_levels_not_synced');
  if (recorded && (stop === null || side === null || (liq !== null && s * (stop - liq) <= 0))) {
    warnings.push('stop_unusable');
  }
  if (side !== null && stop !== null && s * (mark - stop) <= 0) warnings.push('stop_wrong_side');
  else if (side !== null && stop !== null && a !== null && s * (mark - stop) < (opts.stopNoiseAtr ?? 0.5) * a) {
    warnings.push('stop_within_noise');
  }
  if (liq !== null && a !== null) {
    const d = side === null ? Math.abs(mark - liq) : s * (mark - liq);
    if (d < (opts.liquidationNoiseAtr ?? 1) * a) warnings.push('liquidation_within_noise');
  }

  return {
    direction: side,
    timeframe: inp.timeframe ?? null,
    as_of: c.time[n - 1],
    mark,
    mark_source: pos.current_price == null ? 'candle' : 'venue',
    entry_price: entry,
    stop_loss: stop,
    take_profit: target,
    atr: a,
    thesis_status: thesis,
    unrealized_r: side === null || stop === null ? null : rMultiple(s, entry, mark, stop),
    remaining_rr: side === null || stop === null || target === null ? null : remaining(s, mark, stop, target),
    entry_vs_plan_pct: ref === null ? null : ((entry - ref.entry_price) / ref.entry_price) * 100,
    stop_placement: stopPlacement,
    liquidation_risk:
      liq === null
        ? null
        : {
            liquidation_price: liq,
            abs_distance_pct: (Math.abs(mark - liq) / mark) * 100,
            abs_distance_atr: a === null ? null : Math.abs(mark - liq) / a,
          },
    timing: {
      entry_time: entryTime,
      bars_held: barsHeld,
      bars_held_at_least: atLeast,
      horizon_bars: horizon,
      horizon_exceeded: exceeded,
    },
    invalidation,
    excursion,
    plan_geometry:
      side === null || ref === null
        ? null
        : {
            hypothetical: true,
            plan_stop: ref.stop_loss,
            plan_target: ref.take_profits[0].price,
            unrealized_r_at_plan_stop: rMultiple(s, entry, mark, ref.stop_loss),
            remaining_rr_on_plan: remaining(s, mark, ref.stop_loss, ref.take_profits[0].price),
          },
    nearest_levels: { support: distance(support), resistance: distance(resistance) },
    published_at_entry:
      side === null || record === null || ref === null
        ? null
        : {
            published_time: record.published_time,
            timeframe: record.timeframe ?? null,
            entry_vs_published_pct: ((entry - ref.entry_price) / ref.entry_price) * 100,
            entry_inside_published_zone: ref.entry_zone.low <= entry && entry <= ref.entry_zone.high,
            unrealized_r_at_published_stop: rMultiple(s, entry, mark, ref.stop_loss),
            outcome: record.outcome ?? null,
            plan_realized_r: typeof record.realized_r === 'number' ? record.realized_r : null,
          },
    reference_plan: ref,
    warnings,
  };
}

/** Equal, numbers to 1e-9 relative (the documented formulas may round differently). */
function expectClose(actual: unknown, expected: unknown, path = 'assessment'): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      1e-9 * Math.max(1, Math.abs(expected)),
    );
  } else if (expected !== null && typeof expected === 'object' && actual !== null && typeof actual === 'object') {
    expect(Object.keys(actual).sort(), path).toEqual(Object.keys(expected).sort());
    for (const k of Object.keys(expected)) {
      expectClose((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
    }
  } else expect(actual, path).toEqual(expected);
}

/** A published plan on `side` around `entry`: zone, invalidation, stop and one or two targets. */
function plan(side: Direction, entry: number, u: number[], trade: boolean, horizon: number | null): TradePlan {
  const s = side === 'long' ? 1 : -1;
  const at = (k: number) => entry * (1 + s * k);
  return {
    direction: side,
    bias: side,
    reason: null,
    published_index: 0,
    published_time: 0,
    mark: entry,
    atr: 2,
    entry_type: trade ? 'market' : null,
    entry_zone: trade ? { low: Math.min(at(-u[0]), at(u[1])), high: Math.max(at(-u[0]), at(u[1])) } : null,
    entry_price: trade ? at(u[1] / 2) : null,
    invalidation: trade ? at(-u[2]) : null,
    stop_loss: trade ? at(-u[2] - 0.01) : null,
    take_profits: trade
      ? [
          { price: at(u[3]), size_pct: 70, risk_reward: 2, risk_reward_net: 2 },
          { price: at(2 * u[3]), size_pct: 30, risk_reward: 4, risk_reward_net: 4 },
        ]
      : [],
    risk_pct: 1,
    cost_pct: 0,
    horizon_bars: horizon,
    entry_window_bars: 5,
  };
}

const frac = (max: number) => fc.integer({ min: 0, max: 1000 }).map((x) => (x / 1000) * max);
const sides = fc.constantFrom<Direction | null>('long', 'short', 'long', 'short', null);

describe('assessPosition against its documentation', () => {
  const C = series(120);
  const SHORT = series(40, -0.3);
  const WARMUP = series(10);

  const draw = fc.record({
    candles: fc.constantFrom(C, C, C, SHORT, WARMUP),
    side: sides,
    // entry candle: an index (as a fraction of the series), before the candles, or unknown
    entryAt: fc.oneof(
      { weight: 4, arbitrary: frac(1) },
      { weight: 1, arbitrary: fc.constant(-1) },
      { weight: 1, arbitrary: fc.constant(Number.NaN) },
    ),
    entryOffset: fc.constantFrom(0, 3_600_000, DAY - 1),
    entryMove: frac(0.1).map((x) => x - 0.05),
    venue: fc.option(frac(0.2).map((x) => 0.9 + x)),
    stop: fc.option(
      fc.oneof(
        { weight: 8, arbitrary: frac(6).map((x) => x - 2) },
        { weight: 1, arbitrary: fc.constantFrom(-100, Number.NaN) },
      ),
    ),
    target: fc.option(frac(8).map((x) => x - 2)),
    liq: fc.option(frac(10).map((x) => x - 1)),
    synced: fc.boolean(),
    timeframe: fc.constantFrom<string | null | undefined>('d1', null, undefined),
    records: fc.array(
      fc.record({
        // mostly the position's side
        other: fc.constantFrom(false, false, false, true),
        lag: fc.integer({ min: -4, max: 1 }),
        closedAfter: fc.option(fc.integer({ min: -2, max: 4 })),
        timeframe: fc.constantFrom<string | null | undefined>('d1', 'h1', null, undefined),
        u: fc.array(frac(0.06), { minLength: 4, maxLength: 4 }),
        trade: fc.constantFrom(true, true, true, false),
        horizon: fc.option(fc.integer({ min: 1, max: 120 })),
        outcome: fc.constantFrom<PlanOutcome | null | undefined>('tp_hit', 'entered', null, undefined),
        realized: fc.option(frac(4).map((x) => x - 1)),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    options: fc.record({
      atrPeriod: fc.constantFrom(undefined, 5, 14),
      stopNoiseAtr: fc.constantFrom(undefined, 0, 0.8, 2),
      liquidationNoiseAtr: fc.constantFrom(undefined, 0.5, 3),
    }),
  });

  it('rebuilds every field from the documented rules', () => {
    fc.assert(
      fc.property(draw, (d) => {
        const c = d.candles;
        const n = c.close.length;
        const idx = Number.isNaN(d.entryAt) ? null : d.entryAt < 0 ? -1 : Math.round(d.entryAt * (n - 1));
        const openedAt = idx === null ? null : idx < 0 ? T0 - 5 * DAY : c.time[idx] + d.entryOffset;
        const entry = c.close[Math.max(0, idx ?? n - 20)] * (1 + d.entryMove);
        const mark = d.venue === null ? c.close[n - 1] : c.close[n - 1] * d.venue;
        const s = d.side === 'short' ? -1 : 1;
        const a = 2; // about the fixtures' ATR: levels a few ATRs around the mark
        const around = (k: number) => mark - s * k * a;
        const position: AssessedPosition = {
          asset: { id: 'x' },
          side: d.side,
          entry_price: entry,
          current_price: d.venue === null ? null : mark,
          opened_at: openedAt === null ? null : d.side === 'short' ? new Date(openedAt).toISOString() : openedAt,
          stop_loss: d.stop === null ? null : Number.isNaN(d.stop) || d.stop === -100 ? d.stop : around(d.stop),
          take_profit: d.target === null ? null : around(-d.target),
          protective_levels_synced_at: d.synced ? T0 : null,
          liquidation_price: d.liq === null ? null : around(d.liq),
        };
        const ref = idx === null ? n - 1 : Math.max(0, idx);
        const records: PublishedPlanRecord[] = d.records.map((r) => {
          const published = c.time[Math.min(n - 1, Math.max(0, ref + r.lag))] + ((openedAt ?? 0) % DAY);
          return {
            published_time: published,
            timeframe: r.timeframe,
            plan: plan((d.side === 'short') !== r.other ? 'short' : 'long', entry, r.u, r.trade, r.horizon),
            outcome: r.outcome as PlanOutcome | null,
            realized_r: r.realized,
            closed_time: r.closedAfter === null ? null : published + r.closedAfter * DAY,
          };
        });
        const inp: AssessmentInput = { position, candles: c, timeframe: d.timeframe, published_plans: records };
        const opts: AssessmentOptions = {};
        if (d.options.atrPeriod !== undefined) opts.atrPeriod = d.options.atrPeriod;
        if (d.options.stopNoiseAtr !== undefined) opts.stopNoiseAtr = d.options.stopNoiseAtr;
        if (d.options.liquidationNoiseAtr !== undefined) opts.liquidationNoiseAtr = d.options.liquidationNoiseAtr;
        expectClose(assessPosition(inp, opts), byHand(inp, opts));
      }),
      { numRuns: 200 },
    );
  });
});

describe('assessPosition at its edges', () => {
  const C = series(120);
  const N = C.close.length;
  const MARK = C.close[N - 1];
  const ENTRY_INDEX = 80;
  const ENTRY = C.close[ENTRY_INDEX];
  const ENTRY_TIME = C.time[ENTRY_INDEX] + 3_600_000;

  function position(over: Partial<AssessedPosition> = {}): AssessedPosition {
    return {
      asset: { id: 'x' },
      side: 'long',
      entry_price: ENTRY,
      current_price: null,
      opened_at: ENTRY_TIME,
      stop_loss: ENTRY - 5,
      take_profit: MARK + 10,
      protective_levels_synced_at: T0,
      liquidation_price: ENTRY - 30,
      ...over,
    };
  }
  const input = (over: Partial<AssessedPosition> = {}, extra: Partial<AssessmentInput> = {}): AssessmentInput => ({
    position: position(over),
    candles: C,
    timeframe: 'd1',
    ...extra,
  });
  const longPlan = (over: Partial<TradePlan> = {}): TradePlan => ({
    ...plan('long', ENTRY, [0.01, 0.01, 0.03, 0.05], true, 500),
    ...over,
  });
  const rec = (over: Partial<PublishedPlanRecord> = {}, p: Partial<TradePlan> = {}): PublishedPlanRecord => ({
    published_time: ENTRY_TIME - DAY,
    timeframe: 'd1',
    plan: longPlan(p),
    outcome: 'entered',
    realized_r: null,
    closed_time: null,
    ...over,
  });
  const withPlans = (records: PublishedPlanRecord[], over: Partial<AssessedPosition> = {}) =>
    assessPosition(input(over, { published_plans: records }));

  it('names the bad input in its errors', () => {
    const e = (inp: unknown, o?: AssessmentOptions) => caught(() => assessPosition(inp as AssessmentInput, o));
    for (const bad of [null, 'x', { position: null }, { position: 3 }]) {
      expect([e(bad).field, e(bad).message]).toEqual(['position', 'input.position must be a position object']);
    }
    expect(e(input({ side: 'up' as Direction })).message).toBe("position.side must be 'long', 'short' or null, got up");
    const t = e(input({ opened_at: 'yesterday' }));
    expect([t.field, t.message]).toEqual([
      'opened_at',
      'position.opened_at must be a date-time or ms time, got yesterday',
    ]);
    expect(e(input({ opened_at: Number.NaN })).field).toBe('opened_at');
    expect(e(input({ protective_levels_synced_at: Number.POSITIVE_INFINITY })).field).toBe(
      'protective_levels_synced_at',
    );
    expect(e(input(), { atrPeriod: 0 }).field).toBe('atrPeriod');
    expect(e(input(), { stopNoiseAtr: -1 }).field).toBe('stopNoiseAtr');
    expect(e(input(), { liquidationNoiseAtr: -1 }).field).toBe('liquidationNoiseAtr');
    expect(e(input({}, { published_plans: 'x' as unknown as [] })).message).toBe('published_plans must be an array');
    for (const p of [null, 3]) {
      const bad = e(input({}, { published_plans: [{ ...rec(), plan: p as unknown as TradePlan }] }));
      expect([bad.field, bad.index, bad.message]).toEqual(['plan', 0, 'published_plans[0].plan must be a trade plan']);
    }
  });

  it('gives each 422 its message', () => {
    const reason = (inp: AssessmentInput) => {
      try {
        assessPosition(inp);
      } catch (err) {
        return (err as Error).message;
      }
      return null;
    };
    expect(reason(input({ asset: null }))).toBe('the position is unpriced and maps to no tracked asset');
    expect(reason({ position: position(), candles: null })).toBe('the position is unpriced and no candles were given');
    expect(reason({ position: position(), candles: toColumns([]) })).toBe(
      'the position is unpriced and no candles were given',
    );
    expect(reason(input({ entry_price: 0 }))).toBe('entry price 0 is not a positive price');
    expect(reason(input({ entry_price: Number.POSITIVE_INFINITY }))).toBe(
      'entry price Infinity is not a positive price',
    );
    expect(reason(input({ current_price: -2 }))).toBe('mark -2 is not a positive price');
  });

  it('reads undefined like null for the side, the times and the stop, and empty candles like none', () => {
    const a = assessPosition(input({ side: undefined as unknown as null, opened_at: undefined as unknown as null }));
    expect([a.direction, a.timing.entry_time, a.reference_plan]).toEqual([null, null, null]);
    const noStop = assessPosition(input({ stop_loss: undefined as unknown as null }));
    expect(noStop.warnings).toEqual(['no_stop_recorded']);
    expect(assessPosition(input({ protective_levels_synced_at: undefined as unknown as null })).warnings).toEqual([
      'protective_levels_not_synced',
    ]);
    // an infinite stop is recorded but is not a price
    const inf = assessPosition(input({ stop_loss: Number.POSITIVE_INFINITY }));
    expect([inf.stop_loss, inf.warnings]).toEqual([null, ['stop_unusable']]);
    const empty = assessPosition({ position: position({ current_price: 150 }), candles: toColumns([]) });
    expect([
      empty.as_of,
      empty.atr,
      empty.nearest_levels,
      empty.reference_plan,
      empty.timing.bars_held_at_least,
    ]).toEqual([null, null, null, null, 0]);
  });

  it('takes a plan published or closed exactly at the entry as in force or not, and needs every trade field', () => {
    const at = withPlans([rec({ published_time: ENTRY_TIME })]);
    expect([at.reference_plan?.source, at.published_at_entry?.published_time]).toEqual(['published', ENTRY_TIME]);
    expect(withPlans([rec({ closed_time: ENTRY_TIME })]).reference_plan?.source).not.toBe('published');
    expect(withPlans([rec({ closed_time: ENTRY_TIME + 1 })]).reference_plan?.source).toBe('published');
    // the same publication time: the later record
    const tie = withPlans([rec({ outcome: 'tp_hit' }), rec({ outcome: 'expired' })]);
    expect(tie.published_at_entry?.outcome).toBe('expired');
    // a record without a timeframe, or an input without one, matches any
    expect(withPlans([rec({ timeframe: null })]).reference_plan?.source).toBe('published');
    expect(
      assessPosition(input({}, { published_plans: [rec({ timeframe: 'h1' })], timeframe: null })).reference_plan
        ?.source,
    ).toBe('published');
    expect(withPlans([rec({ timeframe: 'h1' })]).reference_plan?.source).not.toBe('published');
    for (const missing of ['entry_zone', 'entry_price', 'invalidation', 'stop_loss'] as const) {
      const a = withPlans([rec({}, { [missing]: null })]);
      expect([a.reference_plan?.source, a.published_at_entry], missing).toEqual(['entry_structure', null]);
    }
    expect(withPlans([rec({}, { take_profits: [] })]).reference_plan?.source).toBe('entry_structure');
  });

  it('counts a close or mark exactly on the invalidation as not beyond it', () => {
    let low = Number.POSITIVE_INFINITY;
    for (let i = ENTRY_INDEX; i < N; i++) low = Math.min(low, C.close[i]);
    const on = withPlans([rec({}, { invalidation: low, stop_loss: low - 1 })], { current_price: low });
    expect([on.thesis_status, on.invalidation?.breached_at, on.invalidation?.signed_distance_pct]).toEqual([
      'intact',
      null,
      0,
    ]);
    const below = withPlans([rec({}, { invalidation: low, stop_loss: low - 1 })], { current_price: low - 0.01 });
    expect(below.thesis_status).toBe('invalidated');
  });

  it('places a stop on the edges of the entry zone, the invalidation, the entry and the opposing zones', () => {
    const zone = longPlan().entry_zone as { low: number; high: number };
    const inv = longPlan().invalidation as number;
    const place = (stop: number) => withPlans([rec()], { stop_loss: stop }).stop_placement;
    expect(place(zone.low)?.inside_entry_zone).toBe(true);
    expect(place(zone.high)?.inside_entry_zone).toBe(true);
    expect(place(inv)?.beyond_invalidation).toBe(false);
    expect(place(inv - 0.01)?.beyond_invalidation).toBe(true);
    expect(place(ENTRY)?.breakeven_or_better).toBe(true);
    expect(place(ENTRY - 0.01)?.breakeven_or_better).toBe(false);
    const zones = supportResistance(C, { atr: atr(C, { period: 14 }) }).zones;
    for (const z of zones) {
      const own = z.mid > MARK ? 'short' : 'long';
      const other = z.mid > MARK ? 'long' : 'short';
      for (const stop of [z.low, z.mid, z.high]) {
        const opposing = assessPosition(input({ side: other, stop_loss: stop, liquidation_price: null }));
        expect(opposing.stop_placement?.inside_opposing_zone, `${other} ${stop}`).toBe(true);
        const mine = assessPosition(input({ side: own, stop_loss: stop, liquidation_price: null }));
        expect(mine.stop_placement?.inside_opposing_zone, `${own} ${stop}`).toBe(false);
      }
    }
  });

  it('counts a horizon reached but not passed as not exceeded, and unknown when the entry is before the candles', () => {
    const held = N - ENTRY_INDEX;
    expect(withPlans([rec({}, { horizon_bars: held })]).timing).toMatchObject({
      bars_held: held,
      horizon_exceeded: false,
    });
    expect(withPlans([rec({}, { horizon_bars: held - 1 })]).timing.horizon_exceeded).toBe(true);
    const early = { opened_at: T0 - 5 * DAY };
    const before = (h: number) => withPlans([rec({ published_time: T0 - 6 * DAY }, { horizon_bars: h })], early).timing;
    expect(before(N)).toMatchObject({ bars_held: null, bars_held_at_least: N, horizon_exceeded: null });
    expect(before(N - 1).horizon_exceeded).toBe(true);
    // an entry on the first candle is inside the candles
    expect(assessPosition(input({ opened_at: C.time[0] })).timing).toMatchObject({
      bars_held: N,
      bars_held_at_least: N,
    });
  });

  it('dates the favourable peak to its first candle', () => {
    const rows = Array.from({ length: 30 }, (_, i) => {
      const high = i === 22 || i === 25 ? 110 : 104;
      return { time: T0 + i * DAY, open: 100, high, low: 98, close: 100, volume: 1 };
    });
    const c = toColumns(rows);
    const ex = (mark: number | null) =>
      assessPosition({
        position: position({
          entry_price: 100,
          opened_at: c.time[20],
          current_price: mark,
          stop_loss: null,
          liquidation_price: null,
        }),
        candles: c,
      }).excursion;
    expect(ex(null)).toMatchObject({ mfe_pct: 10, mae_pct: 2, bars_since_peak: 29 - 22, current_over_peak: 0 });
    // a mark at the peak does not move it
    expect(ex(110)).toMatchObject({ bars_since_peak: 29 - 22, current_over_peak: 1 });
    expect(ex(111)).toMatchObject({ bars_since_peak: 0, current_over_peak: 1 });
  });

  it('puts a zone whose middle is the mark among the supports', () => {
    const zones = supportResistance(C, { atr: atr(C, { period: 14 }) }).zones;
    expect(zones.length).toBeGreaterThan(0);
    for (const z of zones) {
      const a = assessPosition(input({ current_price: z.mid, stop_loss: null, liquidation_price: null }));
      expect(a.nearest_levels?.support).toMatchObject({ mid: z.mid, distance_pct: 0, distance_atr: 0 });
    }
  });

  it('warns at the exact bounds: a stop at the mark or the liquidation, a target at the mark', () => {
    expect(assessPosition(input({ current_price: ENTRY - 5 })).warnings).toContain('stop_wrong_side');
    expect(assessPosition(input({ liquidation_price: ENTRY - 5 })).warnings).toContain('stop_unusable');
    expect(assessPosition(input({ take_profit: MARK })).remaining_rr).toBe(0);
    const a = assessPosition(input()).atr as number;
    // a distance of exactly k ATRs is not within a noise of k ATRs
    let k = 1;
    while (MARK - (MARK - k * a) !== k * a) k++;
    expect(assessPosition(input({ stop_loss: MARK - k * a }), { stopNoiseAtr: k }).warnings).toEqual([]);
    expect(assessPosition(input({ stop_loss: MARK - k * a }), { stopNoiseAtr: k * 1.001 }).warnings).toEqual([
      'stop_within_noise',
    ]);
    const liq = (l: number, side: Direction | null, o: AssessmentOptions = {}) =>
      assessPosition(input({ liquidation_price: l, side, stop_loss: null }), o).warnings.includes(
        'liquidation_within_noise',
      );
    expect(liq(MARK - k * a, 'long', { liquidationNoiseAtr: k })).toBe(false);
    expect(liq(MARK - k * a, 'long', { liquidationNoiseAtr: k * 1.001 })).toBe(true);
    // beyond the mark on the wrong side: within noise for the side, not by absolute distance
    expect(liq(MARK + 2 * a, 'long')).toBe(true);
    expect(liq(MARK + 2 * a, null)).toBe(false);
    expect(liq(MARK + 0.5 * a, null)).toBe(true);
    expect(liq(MARK - 0.5 * a, null)).toBe(true);
    // without an ATR (warm-up) there is no noise to be within
    const w = series(10);
    expect(
      assessPosition({
        position: position({ liquidation_price: w.close[9] + 1, entry_price: w.close[5], opened_at: w.time[5] }),
        candles: w,
      }).warnings,
    ).not.toContain('liquidation_within_noise');
  });

  it('checks the published entry against the zone edges', () => {
    const zone = longPlan().entry_zone as { low: number; high: number };
    const inside = (entry: number) =>
      withPlans([rec({}, { entry_zone: { ...zone } })], { entry_price: entry }).published_at_entry
        ?.entry_inside_published_zone;
    expect([inside(zone.low), inside(zone.high), inside(zone.low - 0.01), inside(zone.high + 0.01)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('assessPosition at its edges, continued', () => {
  it('needs the close column of candles it is given', () => {
    const c = series(40);
    const { close: _, ...noClose } = c;
    const e = caught(() =>
      assessPosition({
        position: {
          asset: { id: 'x' },
          side: 'long',
          entry_price: 100,
          current_price: 100,
          opened_at: null,
          stop_loss: null,
          take_profit: null,
          protective_levels_synced_at: null,
          liquidation_price: null,
        },
        candles: noClose as unknown as Candles,
      }),
    );
    expect(e.message).toBe('candles must be an object of columns time, open, high, low, close, volume');
  });

  it('has no entry candle without an entry time, even for candles from time 0', () => {
    const rows = Array.from({ length: 40 }, (_, i) => {
      const p = 100 + Math.sin(i / 3);
      return { time: i * DAY, open: p, high: p + 1, low: p - 1, close: p, volume: 1 };
    });
    const a = assessPosition({
      position: {
        asset: { id: 'x' },
        side: 'long',
        entry_price: 100,
        current_price: null,
        opened_at: null,
        stop_loss: null,
        take_profit: null,
        protective_levels_synced_at: null,
        liquidation_price: null,
      },
      candles: toColumns(rows),
    });
    expect([a.timing.bars_held, a.timing.bars_held_at_least, a.excursion]).toEqual([null, 1, null]);
  });

  it('does not count a zone whose middle is the mark as opposing, either side', () => {
    const c = series(120);
    const zones = supportResistance(c, { atr: atr(c, { period: 14 }) }).zones;
    expect(zones.length).toBeGreaterThan(0);
    for (const z of zones) {
      for (const side of ['long', 'short'] as const) {
        const a = assessPosition({
          position: {
            asset: { id: 'x' },
            side,
            entry_price: z.mid,
            current_price: z.mid,
            opened_at: null,
            stop_loss: side === 'long' ? z.low : z.high,
            take_profit: null,
            protective_levels_synced_at: T0,
            liquidation_price: null,
          },
          candles: c,
        });
        expect(a.stop_placement?.inside_opposing_zone, `${side} ${z.mid}`).toBe(false);
      }
    }
  });
});
