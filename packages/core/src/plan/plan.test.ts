import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SupportResistance, Zone } from '../levels/zones.js';
import { supportResistance } from '../levels/zones.js';
import { expectInputError } from '../testing/bad-input.js';
import { gridCandleSeries, mirrorCandles } from '../testing/mirror.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { buildPlan, type Direction, type TradePlan } from './plan.js';

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

function zone(kind: Zone['kind'], low: number, high: number): Zone {
  return {
    kind,
    low,
    high,
    mid: (low + high) / 2,
    strength: 0.5,
    touches: 2,
    last_touch_index: 10,
    last_touch_time: 10 * 3_600_000,
    volume: 0,
  };
}

function levelsOf(c: Candles, atr: number | null, zones: Zone[]): SupportResistance {
  const end = c.close.length - 1;
  return {
    as_of_index: end,
    as_of_time: c.time[end],
    mark: c.close[end],
    atr,
    zones,
    nearest_support: null,
    nearest_resistance: null,
    volume_profile: { poc: 100, value_area_low: 99, value_area_high: 101, total_volume: 0, basis: 'time', bins: [] },
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
  for (const tp of plan.take_profits) {
    expect(s * (tp.price - prev)).toBeGreaterThan(0);
    expect(tp.risk_reward).toBeGreaterThan(0);
    expect(tp.risk_reward).toBeCloseTo((s * (tp.price - entry)) / (s * (entry - stop)), 9);
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

  it.skipIf(!sharedDataDir)(`plans on the real series, fast (skips when ${sharedDataSkipReason})`, () => {
    for (const { candles } of loadSharedSeries()) {
      const n = candles.close.length;
      for (let i = 60; i < Math.min(n, 2000); i += 37) {
        checkPlan(buildPlan(candles, supportResistance(candles, { asOf: i })));
      }
    }
    const c1000 = slice(loadSharedSeries()[0].candles, 1000);
    const times: number[] = [];
    for (let r = 0; r < 60; r++) {
      const t0 = performance.now();
      for (let k = 0; k < 10; k++) buildPlan(c1000, supportResistance(c1000));
      times.push((performance.now() - t0) / 10);
    }
    times.sort((x, y) => x - y);
    expect(times[30], 'levels + plan on 1,000 candles, ms').toBeLessThan(1);
  });

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
  a.take_profits.forEach((t, i) => {
    near(b.take_profits[i].price, k - t.price, 'target');
    near(b.take_profits[i].risk_reward, t.risk_reward, 'risk_reward');
    expect(b.take_profits[i].size_pct).toBe(t.size_pct);
  });
  expect(b.horizon_bars).toBe(a.horizon_bars);
}
