import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atr } from '../indicators/atr.js';
import { expectInputError } from '../testing/bad-input.js';
import { gridCandleSeries, mirrorCandles } from '../testing/mirror.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import {
  supportResistance as anySupportResistance,
  type SupportResistance,
  type SupportResistanceOptions,
  type Zone,
} from './zones.js';

/**
 * These tests describe the strongest-zones mode (`bySide: false`, the levels before issue 38); the
 * by-side levels, the default since, are tested in zones-by-side.test.ts and levels-real.test.ts.
 */
const supportResistance = (c: Candles, o: SupportResistanceOptions = {}): SupportResistance =>
  anySupportResistance(c, { bySide: false, ...o });

function slice(c: Candles, from: number, to: number): Candles {
  return {
    time: c.time.slice(from, to),
    open: c.open.slice(from, to),
    high: c.high.slice(from, to),
    low: c.low.slice(from, to),
    close: c.close.slice(from, to),
    volume: c.volume.slice(from, to),
  };
}

function close(a: number, b: number, what: string): void {
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(a), Math.abs(b)));
}

/** The invariants every result holds. */
function checkInvariants(sr: SupportResistance): void {
  const { zones, mark } = sr;
  for (let k = 0; k < zones.length; k++) {
    const z = zones[k];
    expect(z.low).toBeLessThanOrEqual(z.high);
    expect(z.mid).toBeGreaterThanOrEqual(z.low);
    expect(z.mid).toBeLessThanOrEqual(z.high);
    expect(z.strength).toBeGreaterThan(0);
    expect(z.strength).toBeLessThan(1);
    expect(z.touches).toBeGreaterThanOrEqual(1);
    expect(z.last_touch_index).toBeLessThanOrEqual(sr.as_of_index);
    expect(z.volume).toBeGreaterThanOrEqual(0);
    expect(z.kind).toBe(z.mid <= mark ? 'support' : 'resistance');
    if (k > 0) expect(zones[k - 1].high, 'zones do not overlap').toBeLessThanOrEqual(z.low);
  }
  // Where the mark stands: the zone holding it, else none; the nearest entirely below / above.
  const holding = zones.filter((z) => z.low <= mark && mark <= z.high);
  const below = zones.filter((z) => z.high < mark);
  const above = zones.filter((z) => z.low > mark);
  expect(holding.length).toBeLessThanOrEqual(2); // two only when the mark sits on a shared edge
  expect(sr.inside === null).toBe(holding.length === 0);
  if (sr.inside !== null) expect(holding).toContain(sr.inside);
  const ns = sr.nearest_support;
  const nr = sr.nearest_resistance;
  expect(ns === null).toBe(below.length === 0);
  expect(nr === null).toBe(above.length === 0);
  if (ns !== null) {
    expect(ns.kind).toBe('support');
    expect(ns.high).toBe(Math.max(...below.map((z) => z.high)));
    expect(ns.distance_pct).toBeLessThan(0);
    close(ns.distance_pct, ((ns.high - mark) / mark) * 100, 'distance_pct');
    if (sr.atr === null) expect(ns.distance_atr).toBeNull();
    else close(ns.distance_atr ?? Number.NaN, (ns.high - mark) / sr.atr, 'distance_atr');
  }
  if (nr !== null) {
    expect(nr.kind).toBe('resistance');
    expect(nr.low).toBe(Math.min(...above.map((z) => z.low)));
    expect(nr.distance_pct).toBeGreaterThan(0);
    close(nr.distance_pct, ((nr.low - mark) / mark) * 100, 'distance_pct');
    if (sr.atr !== null) expect(nr.distance_atr).toBeGreaterThan(0);
  }
  // JSON-safe: finite numbers or null only
  const json = JSON.stringify(sr);
  expect(json).not.toMatch(/NaN|Infinity/);
  expect(JSON.parse(json)).toEqual(sr);
}

/** A market that bounces between 100 and 110 (plus noise-free ramps). */
function rangeMarket(cycles: number): Candle[] {
  const path: number[] = [];
  for (let c = 0; c < cycles; c++) {
    for (let k = 0; k <= 10; k++) path.push(100 + k);
    for (let k = 9; k >= 1; k--) path.push(100 + k);
  }
  path.push(100, 101, 102, 103, 104, 105);
  return path.map((p, i) => ({
    time: i * 60_000,
    open: p,
    close: p,
    high: p + 0.5,
    low: p - 0.5,
    volume: 1000,
  }));
}

describe('supportResistance', () => {
  it('finds the floor and the ceiling of a range market', () => {
    const c = toColumns(rangeMarket(8));
    const sr = supportResistance(c, { atrPeriod: 5 });
    checkInvariants(sr);
    expect(sr.mark).toBe(105);
    const ns = sr.nearest_support;
    const nr = sr.nearest_resistance;
    expect(ns?.low).toBeLessThanOrEqual(99.5);
    expect(ns?.high).toBeGreaterThanOrEqual(99.5);
    expect(nr?.low).toBeLessThanOrEqual(110.5);
    expect(nr?.high).toBeGreaterThanOrEqual(110.5);
    // eight bounces on each side, plus the first low (candle 0: a zigzag pivot, too early for a fractal)
    expect(ns?.touches).toBe(9);
    expect(nr?.touches).toBe(8);
    expect(sr.inside).toBeNull();
    // distances run to the near edge: the top of the floor, the bottom of the ceiling
    expect(ns?.distance_pct).toBeCloseTo((((ns?.high ?? 0) - 105) / 105) * 100, 9);
    expect(ns?.distance_atr).toBeCloseTo(((ns?.high ?? 0) - 105) / (sr.atr ?? 0), 9);
    expect(nr?.distance_pct).toBeCloseTo((((nr?.low ?? 0) - 105) / 105) * 100, 9);
    // the floor and the ceiling are the only zones
    expect(sr.zones.length).toBe(2);
  });

  it('decays old touches: the same zone touched long ago is weaker', () => {
    const rows = rangeMarket(3);
    const flat = rows[rows.length - 1];
    const later = [...rows];
    for (let k = 1; k <= 200; k++) later.push({ ...flat, time: flat.time + k * 60_000 });
    const a = supportResistance(toColumns(rows), { atrPeriod: 5 });
    const b = supportResistance(toColumns(later), { atrPeriod: 5, halfLife: 50 });
    expect(b.nearest_support?.touches).toBe(a.nearest_support?.touches);
    expect(b.nearest_support?.strength ?? 1).toBeLessThan(a.nearest_support?.strength ?? 0);
  });

  it('holds its invariants on generated candles', () => {
    fc.assert(
      fc.property(candleSeries(1, 200), fc.integer({ min: 1, max: 12 }), (rows, maxZones) => {
        checkInvariants(supportResistance(toColumns(rows), { maxZones, atrPeriod: 10, window: 150 }));
      }),
      { numRuns: 150 },
    );
  });

  it('never looks ahead: as of i equals the analysis of candles 0..i, with the ATR of the full series', () => {
    fc.assert(
      fc.property(candleSeries(2, 200), fc.nat(), (rows, cut) => {
        const c = toColumns(rows);
        const asOf = cut % rows.length;
        const fullAtr = atr(c, { period: 10 });
        const opts = { atrPeriod: 10, window: 120 };
        const prefix = supportResistance(slice(c, 0, asOf + 1), opts);
        expect(supportResistance(c, { ...opts, asOf })).toEqual(prefix);
        expect(supportResistance(c, { ...opts, asOf, atr: fullAtr })).toEqual(prefix);
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(candleSeries(1, 150), (rows) => {
        const c = toColumns(rows);
        expect(supportResistance(c)).toEqual(supportResistance(toColumns(rows)));
      }),
      { numRuns: 30 },
    );
  });

  it('mirrors: p -> K - p turns support into resistance with mirrored bands', () => {
    const K = 10_000;
    fc.assert(
      fc.property(gridCandleSeries(20, 250), fc.constantFrom(12, 3), (rows, maxZones) => {
        const c = toColumns(rows);
        // maxZones 3: most draws keep only some zones, so the choice among equally strong ones is mirrored too
        const a = supportResistance(c, { atrPeriod: 7, maxZones });
        const b = supportResistance(mirrorCandles(c, K), { atrPeriod: 7, maxZones });
        expect(b.atr).toBe(a.atr);
        expect(b.zones.length).toBe(a.zones.length);
        const n = a.zones.length;
        for (let k = 0; k < n; k++) {
          const z: Zone = a.zones[k];
          const m: Zone = b.zones[n - 1 - k];
          close(m.low, K - z.high, 'low');
          close(m.high, K - z.low, 'high');
          close(m.strength, z.strength, 'strength');
          expect(m.touches).toBe(z.touches);
          expect(m.last_touch_index).toBe(z.last_touch_index);
          if (Math.abs(z.mid - a.mark) > 1e-6) expect(m.kind).not.toBe(z.kind);
        }
        // inside / below / above mirror exactly, unless the mark sits within rounding of an edge
        const onEdge = a.zones.some((z) => Math.abs(z.low - a.mark) <= 1e-6 || Math.abs(z.high - a.mark) <= 1e-6);
        if (!onEdge) {
          expect(b.inside === null).toBe(a.inside === null);
          if (a.inside !== null) close(b.inside?.low ?? Number.NaN, K - a.inside.high, 'inside');
          expect(b.nearest_resistance === null).toBe(a.nearest_support === null);
          expect(b.nearest_support === null).toBe(a.nearest_resistance === null);
          if (a.nearest_support !== null && b.nearest_resistance !== null) {
            close(b.nearest_resistance.low, K - a.nearest_support.high, 'nearest');
            close(b.nearest_resistance.distance_atr ?? 0, -(a.nearest_support.distance_atr ?? 0), 'distance_atr');
          }
        }
      }),
      { numRuns: 80 },
    );
  });

  it('keeps the zone nearer the mark when equally strong zones compete for the last place', () => {
    // flat bars at 100, one wide bar whose high (104) and low (97) are fractals of the same candle,
    // so equally strong; a later shelf at 101.2 is the strongest. The mark is 101: 104 is nearer.
    const rows: Candle[] = [];
    for (let i = 0; i < 34; i++) {
      const [open, high, low, close] =
        i === 15 ? [100, 104, 97, 101] : i < 30 ? [100, 100.5, 99.5, 100] : [100.8, 101.2, 100.6, 101];
      rows.push({ time: i * 60_000, open, high, low, close, volume: 0 });
    }
    const c = toColumns(rows);
    const all = supportResistance(c).zones;
    expect(all.map((z) => z.mid)).toEqual([97, 101.2, 104]);
    expect(all[0].strength).toBe(all[2].strength);
    expect(supportResistance(c, { maxZones: 2 }).zones.map((z) => z.mid)).toEqual([101.2, 104]);
    // and the mirrored series keeps the mirror of that zone
    const m = supportResistance(mirrorCandles(c, 200), { maxZones: 2 }).zones.map((z) => z.mid);
    expect(m).toEqual([96, 98.8]);
  });

  it('rejects bad input with a typed error', () => {
    const c = toColumns(rangeMarket(1));
    expectInputError(() => supportResistance(c, { window: 2 }), 'invalid_option');
    expectInputError(() => supportResistance(c, { halfLife: 0 }), 'invalid_option');
    expectInputError(() => supportResistance(c, { clusterAtr: -1 }), 'invalid_option');
    expectInputError(() => supportResistance(c, { maxZones: 0 }), 'invalid_option');
    expectInputError(() => supportResistance(c, { asOf: -1 }), 'invalid_option');
    expectInputError(() => supportResistance(c, { atr: [1, 2] }), 'length_mismatch');
    const bad = toColumns(rangeMarket(1));
    bad.volume[3] = Number.NaN;
    expectInputError(() => supportResistance(bad), 'non_finite');
    expectInputError(() => supportResistance(slice(c, 0, 0)), 'empty_input');
  });

  it.skipIf(!sharedDataDir)(`holds its invariants on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { candles } of loadSharedSeries()) {
      const n = candles.close.length;
      const a = atr(candles);
      for (const asOf of [20, 200, Math.floor(n / 2), n - 1]) {
        if (asOf >= n) continue;
        const sr = supportResistance(candles, { asOf, atr: a });
        checkInvariants(sr);
        if (asOf >= 200) expect(sr.zones.length).toBeGreaterThan(2);
      }
    }
  });

  // Its speed is measured by scripts/bench-levels.mjs, not asserted here: a test holds no timing.
  it.skipIf(!sharedDataDir)(
    `reads only its window, so its work does not grow with the history (skips when ${sharedDataSkipReason})`,
    () => {
      const full = loadSharedSeries()[0].candles;
      const n = full.close.length;
      const a = atr(full);
      for (const window of [200, 500]) {
        const from = n - window;
        const whole = supportResistance(full, { window, atr: a });
        const part = supportResistance(slice(full, from, n), { window, atr: a.slice(from) });
        expect(part.mark).toBe(whole.mark);
        expect(part.zones.length).toBe(whole.zones.length);
        for (let k = 0; k < whole.zones.length; k++) {
          const z = whole.zones[k];
          const y = part.zones[k];
          expect([y.low, y.high, y.strength, y.touches, y.last_touch_index + from]).toEqual([
            z.low,
            z.high,
            z.strength,
            z.touches,
            z.last_touch_index,
          ]);
        }
      }
    },
  );
});
