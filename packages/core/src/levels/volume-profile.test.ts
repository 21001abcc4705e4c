import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectInputError } from '../testing/bad-input.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { type VolumeProfile, volumeProfile } from './volume-profile.js';

function candles(rows: [number, number, number][]): Candles {
  // [low, high, volume]
  return toColumns(
    rows.map(([low, high, volume], i) => ({ time: i * 1000, open: low, high, low, close: high, volume })),
  );
}

function checkProfile(p: VolumeProfile, total: number, share: number): void {
  const sum = p.bins.reduce((s, b) => s + b.volume, 0);
  expect(Math.abs(sum - total)).toBeLessThanOrEqual(1e-9 * Math.max(1, total));
  for (let k = 1; k < p.bins.length; k++) expect(p.bins[k].low).toBe(p.bins[k - 1].high);
  expect(p.value_area_low).toBeLessThanOrEqual(p.poc);
  expect(p.value_area_high).toBeGreaterThanOrEqual(p.poc);
  const inside = p.bins
    .filter((b) => b.low >= p.value_area_low && b.high <= p.value_area_high)
    .reduce((s, b) => s + b.volume, 0);
  expect(inside).toBeGreaterThanOrEqual(share * total * (1 - 1e-12) - 1e-300); // denormal volumes round
  const max = Math.max(...p.bins.map((b) => b.volume));
  // the POC is the middle of a fullest row (on a tiny range it can round onto a row edge)
  expect(p.bins.some((b) => b.low <= p.poc && p.poc <= b.high && b.volume === max)).toBe(true);
  expect(JSON.stringify(p)).not.toMatch(/NaN|Infinity/);
}

describe('volumeProfile', () => {
  it('spreads volume over each candle range and finds POC and value area (worked example)', () => {
    // range 0..10 in 10 rows of 1
    const c = candles([
      [0, 10, 100], // 10 per row
      [4, 6, 60], // 30 in rows 4 and 5
      [5, 5, 40], // a candle without range: all in row 5
    ]);
    const p = volumeProfile(c, { bins: 10 });
    expect(p.bins.map((b) => b.volume)).toEqual([10, 10, 10, 10, 40, 80, 10, 10, 10, 10]);
    expect(p.poc).toBe(5.5);
    // 70% of 200 = 140: row 5 (80) + row 4 (40) + rows 3 and 6 on a tie (20) = 140
    expect(p.value_area_low).toBe(3);
    expect(p.value_area_high).toBe(7);
    expect(p.basis).toBe('volume');
    expect(p.total_volume).toBe(200);
  });

  it('counts candles when there is no volume, and has one row for a single price', () => {
    const p = volumeProfile(
      candles([
        [1, 3, 0],
        [2, 3, 0],
      ]),
      { bins: 2 },
    );
    expect(p.basis).toBe('time');
    expect(p.bins.map((b) => b.volume)).toEqual([0.5, 1.5]);
    const flat = volumeProfile(
      candles([
        [5, 5, 10],
        [5, 5, 20],
      ]),
    );
    expect(flat.bins).toEqual([{ low: 5, high: 5, volume: 30 }]);
    expect([flat.poc, flat.value_area_low, flat.value_area_high]).toEqual([5, 5, 5]);
  });

  it('holds its invariants on generated candles, and never looks ahead', () => {
    fc.assert(
      fc.property(
        candleSeries(1, 120),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.nat(),
        (rows, bins, share, cut) => {
          const c = toColumns(rows);
          const total = rows.reduce((s, r) => s + r.volume, 0);
          const p = volumeProfile(c, { bins, valueArea: share });
          checkProfile(p, total > 0 ? total : rows.length, share);
          const asOf = cut % rows.length;
          expect(volumeProfile(c, { bins, valueArea: share, asOf, window: 30 })).toEqual(
            volumeProfile(toColumns(rows.slice(Math.max(0, asOf - 29), asOf + 1)), { bins, valueArea: share }),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it.skipIf(!sharedDataDir)(`holds its invariants on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { candles: c } of loadSharedSeries()) {
      const p = volumeProfile(c, { window: 500 });
      const n = c.close.length;
      let total = 0;
      for (let i = Math.max(0, n - 500); i < n; i++) total += c.volume[i];
      checkProfile(p, total > 0 ? total : Math.min(n, 500), 0.7);
    }
  });

  it('rejects bad input with a typed error', () => {
    const c = candles([[1, 2, 3]]);
    expectInputError(() => volumeProfile(c, { bins: 0 }), 'invalid_option');
    expectInputError(() => volumeProfile(c, { valueArea: 0 }), 'invalid_option');
    expectInputError(() => volumeProfile(c, { valueArea: 1.5 }), 'invalid_option');
    expectInputError(() => volumeProfile(c, { window: 0 }), 'invalid_option');
    expectInputError(() => volumeProfile(candles([])), 'empty_input');
  });
});
