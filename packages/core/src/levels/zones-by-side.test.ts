import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atr } from '../indicators/atr.js';
import { expectInputError } from '../testing/bad-input.js';
import { gridCandleSeries, mirrorCandles } from '../testing/mirror.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import { type SupportResistance, type SupportResistanceOptions, supportResistance, type Zone } from './zones.js';

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
function checkInvariants(sr: SupportResistance, maxZones = 4): void {
  const { zones, mark } = sr;
  // at most maxZones a side, and a side is never empty while the mark is inside the stored range
  expect(zones.filter((z) => z.high < mark).length).toBeLessThanOrEqual(maxZones);
  expect(zones.filter((z) => z.low > mark).length).toBeLessThanOrEqual(maxZones);
  if (sr.as_of_index > 0 && !sr.at_all_time_low)
    expect(
      zones.some((z) => z.low < mark),
      'a level below',
    ).toBe(true);
  if (sr.as_of_index > 0 && !sr.at_all_time_high)
    expect(
      zones.some((z) => z.high > mark),
      'a level above',
    ).toBe(true);
  expect(sr.range.all_time_high).toBeGreaterThanOrEqual(sr.range.high_52w);
  expect(sr.range.all_time_low).toBeLessThanOrEqual(sr.range.low_52w);
  expect(sr.range.candles).toBe(sr.as_of_index + 1);
  for (let k = 0; k < zones.length; k++) {
    const z = zones[k];
    expect(z.low).toBeLessThanOrEqual(z.high);
    expect(z.mid).toBeGreaterThanOrEqual(z.low);
    expect(z.mid).toBeLessThanOrEqual(z.high);
    // (a weekly swing of years back has decayed to 0: old structure is kept for its price, not its strength)
    expect(z.strength).toBeGreaterThanOrEqual(0);
    expect(z.strength).toBeLessThan(1);
    // a swing zone has its swings; a zone made only by a gap or an extreme has none
    expect(z.sources.length).toBeGreaterThan(0);
    if (z.sources.includes('swing')) expect(z.touches).toBeGreaterThanOrEqual(1);
    else expect(z.touches).toBe(0);
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

describe('supportResistance by side (bySide)', () => {
  it('holds its invariants on generated candles', () => {
    fc.assert(
      fc.property(candleSeries(1, 200), fc.integer({ min: 1, max: 6 }), (rows, maxZones) => {
        checkInvariants(
          supportResistance(toColumns(rows), { bySide: true, maxZones, atrPeriod: 10, window: 150 }),
          maxZones,
        );
      }),
      { numRuns: 100 },
    );
  });

  it('never looks ahead: as of i equals the analysis of candles 0..i', () => {
    fc.assert(
      fc.property(candleSeries(2, 200), fc.nat(), (rows, cut) => {
        const c = toColumns(rows);
        const asOf = cut % rows.length;
        expect(supportResistance(c, { bySide: true, asOf })).toEqual(
          supportResistance(slice(c, 0, asOf + 1), { bySide: true }),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('mirrors: p -> K - p turns the levels below into the levels above', () => {
    const K = 10_000;
    fc.assert(
      fc.property(gridCandleSeries(20, 250), fc.constantFrom(4, 2), (rows, maxZones) => {
        const c = toColumns(rows);
        const a = supportResistance(c, { bySide: true, atrPeriod: 7, maxZones });
        const b = supportResistance(mirrorCandles(c, K), { bySide: true, atrPeriod: 7, maxZones });
        expect(b.zones.length).toBe(a.zones.length);
        const n = a.zones.length;
        for (let k = 0; k < n; k++) {
          close(b.zones[n - 1 - k].low, K - a.zones[k].high, 'low');
          close(b.zones[n - 1 - k].high, K - a.zones[k].low, 'high');
        }
        expect(b.at_all_time_high).toBe(a.at_all_time_low);
      }),
      { numRuns: 60 },
    );
  });

  it.skipIf(!sharedDataDir)(`holds its invariants on the real series (skips when ${sharedDataSkipReason})`, () => {
    let inside = 0;
    let draws = 0;
    for (const { candles } of loadSharedSeries()) {
      const n = candles.close.length;
      const a = atr(candles);
      for (let asOf = 20; asOf < n; asOf += Math.max(1, Math.floor(n / 40))) {
        const sr = supportResistance(candles, { bySide: true, asOf, atr: a });
        checkInvariants(sr);
        draws++;
        if (!sr.at_all_time_high && !sr.at_all_time_low) inside++;
      }
    }
    // most probes are inside the stored range, where both sides must hold a level
    expect(inside / draws).toBeGreaterThan(0.8);
  });

  it('keeps per side the nearest, then the range extremes, then the strongest', () => {
    // flat bars at 100, one wide bar whose high (104) and low (97) are fractals of the same candle
    // and the all-time extremes; a later shelf at 101.2 is the strongest. The mark is 101.
    const rows: Candle[] = [];
    for (let i = 0; i < 34; i++) {
      const [open, high, low, close] =
        i === 15 ? [100, 104, 97, 101] : i < 30 ? [100, 100.5, 99.5, 100] : [100.8, 101.2, 100.6, 101];
      rows.push({ time: i * 60_000, open, high, low, close, volume: 0 });
    }
    const c = toColumns(rows);
    const all = supportResistance(c, { bySide: true }).zones;
    expect(all.map((z) => z.mid)).toEqual([97, 101.2, 104]);
    expect(all.map((z) => z.sources)).toEqual([
      ['swing', 'all_time_low', 'low_52w'],
      ['swing'],
      ['swing', 'all_time_high', 'high_52w'],
    ]);
    expect(all[0].strength).toBe(all[2].strength);
    expect(all[1].strength).toBeGreaterThan(all[2].strength);
    const mids = (o: SupportResistanceOptions, candles = c): number[] =>
      supportResistance(candles, { bySide: true, ...o }).zones.map((z) => z.mid);
    // one a side: the nearest resistance (101.2) over the all-time high
    expect(mids({ maxZones: 1, nearestPerSide: 1 })).toEqual([97, 101.2]);
    // none kept for nearness: the extreme comes before the stronger shelf
    expect(mids({ maxZones: 1, nearestPerSide: 0 })).toEqual([97, 104]);
    // without the extremes as levels, the stronger shelf
    expect(mids({ maxZones: 1, nearestPerSide: 0, rangeExtremes: false })).toEqual([97, 101.2]);
    // and the mirrored series keeps the mirror of each
    const m = mirrorCandles(c, 200);
    expect(mids({ maxZones: 1, nearestPerSide: 1 }, m)).toEqual([98.8, 103]);
    expect(mids({ maxZones: 1, nearestPerSide: 0 }, m)).toEqual([96, 103]);
  });

  it('keeps the nearest zone of a side that has none within reach, and says when the price is beyond all', () => {
    const rows: Candle[] = [];
    // a range 100..110, then a run to 140 (far beyond 10 ATR of the range's ceiling)
    for (let i = 0; i < 120; i++) {
      const p = i < 100 ? 105 + 5 * Math.sin(i / 3) : 110 + (i - 99) * 1.5;
      rows.push({ time: i * 86_400_000, open: p, high: p + 1, low: p - 1, close: p, volume: 100 });
    }
    const c = toColumns(rows);
    const sr = supportResistance(c, { bySide: true, atrPeriod: 5 });
    checkInvariants(sr);
    expect(sr.at_all_time_high).toBe(true);
    expect(sr.at_all_time_low).toBe(false);
    // nothing above: the mark is beyond every earlier candle, and says so
    expect(sr.zones.filter((z) => z.high > sr.mark)).toEqual([]);
    expect(sr.range.all_time_high).toBe(sr.mark + 1);
    // below: the high of the candle before, the all-time high until now, is the nearest support
    expect(sr.nearest_support?.sources).toEqual(['all_time_high', 'high_52w']);
    expect(sr.nearest_support?.high).toBe(sr.mark - 0.5);
    // without the extremes, the support side keeps the range's ceiling, beyond the reach
    const far = supportResistance(c, { bySide: true, atrPeriod: 5, rangeExtremes: false });
    checkInvariants(far);
    const supports = far.zones.filter((z) => z.high < far.mark);
    expect(supports.length).toBe(1);
    expect(supports[0].high).toBeLessThan(far.mark - 10 * (far.atr ?? 0));
    expect(supports[0].high).toBeGreaterThan(110);
    expect(sr.range.all_time_low).toBeCloseTo(99, 1);
  });
});
