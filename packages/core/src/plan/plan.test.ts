import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SupportResistance, Zone } from '../levels/zones.js';
import { supportResistance } from '../levels/zones.js';
import { expectInputError } from '../testing/bad-input.js';
import { gridCandleSeries, mirrorCandles } from '../testing/mirror.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { roundTripCostPct } from './costs.js';
import { buildPlan as anyPlan, type Direction, type PlanOptions, type TradePlan } from './plan.js';

/**
 * The earlier geometry (`structure: false`): issue 38's geometry became the default in session 14 and
 * is tested in plan-structure.test.ts and plan-structure.mutants.test.ts; these tests keep the
 * earlier one, which stays an option, under its own flag.
 */
const buildPlan = (c: Candles, lv: SupportResistance, o?: PlanOptions): TradePlan =>
  anyPlan(c, lv, { structure: false, ...o });

/** 30 flat candles closing at 100 (the plan reads only the close, time and the levels). */
function flat(n = 30, price = 100): Candles {
  return toColumns(
    Array.from({ length: n }, (_, i) => ({
      time: i * 3_600_000,
      open: price,
      high: price + 1,
      low: price - 1,
      close: price,
      volume: 10,
    })),
  );
}

function zone(kind: Zone['kind'], low: number, high: number, strength = 0.5): Zone {
  return {
    kind,
    low,
    high,
    mid: (low + high) / 2,
    strength,
    touches: 2,
    last_touch_index: 10,
    last_touch_time: 10 * 3_600_000,
    volume: 0,
    sources: ['swing'],
    timeframe: 'h1',
  };
}

function insideOf(zones: Zone[], mark: number): Zone | null {
  return zones.find((z) => z.low <= mark && mark <= z.high) ?? null;
}

function levelsOf(c: Candles, atr: number | null, zones: Zone[]): SupportResistance {
  const end = c.close.length - 1;
  return {
    as_of_index: end,
    as_of_time: c.time[end],
    mark: c.close[end],
    atr,
    zones,
    inside: insideOf(zones, c.close[end]),
    nearest_support: null,
    nearest_resistance: null,
    volume_profile: { poc: 100, value_area_low: 99, value_area_high: 101, total_volume: 0, basis: 'time', bins: [] },
    range: {
      all_time_high: 0,
      all_time_high_time: 0,
      all_time_low: 0,
      all_time_low_time: 0,
      high_52w: 0,
      low_52w: 0,
      candles: 0,
    },
    at_all_time_high: false,
    at_all_time_low: false,
    timeframe: 'h1',
    higher_timeframe: null,
  };
}

function slice(c: Candles, to: number): Candles {
  return {
    time: c.time.slice(0, to),
    open: c.open.slice(0, to),
    high: c.high.slice(0, to),
    low: c.low.slice(0, to),
    close: c.close.slice(0, to),
    volume: c.volume.slice(0, to),
  };
}

/** The invariants of every plan. */
function checkPlan(plan: TradePlan): void {
  expect(JSON.stringify(plan)).not.toMatch(/NaN|Infinity/);
  if (plan.direction === null) {
    expect(plan.reason).not.toBeNull();
    expect(plan.cost_pct).toBeNull();
    expect(plan.entry_zone).toBeNull();
    expect(plan.entry_price).toBeNull();
    expect(plan.stop_loss).toBeNull();
    expect(plan.invalidation).toBeNull();
    expect(plan.take_profits).toEqual([]);
    expect(plan.horizon_bars).toBeNull();
    return;
  }
  expect(plan.reason).toBeNull();
  expect(plan.bias).toBe(plan.direction);
  const zoneBand = plan.entry_zone;
  const entry = plan.entry_price;
  const stop = plan.stop_loss;
  const inv = plan.invalidation;
  if (zoneBand === null || entry === null || stop === null || inv === null) throw new Error('incomplete plan');
  const s = plan.direction === 'long' ? 1 : -1;
  expect(zoneBand.low).toBeLessThanOrEqual(zoneBand.high);
  expect(entry).toBe(s > 0 ? zoneBand.high : zoneBand.low);
  // stop on the loss side, beyond the band and at or beyond the invalidation; targets on the profit side
  expect(s * (stop - (s > 0 ? zoneBand.low : zoneBand.high))).toBeLessThan(0);
  expect(s * (stop - inv)).toBeLessThanOrEqual(0);
  expect(s * (inv - entry)).toBeLessThan(0);
  expect(plan.take_profits.length).toBeGreaterThanOrEqual(1);
  expect(plan.take_profits.length).toBeLessThanOrEqual(2);
  let prev = entry;
  const cost = plan.cost_pct;
  if (cost === null) throw new Error('a plan publishes its cost');
  expect(cost).toBeGreaterThanOrEqual(0);
  const costPrice = (cost / 100) * entry;
  for (const tp of plan.take_profits) {
    expect(s * (tp.price - prev)).toBeGreaterThan(0);
    expect(tp.risk_reward).toBeGreaterThan(0);
    expect(tp.risk_reward).toBeCloseTo((s * (tp.price - entry)) / (s * (entry - stop)), 9);
    const net = (s * (tp.price - entry) - costPrice) / (s * (entry - stop) + costPrice);
    expect(tp.risk_reward_net).toBeCloseTo(net, 9);
    expect(tp.risk_reward_net).toBeLessThanOrEqual(tp.risk_reward);
    expect(tp.price).toBeGreaterThan(0);
    prev = tp.price;
  }
  expect(plan.take_profits.reduce((a, t) => a + t.size_pct, 0)).toBe(100);
  expect(plan.take_profits.map((t) => t.size_pct)).toEqual(plan.take_profits.length === 2 ? [70, 30] : [100]);
  expect(stop).toBeGreaterThan(0);
  expect(plan.risk_pct).toBeCloseTo((Math.abs(entry - stop) / entry) * 100, 9);
  expect(plan.horizon_bars).toBeGreaterThanOrEqual(1);
  expect(plan.entry_window_bars).toBeGreaterThanOrEqual(1);
}

describe('buildPlan', () => {
  const c = flat();
  const levels = levelsOf(c, 2, [
    zone('support', 97, 98.5),
    zone('resistance', 104, 105),
    zone('resistance', 108, 109),
  ]);

  it('builds a long at the support below with two targets at the resistances (worked example)', () => {
    const plan = buildPlan(c, levels, { direction: 'long' });
    checkPlan(plan);
    expect(plan).toMatchObject({
      direction: 'long',
      published_index: 29,
      published_time: 29 * 3_600_000,
      mark: 100,
      atr: 2,
      entry_zone: { low: 97, high: 98.5 }, // the zone, within 1 ATR of the mark
      entry_price: 98.5,
      invalidation: 97,
      stop_loss: 96.5, // 0.25 ATR beyond the invalidation
      take_profits: [
        { price: 104, size_pct: 70, risk_reward: 2.75 },
        { price: 108, size_pct: 30, risk_reward: 4.75 },
      ],
      horizon_bars: 23, // ceil(((108 - 98.5) / 2)^2)
      entry_window_bars: 5,
    });
    expect(plan.risk_pct).toBeCloseTo((2 / 98.5) * 100, 12);
    // net of the default 0.20% round trip: cost = 0.197, (5.5 - 0.197) / (2 + 0.197) and (9.5 - 0.197) / 2.197
    expect(plan.cost_pct).toBe(0.2);
    expect(plan.take_profits[0].risk_reward_net).toBeCloseTo(5.303 / 2.197, 12);
    expect(plan.take_profits[1].risk_reward_net).toBeCloseTo(9.303 / 2.197, 12);
  });

  it('builds a short at the mark when the resistance is out of reach, with one fallback target', () => {
    const plan = buildPlan(c, levels, { direction: 'short' });
    checkPlan(plan);
    expect(plan).toMatchObject({
      direction: 'short',
      entry_zone: { low: 100, high: 100.5 }, // 0.25 ATR above the mark
      entry_price: 100,
      invalidation: 105, // the resistance's top: its stop is within 3 ATR of the entry
      stop_loss: 105.5,
      // the support at 98.5 pays only 1.5 / 5.5 R, so the single target is 2 R
      take_profits: [{ price: 89, size_pct: 100, risk_reward: 2 }],
      horizon_bars: 31,
    });
  });

  it('keeps the stop out of the noise and the targets within reach', () => {
    const tight = levelsOf(c, 2, [
      zone('support', 99.6, 99.9),
      zone('resistance', 100.5, 101.5),
      zone('resistance', 130, 131),
    ]);
    const plan = buildPlan(c, tight, { direction: 'long' });
    checkPlan(plan);
    expect(plan.stop_loss).toBe(98.9); // 0.5 ATR below the entry beats 0.25 ATR below 99.6
    // 100.5 pays less than 1 R and 130 is beyond 6 ATR: the fallback target at 2 R
    expect(plan.take_profits.length).toBe(1);
    expect(plan.take_profits[0].price).toBeCloseTo(101.9, 12);
    expect(plan.take_profits[0].risk_reward).toBeCloseTo(2, 12);
  });

  it('gives no trade, with a reason, when it should', () => {
    expect(buildPlan(c, levels, { direction: null })).toMatchObject({ direction: null, reason: 'no_direction' });
    expect(buildPlan(c, levelsOf(c, null, []), { direction: 'long' })).toMatchObject({
      direction: null,
      bias: 'long',
      reason: 'atr_warmup',
    });
    // a flat market has no trend
    expect(buildPlan(flat(60), levelsOf(flat(60), 2, []))).toMatchObject({ direction: null, reason: 'no_trend' });
    expect(buildPlan(c, levels)).toMatchObject({ direction: null, reason: 'insufficient_data' });
    // a stop 0.05% away cannot pay a 0.20% round trip
    expect(buildPlan(c, levelsOf(c, 0.1, []), { direction: 'long' })).toMatchObject({
      direction: null,
      reason: 'risk_below_cost',
    });
    expect(buildPlan(c, levelsOf(c, 0.1, []), { direction: 'long', maxCostR: 10 }).direction).toBe('long');
    // a long whose stop would be below zero
    expect(buildPlan(flat(30, 1), levelsOf(flat(30, 1), 2, []), { direction: 'long' })).toMatchObject({
      direction: null,
      reason: 'degenerate_geometry',
    });
    for (const p of [buildPlan(c, levels, { direction: null }), buildPlan(c, levelsOf(c, null, []))]) checkPlan(p);
  });

  it('infers the direction from the trend, and a mirrored market gives the mirrored plan', () => {
    const rows = Array.from({ length: 120 }, (_, i) => {
      const p = 1000 + 3 * i + (i % 5 === 0 ? -6 : 0);
      return { time: i * 60_000, open: p - 1, high: p + 2, low: p - 3, close: p, volume: 100 };
    });
    const up = toColumns(rows);
    // no cost filter: the cost in % of the price is the one thing a mirror does not preserve
    const a = buildPlan(up, supportResistance(up), { costPct: 0 });
    checkPlan(a);
    expect(a.direction).toBe('long');
    const down = mirrorCandles(up, 5000);
    const b = buildPlan(down, supportResistance(down), { costPct: 0 });
    checkPlan(b);
    expect(b.direction).toBe('short');
    expectMirrored(a, b, 5000);
  });

  it('holds its invariants on generated candles, for each direction', () => {
    fc.assert(
      fc.property(
        candleSeries(1, 200),
        fc.constantFrom<Direction | null | undefined>('long', 'short', null, undefined),
        (rows, direction) => {
          const cs = toColumns(rows);
          checkPlan(buildPlan(cs, supportResistance(cs, { atrPeriod: 10 }), { direction, trendSlow: 30 }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never looks ahead: the plan as of i equals the plan built on candles 0..i', () => {
    fc.assert(
      fc.property(candleSeries(2, 200), fc.nat(), (rows, cut) => {
        const cs = toColumns(rows);
        const asOf = cut % rows.length;
        const prefix = slice(cs, asOf + 1);
        const opts = { trendSlow: 30 };
        expect(buildPlan(cs, supportResistance(cs, { asOf, atrPeriod: 10 }), opts)).toEqual(
          buildPlan(prefix, supportResistance(prefix, { atrPeriod: 10 }), opts),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('mirrors: p -> K - p turns a long into the mirrored short', () => {
    const K = 10_000;
    fc.assert(
      fc.property(gridCandleSeries(20, 250), fc.constantFrom<Direction>('long', 'short'), (rows, direction) => {
        const cs = toColumns(rows);
        const m = mirrorCandles(cs, K);
        const lv = supportResistance(cs, { atrPeriod: 7 });
        // a zone centred exactly on the mark is support either way, the one asymmetric tie
        if (lv.zones.some((z) => Math.abs(z.mid - lv.mark) < 1e-6)) return;
        const a = buildPlan(cs, lv, { direction, costPct: 0 });
        const b = buildPlan(m, supportResistance(m, { atrPeriod: 7 }), {
          direction: direction === 'long' ? 'short' : 'long',
          costPct: 0,
        });
        expectMirrored(a, b, K);
      }),
      { numRuns: 100 },
    );
  });

  it.skipIf(!sharedDataDir)(`plans on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { candles } of loadSharedSeries()) {
      const n = candles.close.length;
      for (let i = 60; i < Math.min(n, 2000); i += 37) {
        checkPlan(buildPlan(candles, supportResistance(candles, { asOf: i })));
      }
    }
  });

  // Its speed is measured by scripts/bench-analysis.mjs (analyze(), levels and plan included, on 1,000
  // candles); a test asserts only what bounds the work: the candles the plan reads.
  it.skipIf(!sharedDataDir)(
    `reads a bounded window: 10 * trendSlow candles (skips when ${sharedDataSkipReason})`,
    () => {
      const all = loadSharedSeries()[0].candles;
      let plans = 0;
      for (let n = 1000; n < 1400; n += 20) {
        const c = slice(all, n);
        const levels = supportResistance(c);
        const plan = buildPlan(c, levels); // the direction inferred from the trend's EMAs
        if (plan.direction !== null) plans++;
        // Every candle before the last 10 * 50 made unreadable: a plan that read one would differ or throw.
        const poisoned = slice(c, n);
        for (const col of [poisoned.open, poisoned.high, poisoned.low, poisoned.close, poisoned.volume]) {
          col.fill(Number.NaN, 0, n - 500);
        }
        expect(buildPlan(poisoned, levels)).toEqual(plan);
      }
      expect(plans).toBeGreaterThan(0);
    },
  );

  it('rejects bad input with a typed error', () => {
    expectInputError(() => buildPlan(c, levels, { direction: 'up' as Direction }), 'invalid_option');
    expectInputError(() => buildPlan(c, { ...levels, as_of_time: 1 }), 'invalid_option');
    expectInputError(() => buildPlan(slice(c, 10), levels), 'invalid_option');
    expectInputError(() => buildPlan(c, levels, { minStopAtr: 0 }), 'invalid_option');
    expectInputError(() => buildPlan(c, levels, { horizonBars: 0 }), 'invalid_option');
    expectInputError(() => buildPlan(c, levels, { minHorizonBars: 10, maxHorizonBars: 5 }), 'invalid_option');
  });
});

function near(a: number | null, b: number | null, what: string): void {
  if (a === null || b === null) {
    expect(a, what).toBe(b);
    return;
  }
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(a)));
}

/** `b` is `a` with every price mirrored as `p -> k - p`. */
function expectMirrored(a: TradePlan, b: TradePlan, k: number): void {
  const flip = (d: Direction | null): Direction | null => (d === null ? null : d === 'long' ? 'short' : 'long');
  expect(b.direction).toBe(flip(a.direction));
  expect(b.reason).toBe(a.reason);
  const m = (x: number | null): number | null => (x === null ? null : k - x);
  near(b.entry_zone?.low ?? null, m(a.entry_zone?.high ?? null), 'entry low');
  near(b.entry_zone?.high ?? null, m(a.entry_zone?.low ?? null), 'entry high');
  near(b.entry_price, m(a.entry_price), 'entry');
  near(b.stop_loss, m(a.stop_loss), 'stop');
  near(b.invalidation, m(a.invalidation), 'invalidation');
  expect(b.take_profits.length).toBe(a.take_profits.length);
  expect(b.cost_pct).toBe(a.cost_pct);
  a.take_profits.forEach((t, i) => {
    near(b.take_profits[i].price, k - t.price, 'target');
    near(b.take_profits[i].risk_reward, t.risk_reward, 'risk_reward');
    near(b.take_profits[i].risk_reward_net, t.risk_reward_net, 'risk_reward_net');
    expect(b.take_profits[i].size_pct).toBe(t.size_pct);
  });
  expect(b.horizon_bars).toBe(a.horizon_bars);
}

/** The levels mirrored as `p -> k - p`: a support becomes a resistance, listed from the lowest again. */
function mirrorLevels(lv: SupportResistance, k: number): SupportResistance {
  const zones = lv.zones
    .map(
      (z): Zone => ({
        ...z,
        kind: z.kind === 'support' ? 'resistance' : 'support',
        low: k - z.high,
        high: k - z.low,
        mid: k - z.mid,
      }),
    )
    .reverse();
  return { ...lv, mark: k - lv.mark, zones, inside: insideOf(zones, k - lv.mark) };
}

const RULE_OFF = 2; // an obstacleStrength above every zone's strength: the rule disabled

/**
 * Builds the plan with the obstacle rule and without it (same entry and stop, the geometry does not
 * depend on the targets), and checks the rule against the zones: the first opposing zone at least
 * `obstacleStrength` strong, by its near edge, caps every target; when that edge (or the entry, for a
 * zone the price is inside) pays less than `minRiskReward` the plan is `target_blocked`, and only then;
 * a plan whose targets jump no such zone is unchanged by the rule.
 */
function checkObstacleRule(c: Candles, lv: SupportResistance, opts: PlanOptions): { on: TradePlan; off: TradePlan } {
  const on = buildPlan(c, lv, opts);
  checkPlan(on);
  const off = buildPlan(c, lv, { ...opts, obstacleStrength: RULE_OFF });
  const threshold = opts.obstacleStrength ?? 0.6;
  if (off.direction === null || off.entry_price === null || off.stop_loss === null) {
    // no geometry to cap; a fallback target beyond zero is the one thing the cap may rescue
    if (off.reason !== 'degenerate_geometry') expect(on).toEqual(off);
    return { on, off };
  }
  const s = off.direction === 'long' ? 1 : -1;
  const entry = off.entry_price;
  const risk = s * (entry - off.stop_loss);
  const nearEdge = (z: Zone): number => (s > 0 ? z.low : z.high);
  const strong = lv.zones
    .filter((z) => s * (z.mid - lv.mark) > 0 && z.strength >= threshold)
    .sort((a, b) => s * (nearEdge(a) - nearEdge(b)));
  const ceiling = strong.length === 0 ? null : s * (nearEdge(strong[0]) - entry) > 0 ? nearEdge(strong[0]) : entry;
  if (ceiling !== null && s * (ceiling - entry) < (opts.minRiskReward ?? 1) * risk) {
    expect(on).toMatchObject({ direction: null, bias: off.direction, reason: 'target_blocked' });
    return { on, off };
  }
  expect(on.direction).toBe(off.direction);
  expect([on.entry_zone, on.entry_price, on.stop_loss, on.invalidation]).toEqual([
    off.entry_zone,
    off.entry_price,
    off.stop_loss,
    off.invalidation,
  ]);
  if (ceiling !== null) for (const tp of on.take_profits) expect(s * (tp.price - ceiling)).toBeLessThanOrEqual(0);
  if (ceiling === null || off.take_profits.every((tp) => s * (tp.price - ceiling) <= 0)) expect(on).toEqual(off);
  return { on, off };
}

describe('buildPlan: a strong opposing zone is an obstacle no target jumps', () => {
  const c = flat(); // closes at 100; the long below enters at 98.5 with its stop at 96.5 (risk 2)
  const support = zone('support', 97, 98.5);
  const long = (zones: Zone[], opts: PlanOptions = {}): TradePlan =>
    buildPlan(c, levelsOf(c, 2, zones), { direction: 'long', ...opts });

  it('cuts the targets at the first strong resistance (BTC h1: a target beyond a 12-touch zone)', () => {
    const zones = [support, zone('resistance', 101.2, 102, 0.9), zone('resistance', 104, 105, 0.3)];
    const plan = long(zones);
    checkPlan(plan);
    expect(plan.take_profits).toEqual([
      expect.objectContaining({ price: 101.2, size_pct: 100, risk_reward: expect.closeTo(1.35, 12) }),
    ]);
    // the rule off: target 2 at 104, beyond the strong zone
    expect(long(zones, { obstacleStrength: RULE_OFF }).take_profits.map((t) => t.price)).toEqual([101.2, 104]);
  });

  it('gives no trade, target_blocked, when the first strong resistance pays less than minRiskReward', () => {
    const zones = [support, zone('resistance', 100.2, 100.8, 0.7), zone('resistance', 104, 105, 0.3)];
    const plan = long(zones); // 100.2 pays 1.7 / 2 = 0.85 R
    checkPlan(plan);
    expect(plan).toMatchObject({ direction: null, bias: 'long', reason: 'target_blocked', take_profits: [] });
    // the former behaviour: the zone skipped as paying < 1 R, the target beyond it
    expect(long(zones, { obstacleStrength: RULE_OFF }).take_profits.map((t) => t.price)).toEqual([104]);
    // a lower minimum R makes it the target, and a weaker zone is passed
    expect(long(zones, { minRiskReward: 0.8 }).take_profits.map((t) => t.price)).toEqual([100.2]);
    expect(long(zones, { obstacleStrength: 0.75 }).take_profits.map((t) => t.price)).toEqual([104]);
  });

  it('blocks a long whose mark is inside a strong resistance (AAPL d1: targets through 267.83-272.93)', () => {
    const inside = zone('resistance', 99, 102.5, 0.8); // middle 100.75 above the mark, low below it
    const plan = long([zone('support', 95, 96), inside, zone('resistance', 106, 107, 0.3)]);
    checkPlan(plan);
    expect(plan).toMatchObject({ direction: null, bias: 'long', reason: 'target_blocked' });
    // a weak zone around the mark is passed, as before
    const weak = long([zone('support', 95, 96), { ...inside, strength: 0.3 }, zone('resistance', 106, 107, 0.3)]);
    checkPlan(weak);
    expect(weak.direction).toBe('long');
  });

  it('never puts the fallback target beyond an obstacle', () => {
    // the strong zone at 102.6 is beyond maxTargetAtr (2 ATR = 4) from the entry, so it is not a target
    const zones = [support, zone('resistance', 102.6, 103, 0.9)];
    const opts = { fallbackRiskReward: 3, maxTargetAtr: 2 };
    const plan = long(zones, opts);
    checkPlan(plan);
    expect(plan.take_profits).toEqual([
      expect.objectContaining({ price: 102.6, size_pct: 100, risk_reward: expect.closeTo(2.05, 12) }),
    ]);
    expect(plan.horizon_bars).toBe(5); // ceil((4.1 / 2)^2)
    expect(long(zones, { ...opts, obstacleStrength: RULE_OFF }).take_profits[0].price).toBeCloseTo(104.5, 12);
  });

  it('counts a zone at the threshold as an obstacle; 0 makes every opposing zone one', () => {
    const zones = [support, zone('resistance', 104, 105, 0.5), zone('resistance', 108, 109, 0.5)];
    expect(long(zones).take_profits.map((t) => t.price)).toEqual([104, 108]); // 0.5 < 0.6
    expect(long(zones, { obstacleStrength: 0.5 }).take_profits.map((t) => t.price)).toEqual([104]);
    expect(long(zones, { obstacleStrength: 0 }).take_profits.map((t) => t.price)).toEqual([104]);
    // short from the mark (stop 105.5, risk 5.5): the support's top at 98.5 pays 1.5 / 5.5 R
    expect(buildPlan(c, levelsOf(c, 2, zones), { direction: 'short', obstacleStrength: 0 })).toMatchObject({
      direction: null,
      bias: 'short',
      reason: 'target_blocked',
    });
  });

  it('mirrors each case exactly: a short below a strong support is the long above a strong resistance', () => {
    const cases: [Zone[], PlanOptions][] = [
      [[support, zone('resistance', 101.2, 102, 0.9), zone('resistance', 104, 105, 0.3)], {}],
      [[support, zone('resistance', 100.2, 100.8, 0.7), zone('resistance', 104, 105, 0.3)], {}],
      [[zone('support', 95, 96), zone('resistance', 99, 102.5, 0.8)], {}],
      [[support, zone('resistance', 102.6, 103, 0.9)], { fallbackRiskReward: 3, maxTargetAtr: 2 }],
      [[support, zone('resistance', 104, 105, 0.5), zone('resistance', 108, 109, 0.5)], { obstacleStrength: 0 }],
    ];
    // flat candles at 100 mirror onto themselves with K = 200
    for (const [zones, opts] of cases) {
      const lv = levelsOf(c, 2, zones);
      for (const direction of ['long', 'short'] as const) {
        const a = buildPlan(c, lv, { ...opts, direction, costPct: 0 });
        const b = buildPlan(c, mirrorLevels(lv, 200), {
          ...opts,
          direction: direction === 'long' ? 'short' : 'long',
          costPct: 0,
        });
        expectMirrored(a, b, 200);
      }
    }
  });

  it('rejects a bad obstacleStrength', () => {
    const lv = levelsOf(c, 2, [support]);
    for (const bad of [-0.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expectInputError(() => buildPlan(c, lv, { direction: 'long', obstacleStrength: bad }), 'invalid_option');
    }
  });

  it('holds the rule on long generated series (260+ candles), and most draws reach a plan', () => {
    let draws = 0;
    let reached = 0;
    fc.assert(
      fc.property(fc.oneof(candleSeries(260, 400), gridCandleSeries(260, 400)), (rows) => {
        const cs = toColumns(rows);
        const lv = supportResistance(cs);
        let plans = 0;
        for (const direction of ['long', 'short'] as const) {
          if (checkObstacleRule(cs, lv, { direction, costPct: 0 }).on.direction !== null) plans++;
        }
        draws++;
        if (plans > 0) reached++;
      }),
      { numRuns: 100 },
    );
    // about 87% of draws give a plan on one side at least (each side alone: about 60%)
    expect(reached / draws).toBeGreaterThan(0.7);
  });

  it('mirrors on long generated series', () => {
    const K = 10_000;
    let draws = 0;
    let reached = 0;
    fc.assert(
      fc.property(gridCandleSeries(260, 400), (rows) => {
        const cs = toColumns(rows);
        const lv = supportResistance(cs);
        draws++;
        // a zone centred exactly on the mark is support either way, the one asymmetric tie
        if (lv.zones.some((z) => Math.abs(z.mid - lv.mark) < 1e-6)) return;
        const m = mirrorCandles(cs, K);
        const lm = supportResistance(m);
        let plans = 0;
        for (const direction of ['long', 'short'] as const) {
          const a = buildPlan(cs, lv, { direction, costPct: 0 });
          const b = buildPlan(m, lm, { direction: direction === 'long' ? 'short' : 'long', costPct: 0 });
          expectMirrored(a, b, K);
          if (a.direction !== null) plans++;
        }
        if (plans > 0) reached++;
      }),
      { numRuns: 150 },
    );
    // about 76% of draws reach a plan (1,500 draws); 150 keep the check 4 standard deviations clear
    expect(reached / draws).toBeGreaterThan(0.6);
  });

  it.skipIf(!sharedDataDir)(
    `walks forward over the real series: no target jumps a strong zone, and every block says so (skips when ${sharedDataSkipReason})`,
    () => {
      const cost: Record<string, number> = {
        'nvda-d1': roundTripCostPct({ assetClass: 'stocks' }),
        'orcl-d1': roundTripCostPct({ assetClass: 'stocks' }),
        'index-m5': roundTripCostPct({ assetClass: 'stocks' }),
        'crypto-m1': roundTripCostPct({ assetClass: 'coins' }),
        'xrp-perp-h1': roundTripCostPct({ assetClass: 'coins', feePct: 0.05 }),
      };
      let blocked = 0;
      let capped = 0;
      let plans = 0;
      for (const { name, candles } of loadSharedSeries()) {
        const n = candles.close.length;
        for (let i = 60; i < Math.min(n, 3000); i += 29) {
          const lv = supportResistance(candles, { asOf: i });
          for (const direction of ['long', 'short', undefined] as const) {
            const { on, off } = checkObstacleRule(candles, lv, { direction, costPct: cost[name] });
            if (on.reason === 'target_blocked') blocked++;
            else if (on.direction !== null) {
              plans++;
              const prices = (x: TradePlan): number[] => x.take_profits.map((t) => t.price);
              if (prices(on).join() !== prices(off).join()) capped++;
            }
          }
        }
      }
      // the rule is exercised each way: plans kept, targets cut to an obstacle, plans blocked
      expect(plans).toBeGreaterThan(200);
      expect(capped).toBeGreaterThan(20);
      expect(blocked).toBeGreaterThan(100);
    },
  );
});

describe('buildPlan: costs by market', () => {
  const c = flat();

  it('quotes risk-reward gross and net of the round trip (SOL m15: 1.12 R gross is about 0.66 R net)', () => {
    // no zone below: entry at the mark (100), stop 1.5 ATR below (risk 0.75, 0.75%); target 1.12 R above
    const lv = levelsOf(c, 0.5, [zone('resistance', 100.84, 101, 0.3)]);
    const plan = buildPlan(c, lv, { direction: 'long' });
    checkPlan(plan);
    expect(plan).toMatchObject({ entry_price: 100, stop_loss: 99.25, cost_pct: 0.2 });
    expect(plan.take_profits[0].risk_reward).toBeCloseTo(1.12, 12);
    expect(plan.take_profits[0].risk_reward_net).toBeCloseTo((0.84 - 0.2) / (0.75 + 0.2), 12); // 0.674
    const fx = buildPlan(c, lv, { direction: 'long', costPct: roundTripCostPct({ assetClass: 'fx' }) });
    expect(fx.cost_pct).toBe(0.012);
    expect(fx.take_profits[0].risk_reward).toBeCloseTo(1.12, 12);
    expect(fx.take_profits[0].risk_reward_net).toBeCloseTo((0.84 - 0.012) / (0.75 + 0.012), 12);
    // without a cost, net is gross
    const free = buildPlan(c, lv, { direction: 'long', costPct: 0 });
    expect(free.take_profits[0].risk_reward_net).toBe(free.take_profits[0].risk_reward);
  });

  it("keeps the plans a flat 0.20% removes when given the market's cost", () => {
    const tight = levelsOf(c, 0.1, []); // risk 0.15%: a 0.20% round trip is more than half of it
    expect(buildPlan(c, tight, { direction: 'long' }).reason).toBe('risk_below_cost');
    for (const assetClass of ['stocks', 'fx'] as const) {
      const plan = buildPlan(c, tight, { direction: 'long', costPct: roundTripCostPct({ assetClass }) });
      checkPlan(plan);
      expect(plan.direction).toBe('long');
      expect(plan.cost_pct).toBe(roundTripCostPct({ assetClass }));
    }
    const coins = roundTripCostPct({ assetClass: 'coins' });
    expect(buildPlan(c, tight, { direction: 'long', costPct: coins }).reason).toBe('risk_below_cost');
  });

  it.skipIf(!sharedDataDir)(
    `keeps the index m5 plans with the stocks cost that 0.20% removes (skips when ${sharedDataSkipReason})`,
    () => {
      const series = loadSharedSeries().find((x) => x.name === 'index-m5');
      if (series === undefined) throw new Error('index-m5 is part of the shared data');
      const { candles } = series;
      const stocks = roundTripCostPct({ assetClass: 'stocks' });
      let flatCut = 0;
      let stocksCut = 0;
      let draws = 0;
      for (let i = 60; i < candles.close.length; i += 11) {
        // the strongest-zones levels this earlier geometry was written with (bySide became the
        // default in session 14; by side, the nearest support sits closer and more stops are tight)
        const lv = supportResistance(candles, { asOf: i, bySide: false });
        for (const direction of ['long', 'short'] as const) {
          draws++;
          const flat = buildPlan(candles, lv, { direction });
          const byMarket = buildPlan(candles, lv, { direction, costPct: stocks });
          checkPlan(byMarket);
          if (flat.reason === 'risk_below_cost') flatCut++;
          if (byMarket.reason === 'risk_below_cost') stocksCut++;
          if (byMarket.direction !== null) {
            for (const tp of byMarket.take_profits) expect(tp.risk_reward_net).toBeLessThan(tp.risk_reward);
          }
        }
      }
      // the 5-minute risk is a few hundredths of a percent: 0.20% cuts all, 0.05% still a good part
      expect(flatCut / draws).toBeGreaterThan(0.9);
      expect((draws - stocksCut) / draws).toBeGreaterThan(0.2);
    },
  );
});
