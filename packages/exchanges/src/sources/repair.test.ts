import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TIMEFRAME_MS } from '../ports.js';
import { emptyCandles, foldCandles, repairCandles, repaired } from './repair.js';

function series(rows: readonly (readonly [number, number, number, number, number, number])[]) {
  const c = emptyCandles(rows.length);
  rows.forEach((r, i) => {
    c.time[i] = r[0];
    c.open[i] = r[1];
    c.high[i] = r[2];
    c.low[i] = r[3];
    c.close[i] = r[4];
    c.volume[i] = r[5];
  });
  return c;
}

const H = TIMEFRAME_MS.h1;

describe('repairCandles', () => {
  it('returns a clean series unchanged, counting its gaps', () => {
    const c = series([
      [0, 1, 2, 1, 1.5, 10],
      [H, 1.5, 2, 1, 1.2, 10],
      [4 * H, 1.2, 1.3, 1.1, 1.2, 0],
    ]);
    const { candles, report } = repairCandles(c, 'h1');
    expect(candles).toBe(c);
    expect(report.gaps).toBe(2);
    expect(repaired(report)).toBe(false);
  });

  it('drops bad prices, keeps the last duplicate, sorts, and drops off-grid rows', () => {
    const c = series([
      [2 * H, 3, 3, 3, 3, 1],
      [0, 1, 1, 1, 1, 1],
      [H, 0, 1, 1, 1, 1], // non-positive open
      [H, 2, 1, 3, 2, 1], // high < low
      [H + 5, 2, 2, 2, 2, 1], // not on the h1 grid
      [3 * H, Number.NaN, 1, 1, 1, 1],
      [2 * H, 4, 4, 4, 4, 1], // duplicate: the later row wins
    ]);
    const { candles, report } = repairCandles(c, 'h1');
    expect([...candles.time]).toEqual([0, 2 * H]);
    expect(candles.close[1]).toBe(4);
    expect(report).toMatchObject({ received: 7, invalid: 3, duplicates: 1, misaligned: 1, reordered: true, gaps: 1 });
  });

  it('always yields a strictly increasing series of valid bars (property)', () => {
    const row = fc.tuple(
      fc.integer({ min: 0, max: 400 }).map((k) => k * H),
      fc.oneof(fc.double({ min: -10, max: 1e6, noNaN: false }), fc.constant(Number.NaN)),
      fc.double({ min: -10, max: 1e6 }),
      fc.double({ min: -10, max: 1e6 }),
      fc.double({ min: -10, max: 1e6 }),
      fc.double({ min: -1, max: 1e9 }),
    );
    let nonEmpty = 0;
    fc.assert(
      fc.property(fc.array(row, { minLength: 0, maxLength: 300 }), (rows) => {
        const { candles, report } = repairCandles(series(rows), 'h1');
        const n = candles.time.length;
        if (n > 0) nonEmpty++;
        expect(report.received).toBe(rows.length);
        expect(n + report.invalid + report.duplicates + report.misaligned).toBe(rows.length);
        for (let i = 0; i < n; i++) {
          if (i > 0) expect(candles.time[i]).toBeGreaterThan(candles.time[i - 1]);
          expect(candles.low[i]).toBeGreaterThan(0);
          expect(candles.high[i]).toBeGreaterThanOrEqual(Math.max(candles.open[i], candles.close[i]));
          expect(candles.low[i]).toBeLessThanOrEqual(Math.min(candles.open[i], candles.close[i]));
        }
      }),
      { numRuns: 200 },
    );
    expect(nonEmpty).toBeGreaterThan(0);
  });
});

describe('foldCandles', () => {
  it('folds m5 into h1, dropping a leading partial hour', () => {
    const M5 = TIMEFRAME_MS.m5;
    const rows: [number, number, number, number, number, number][] = [];
    for (let k = 6; k < 36; k++) rows.push([k * M5, k, k + 1, k - 1, k + 0.5, 1]);
    const out = foldCandles(series(rows), 'h1');
    expect([...out.time]).toEqual([H, 2 * H]);
    expect(out.open[0]).toBe(12);
    expect(out.close[0]).toBe(23.5);
    expect(out.high[0]).toBe(24);
    expect(out.low[0]).toBe(11);
    expect(out.volume[0]).toBe(12);
    expect(out.volume[1]).toBe(12);
  });
});
