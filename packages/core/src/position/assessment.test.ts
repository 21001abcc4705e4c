import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AssessmentError, type AssessmentErrorReason } from '../assessment-error.js';
import { supportResistance } from '../levels/zones.js';
import type { TradePlan } from '../plan/plan.js';
import { normalizePosition } from '../portfolio/positions.js';
import { positionInput } from '../portfolio/test-fixtures.js';
import { expectInputError } from '../testing/bad-input.js';
import { gridCandleSeries, mirrorCandles } from '../testing/mirror.js';
import { candlesPast, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import type { Candles } from '../types.js';
import {
  type AssessedPosition,
  type AssessmentInput,
  type AssessmentOptions,
  assessPosition,
  POSITION_WARNINGS,
  type PositionAssessment,
  type PublishedPlanRecord,
} from './assessment.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

/** 200 daily candles: an uptrend of 0.15 a day with a 6-point swing (mark about 135.75). */
function series(n = 200): Candles {
  const at = (i: number): number => 100 + 0.15 * i + 6 * Math.sin(i / 6);
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

const C = series();
const N = C.close.length;
const MARK = C.close[N - 1];
const ENTRY_INDEX = 150;
const ENTRY = C.close[ENTRY_INDEX];
const ATR = assessPosition(input()).atr ?? Number.NaN;

function position(over: Partial<AssessedPosition> = {}): AssessedPosition {
  return {
    asset: { id: 'bitcoin' },
    side: 'long',
    entry_price: ENTRY,
    current_price: null,
    opened_at: C.time[ENTRY_INDEX] + 3_600_000,
    stop_loss: 118,
    take_profit: 140,
    protective_levels_synced_at: '2024-07-01T00:00:00Z',
    liquidation_price: 100,
    ...over,
  };
}

function input(over: Partial<AssessedPosition> = {}, extra: Partial<AssessmentInput> = {}): AssessmentInput {
  return { position: position(over), candles: C, timeframe: 'd1', ...extra };
}

/** A published long plan around the entry. */
function publishedPlan(over: Partial<TradePlan> = {}): TradePlan {
  return {
    direction: 'long',
    bias: 'long',
    reason: null,
    published_index: ENTRY_INDEX - 2,
    published_time: C.time[ENTRY_INDEX - 2],
    mark: 122,
    atr: 2,
    entry_type: 'market',
    entry_zone: { low: 120, high: 122 },
    entry_price: 122,
    invalidation: 119,
    stop_loss: 118.5,
    take_profits: [
      { price: 130, size_pct: 70, risk_reward: 8 / 3.5, risk_reward_net: 8 / 3.5 },
      { price: 150, size_pct: 30, risk_reward: 28 / 3.5, risk_reward_net: 28 / 3.5 },
    ],
    risk_pct: (3.5 / 122) * 100,
    cost_pct: 0,
    horizon_bars: 40,
    entry_window_bars: 5,
    ...over,
  };
}

function record(over: Partial<PublishedPlanRecord> = {}, plan: Partial<TradePlan> = {}): PublishedPlanRecord {
  return {
    published_time: C.time[ENTRY_INDEX - 1],
    timeframe: 'd1',
    plan: publishedPlan(plan),
    outcome: 'tp_hit',
    realized_r: 1.9,
    closed_time: null,
    ...over,
  };
}

/** Every number in the object is finite. */
function expectFinite(x: unknown, path = 'assessment'): void {
  if (typeof x === 'number') expect(Number.isFinite(x), path).toBe(true);
  else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) expectFinite(x[i], `${path}[${i}]`);
  } else if (x !== null && typeof x === 'object')
    for (const [k, v] of Object.entries(x)) expectFinite(v, `${path}.${k}`);
}

function get(a: PositionAssessment, path: string): unknown {
  let x: unknown = a;
  for (const k of path.split('.')) x = x === null || x === undefined ? x : (x as Record<string, unknown>)[k];
  return x;
}

describe('assessPosition', () => {
  it('describes a long in profit against the structure at its entry (worked example)', () => {
    const a = assessPosition(input());
    expectFinite(a);
    expect(a).toMatchObject({
      direction: 'long',
      mark: MARK,
      mark_source: 'candle',
      entry_price: ENTRY,
      thesis_status: 'intact',
      warnings: [],
      timing: { bars_held: 50, bars_held_at_least: 50 },
      reference_plan: { source: 'entry_structure', published_time: C.time[ENTRY_INDEX - 1] },
      published_at_entry: null,
    });
    expect(a.unrealized_r).toBeCloseTo((MARK - ENTRY) / (ENTRY - 118), 12);
    expect(a.remaining_rr).toBeCloseTo((140 - MARK) / (MARK - 118), 12);
    expect(a.liquidation_risk?.abs_distance_pct).toBeCloseTo(((MARK - 100) / MARK) * 100, 12);
    expect(a.stop_placement?.noise_distance_atr).toBeCloseTo((MARK - 118) / ATR, 12);
    expect(a.excursion?.mfe_pct).toBeGreaterThan(0);
    // Descriptive only: no action, suggested stop or confidence anywhere.
    expect(JSON.stringify(a)).not.toMatch(/action|suggest|confidence/);
  });

  it('prefers the venue mark, and takes a normalized PositionExtended as is', () => {
    const p = normalizePosition(
      positionInput({ entry_price: ENTRY, mark_price: 130, opened_at: C.time[ENTRY_INDEX], stop_loss: 118 }),
    );
    const a = assessPosition({ position: p, candles: C });
    expect(a.mark).toBe(130);
    expect(a.mark_source).toBe('venue');
    expect(a.unrealized_r).toBeCloseTo((130 - ENTRY) / (ENTRY - 118), 12);
  });

  // Every warning: [name, position override, options, expected warnings]
  const warningCases: [string, Partial<AssessedPosition>, AssessmentOptions, string[]][] = [
    ['none', {}, {}, []],
    ['no_stop_recorded', { stop_loss: null }, {}, ['no_stop_recorded']],
    ['protective_levels_not_synced', { protective_levels_synced_at: null }, {}, ['protective_levels_not_synced']],
    [
      'no stop and never synced: both (a null stop is then no evidence)',
      { stop_loss: null, protective_levels_synced_at: null },
      {},
      ['no_stop_recorded', 'protective_levels_not_synced'],
    ],
    ['stop_unusable: not a positive price', { stop_loss: 0 }, {}, ['stop_unusable']],
    ['stop_unusable: direction unknown', { side: null }, {}, ['stop_unusable']],
    ['stop_unusable: liquidation comes first', { liquidation_price: 119 }, {}, ['stop_unusable']],
    ['stop_wrong_side: long stop above the mark', { stop_loss: MARK + 1 }, {}, ['stop_wrong_side']],
    [
      'stop_wrong_side: short stop below the mark',
      { side: 'short', stop_loss: MARK - 1, liquidation_price: 200 },
      {},
      ['stop_wrong_side'],
    ],
    ['stop_within_noise', { stop_loss: MARK - 0.3 * ATR }, {}, ['stop_within_noise']],
    [
      'stop_within_noise: short',
      { side: 'short', stop_loss: MARK + 0.3 * ATR, liquidation_price: 200 },
      {},
      ['stop_within_noise'],
    ],
    ['stop outside noise with a tighter setting', { stop_loss: MARK - 0.3 * ATR }, { stopNoiseAtr: 0.2 }, []],
    [
      'liquidation_within_noise',
      { liquidation_price: MARK - 0.5 * ATR, stop_loss: MARK - 0.45 * ATR },
      { stopNoiseAtr: 0.1 },
      ['liquidation_within_noise'],
    ],
    ['liquidation_within_noise: wider setting', {}, { liquidationNoiseAtr: 20 }, ['liquidation_within_noise']],
    [
      'liquidation past the mark (short)',
      { side: 'short', stop_loss: null, liquidation_price: MARK - 1 },
      {},
      ['no_stop_recorded', 'liquidation_within_noise'],
    ],
  ];
  it.each(warningCases)('warning: %s', (_, over, options, expected) => {
    const a = assessPosition(input(over), options);
    expect(a.warnings).toEqual(expected);
    expect(POSITION_WARNINGS.filter((w) => a.warnings.includes(w))).toEqual(a.warnings); // fixed order
    expectFinite(a);
  });

  const warmup = series(10);
  // Every null rule: [name, input, paths expected null, paths expected non-null]
  const nullCases: [string, AssessmentInput, string[], string[]][] = [
    [
      'no stop',
      input({ stop_loss: null }),
      ['unrealized_r', 'remaining_rr', 'stop_placement', 'stop_loss'],
      ['plan_geometry'],
    ],
    ['stop at breakeven', input({ stop_loss: ENTRY }), ['unrealized_r'], ['remaining_rr', 'stop_placement']],
    ['stop better than breakeven', input({ stop_loss: ENTRY + 2 }), ['unrealized_r'], ['remaining_rr']],
    ['no take-profit', input({ take_profit: null }), ['remaining_rr'], ['unrealized_r']],
    ['mark past the target', input({ take_profit: MARK - 1 }), ['remaining_rr'], ['unrealized_r']],
    [
      'mark past the stop (a stop above a long entry)',
      input({ stop_loss: MARK + 1 }),
      ['remaining_rr', 'unrealized_r'],
      ['stop_placement'],
    ],
    [
      'direction unknown',
      input({ side: null }),
      [
        'direction',
        'unrealized_r',
        'remaining_rr',
        'stop_placement',
        'excursion',
        'plan_geometry',
        'published_at_entry',
        'invalidation',
        'reference_plan',
        'entry_vs_plan_pct',
      ],
      ['liquidation_risk.abs_distance_pct', 'nearest_levels', 'timing.bars_held'],
    ],
    [
      'entry time unknown',
      input({ opened_at: null }),
      [
        'excursion',
        'timing.bars_held',
        'timing.entry_time',
        'timing.horizon_exceeded',
        'timing.horizon_bars',
        'published_at_entry',
      ],
      ['reference_plan', 'invalidation', 'plan_geometry'],
    ],
    [
      'candles do not reach the entry',
      input({ opened_at: T0 - 5 * DAY }),
      ['excursion', 'timing.bars_held'],
      ['timing.bars_held_at_least', 'reference_plan'],
    ],
    ['no liquidation price', input({ liquidation_price: null }), ['liquidation_risk'], []],
    [
      'ATR warm-up',
      {
        position: position({ entry_price: warmup.close[5], opened_at: warmup.time[5], stop_loss: 90 }),
        candles: warmup,
      },
      [
        'atr',
        'liquidation_risk.abs_distance_atr',
        'stop_placement.noise_distance_atr',
        'excursion.mfe_atr',
        'excursion.mae_atr',
        'reference_plan',
      ],
      ['liquidation_risk.abs_distance_pct', 'stop_placement', 'excursion.mfe_pct', 'timing.bars_held'],
    ],
    [
      'priced, without asset or candles',
      { position: position({ asset: null, current_price: 130 }), candles: null },
      [
        'as_of',
        'atr',
        'nearest_levels',
        'excursion',
        'reference_plan',
        'invalidation',
        'timing.bars_held',
        'stop_placement.inside_opposing_zone',
        'stop_placement.inside_entry_zone',
      ],
      ['unrealized_r', 'remaining_rr', 'liquidation_risk.abs_distance_pct'],
    ],
    [
      'no published plan matches',
      input({}, { published_plans: [record({}, { direction: 'short' })] }),
      ['published_at_entry'],
      [],
    ],
    [
      'plan geometry: plan stop above a long entry',
      input(
        {},
        {
          published_plans: [
            record(
              {},
              {
                stop_loss: ENTRY + 1,
                invalidation: ENTRY + 1.5,
                take_profits: [{ price: 150, size_pct: 100, risk_reward: 5, risk_reward_net: 5 }],
              },
            ),
          ],
        },
      ),
      ['plan_geometry.unrealized_r_at_plan_stop', 'published_at_entry.unrealized_r_at_published_stop'],
      ['plan_geometry', 'plan_geometry.remaining_rr_on_plan'],
    ],
    [
      'plan geometry: mark past the plan target',
      input(
        {},
        {
          published_plans: [
            record({}, { take_profits: [{ price: 130, size_pct: 100, risk_reward: 2, risk_reward_net: 2 }] }),
          ],
        },
      ),
      ['plan_geometry.remaining_rr_on_plan'],
      ['plan_geometry.unrealized_r_at_plan_stop'],
    ],
    [
      'excursion peak of zero',
      input({ side: 'short', stop_loss: 200, liquidation_price: 300, entry_price: 100 }),
      ['excursion.current_over_peak'],
      ['excursion.mae_pct'],
    ],
  ];
  it.each(nullCases)('null rule: %s', (_, inp, nulls, present) => {
    const a = assessPosition(inp);
    expectFinite(a);
    for (const p of nulls) expect(get(a, p), p).toBeNull();
    for (const p of present) {
      expect(get(a, p), p).not.toBeNull();
      expect(get(a, p), p).not.toBeUndefined();
    }
  });

  it('reports the lower bounds of timing when the entry is unknown or before the candles', () => {
    expect(assessPosition(input({ opened_at: null })).timing.bars_held_at_least).toBe(1);
    const before = assessPosition(input({ opened_at: T0 - 5 * DAY }), {}).timing;
    expect(before.bars_held_at_least).toBe(N);
    const p = assessPosition(
      input({ opened_at: T0 - 5 * DAY }, { published_plans: [record({ published_time: T0 - 6 * DAY })] }),
    );
    expect(p.timing).toMatchObject({
      bars_held: null,
      bars_held_at_least: N,
      horizon_bars: 40,
      horizon_exceeded: true,
    });
    expect(
      assessPosition({ position: position({ current_price: 130 }), candles: null }).timing.bars_held_at_least,
    ).toBe(0);
  });

  it('matches the published plan in force at entry and measures against it', () => {
    const plans = [
      record({ published_time: C.time[ENTRY_INDEX - 30], realized_r: -1 }), // older
      record(), // in force: the latest published at or before the entry
      record({ published_time: C.time[ENTRY_INDEX + 1] }), // after the entry
      record({ published_time: C.time[ENTRY_INDEX], closed_time: C.time[ENTRY_INDEX] + 1 }), // closed before the entry
      record({ published_time: C.time[ENTRY_INDEX], timeframe: 'h1' }), // another timeframe
      record({ published_time: C.time[ENTRY_INDEX] }, { direction: 'short' }), // the other side
    ];
    const a = assessPosition(input({}, { published_plans: plans }));
    expect(a.reference_plan?.source).toBe('published');
    expect(a.published_at_entry).toEqual({
      published_time: C.time[ENTRY_INDEX - 1],
      timeframe: 'd1',
      entry_vs_published_pct: ((ENTRY - 122) / 122) * 100,
      entry_inside_published_zone: true,
      unrealized_r_at_published_stop: (MARK - ENTRY) / (ENTRY - 118.5),
      outcome: 'tp_hit',
      plan_realized_r: 1.9,
    });
    expect(a.entry_vs_plan_pct).toBe(a.published_at_entry?.entry_vs_published_pct);
    expect(a.timing).toMatchObject({ horizon_bars: 40, horizon_exceeded: true });
    expect(a.plan_geometry).toMatchObject({ hypothetical: true, plan_stop: 118.5, plan_target: 130 });
    expect(a.stop_placement).toMatchObject({
      beyond_invalidation: true,
      inside_entry_zone: false,
      breakeven_or_better: false,
    });
  });

  it('invalidates the thesis once a close since the entry is beyond the invalidation level', () => {
    let low = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = ENTRY_INDEX; i < N; i++) {
      if (C.close[i] < low) {
        low = C.close[i];
        at = i;
      }
    }
    const broken = assessPosition(
      input({}, { published_plans: [record({}, { invalidation: low + 1e-9, stop_loss: low - 1 })] }),
    );
    expect(broken.thesis_status).toBe('invalidated');
    expect(broken.invalidation?.breached_at).toBeLessThanOrEqual(C.time[at]);
    expect(broken.invalidation?.signed_distance_pct).toBeGreaterThan(0); // recovered since: still invalidated
    const held = assessPosition(
      input({}, { published_plans: [record({}, { invalidation: low - 1e-9, stop_loss: low - 1 })] }),
    );
    expect(held.thesis_status).toBe('intact');
    expect(held.invalidation?.breached_at).toBeNull();
    expect(assessPosition(input({ opened_at: null })).thesis_status).toBe('unknown'); // current plan only
    expect(assessPosition(input({ side: null })).thesis_status).toBe('unknown');
  });

  it('reconstructs the entry-time plan from candles before the entry only (no look-ahead)', () => {
    const cut = (c: Candles, len: number): Candles => ({
      time: c.time.slice(0, len),
      open: c.open.slice(0, len),
      high: c.high.slice(0, len),
      low: c.low.slice(0, len),
      close: c.close.slice(0, len),
      volume: c.volume.slice(0, len),
    });
    const full = assessPosition(input({ current_price: 130 }));
    const early = assessPosition({ ...input({ current_price: 130 }), candles: cut(C, ENTRY_INDEX + 1) });
    expect(full.reference_plan?.source).toBe('entry_structure');
    expect(early.reference_plan).toEqual(full.reference_plan);
  });

  it('places the stop relative to the entry zone and the opposing zones', () => {
    const inZone = assessPosition(input({ stop_loss: 121 }, { published_plans: [record()] }));
    expect(inZone.stop_placement).toMatchObject({ inside_entry_zone: true, beyond_invalidation: false });
    const zones = supportResistance(C).zones;
    const above = zones.find((z) => z.mid > MARK);
    if (above !== undefined) {
      const a = assessPosition(input({ side: 'long', stop_loss: above.mid, liquidation_price: 50 }));
      expect(a.stop_placement?.inside_opposing_zone).toBe(true);
    }
    const short = assessPosition(input({ side: 'short', stop_loss: 150, liquidation_price: 200 }));
    expect(short.stop_placement?.inside_opposing_zone).toBe(false);
    expect(short.unrealized_r).toBeCloseTo((MARK - ENTRY) / (ENTRY - 150), 12);
  });

  const errors: [string, AssessmentInput, AssessmentErrorReason][] = [
    ['unpriced, no asset', input({ asset: null, current_price: null }), 'unpriced_without_asset'],
    [
      'unpriced, no asset, no candles',
      { position: position({ asset: null }), candles: null },
      'unpriced_without_asset',
    ],
    ['unpriced, no candles', { position: position(), candles: null }, 'unpriced_without_candles'],
    ['entry 0', input({ entry_price: 0 }), 'entry_not_positive'],
    ['entry null', input({ entry_price: null }), 'entry_not_positive'],
    ['entry negative', input({ entry_price: -5 }), 'entry_not_positive'],
    ['mark 0', input({ current_price: 0 }), 'mark_not_positive'],
    ['mark NaN', input({ current_price: Number.NaN }), 'mark_not_positive'],
  ];
  it.each(errors)('422 with a reason: %s', (_, inp, reason) => {
    let caught: unknown;
    try {
      assessPosition(inp);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AssessmentError);
    expect((caught as AssessmentError).reason).toBe(reason);
    expect((caught as AssessmentError).code).toBe('position_not_assessable');
  });

  it('rejects malformed input with an InputError', () => {
    expectInputError(() => assessPosition(input({ side: 'up' as 'long' })), 'invalid_option');
    expectInputError(() => assessPosition(input({ opened_at: 'yesterday' })), 'invalid_option');
    expectInputError(() => assessPosition(input(), { atrPeriod: 0 }), 'invalid_option');
    expectInputError(() => assessPosition(input(), { stopNoiseAtr: -1 }), 'invalid_option');
    expectInputError(
      () => assessPosition({ ...input(), candles: { ...C, high: C.high.subarray(1) } }),
      'length_mismatch',
    );
    expectInputError(
      () => assessPosition(input({}, { published_plans: [{ ...record(), published_time: Number.NaN }] })),
      'non_finite',
    );
    expectInputError(() => assessPosition(null as unknown as AssessmentInput), 'invalid_option');
  });
});

describe('assessPosition properties', () => {
  it('never returns NaN or Infinity (null instead), and fails only with a typed reason', () => {
    const price = fc.double({ min: 0.5, max: 200, noNaN: true });
    const measured = reach('an assessment with an ATR');
    measured.assert(
      fc.property(
        candlesPast(14),
        fc.record({
          side: fc.constantFrom<'long' | 'short' | null>('long', 'short', null),
          entry_price: price,
          current_price: fc.option(price, { nil: null }),
          stop_loss: fc.option(fc.oneof(price, fc.constant(0)), { nil: null }),
          take_profit: fc.option(price, { nil: null }),
          liquidation_price: fc.option(price, { nil: null }),
          entryAt: fc.option(fc.integer({ min: -3, max: 130 }), { nil: null }),
          synced: fc.boolean(),
        }),
        (rows, r) => {
          const candles = toColumns(rows);
          const t0 = rows.length > 0 ? rows[0].time : 0;
          const pos = position({
            side: r.side,
            entry_price: r.entry_price,
            current_price: r.current_price,
            stop_loss: r.stop_loss,
            take_profit: r.take_profit,
            liquidation_price: r.liquidation_price,
            opened_at: r.entryAt === null ? null : t0 + r.entryAt * 60_000,
            protective_levels_synced_at: r.synced ? t0 : null,
          });
          try {
            const a = assessPosition({ position: pos, candles: rows.length > 0 ? candles : null });
            measured.hitIf(a.atr !== null);
            expectFinite(a);
            expect(a.liquidation_risk === null || a.liquidation_risk.abs_distance_pct !== null).toBe(true);
          } catch (e) {
            expect(e).toBeInstanceOf(AssessmentError);
            expect(r.current_price === null && rows.length === 0).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('mirrors: p -> K - p turns a long into the short with the same R, ATR distances, timing and warnings', () => {
    const K = 10_000;
    const options: AssessmentOptions = { plan: { costPct: 0 } };
    const mirrored = reach('an assessment with an ATR');
    mirrored.assert(
      fc.property(
        gridCandleSeries(40, 220),
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: -60, max: 200 }),
        fc.integer({ min: -200, max: 400 }),
        fc.integer({ min: -100, max: 600 }),
        fc.boolean(),
        (rows, at, stopOff, targetOff, liqOff, synced) => {
          const cs = toColumns(rows);
          const m = mirrorCandles(cs, K);
          const n = rows.length;
          const entryIndex = at % n;
          const mark = cs.close[n - 1];
          // a zone centred exactly on the mark is support either way: the one asymmetric tie
          for (const asOf of [n - 1, entryIndex - 1]) {
            if (asOf < 0) continue;
            const lv = supportResistance(cs, { asOf });
            if (lv.zones.some((z) => z.mid === lv.mark || z.mid === mark)) return;
          }
          const entry = cs.close[entryIndex];
          const long = position({
            side: 'long',
            entry_price: entry,
            opened_at: cs.time[entryIndex] + 60_000,
            stop_loss: entry - stopOff > 0 ? entry - stopOff : null,
            take_profit: entry + targetOff,
            liquidation_price: entry - liqOff > 0 ? entry - liqOff : null,
            protective_levels_synced_at: synced ? 0 : null,
          });
          const flip = (x: number | null): number | null => (x === null ? null : K - x);
          const short: AssessedPosition = {
            ...long,
            side: 'short',
            entry_price: flip(long.entry_price),
            stop_loss: flip(long.stop_loss),
            take_profit: flip(long.take_profit),
            liquidation_price: flip(long.liquidation_price),
          };
          const a = assessPosition({ position: long, candles: cs }, options);
          const b = assessPosition({ position: short, candles: m }, options);
          mirrored.hitIf(a.atr !== null);
          expectFinite(a);
          expectFinite(b);
          expect(b.direction).toBe('short');
          expect(b.thesis_status).toBe(a.thesis_status);
          expect(b.warnings).toEqual(a.warnings);
          expect(b.timing).toEqual(a.timing);
          expect(b.reference_plan?.source).toBe(a.reference_plan?.source);
          near(b.atr, a.atr, 'atr');
          near(b.unrealized_r, a.unrealized_r, 'unrealized_r');
          near(b.remaining_rr, a.remaining_rr, 'remaining_rr');
          near(b.stop_placement?.noise_distance_atr ?? null, a.stop_placement?.noise_distance_atr ?? null, 'noise');
          for (const k of [
            'inside_entry_zone',
            'beyond_invalidation',
            'inside_opposing_zone',
            'breakeven_or_better',
          ] as const) {
            expect(b.stop_placement?.[k], k).toBe(a.stop_placement?.[k]);
          }
          near(b.liquidation_risk?.abs_distance_atr ?? null, a.liquidation_risk?.abs_distance_atr ?? null, 'liq atr');
          near(b.invalidation?.signed_distance_atr ?? null, a.invalidation?.signed_distance_atr ?? null, 'inv atr');
          expect(b.invalidation?.breached_at).toBe(a.invalidation?.breached_at);
          near(b.excursion?.mfe_atr ?? null, a.excursion?.mfe_atr ?? null, 'mfe');
          near(b.excursion?.mae_atr ?? null, a.excursion?.mae_atr ?? null, 'mae');
          expect(b.excursion?.bars_since_peak).toBe(a.excursion?.bars_since_peak);
          near(b.excursion?.current_over_peak ?? null, a.excursion?.current_over_peak ?? null, 'cop');
          near(
            b.plan_geometry?.unrealized_r_at_plan_stop ?? null,
            a.plan_geometry?.unrealized_r_at_plan_stop ?? null,
            'r plan',
          );
          near(b.plan_geometry?.remaining_rr_on_plan ?? null, a.plan_geometry?.remaining_rr_on_plan ?? null, 'rr plan');
          near(
            b.nearest_levels?.support?.distance_atr ?? null,
            negate(a.nearest_levels?.resistance?.distance_atr),
            'sup',
          );
          near(
            b.nearest_levels?.resistance?.distance_atr ?? null,
            negate(a.nearest_levels?.support?.distance_atr),
            'res',
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

function negate(x: number | null | undefined): number | null {
  return x === null || x === undefined ? null : -x;
}

function near(a: number | null | undefined, b: number | null | undefined, what: string): void {
  if (a === null || a === undefined || b === null || b === undefined) {
    expect(a ?? null, what).toBe(b ?? null);
    return;
  }
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(a)));
}
