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
    // Mostly valid bars (low <= open, close <= high), about one in six corrupted one way or another,
    // on times that repeat, go backwards and leave the grid: every branch of the repair is reached.
    const valid = fc
      .tuple(
        fc.double({ min: 0.01, max: 1e5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
      )
      .map(([low, a, b, spread, volume]) => {
        const high = low * (1 + spread);
        return [low + a * (high - low), high, low, low + b * (high - low), volume] as const;
      });
    const corrupt = fc.constantFrom(
      (r: readonly number[]) => [0, r[1], r[2], r[3], r[4]],
      (r: readonly number[]) => [r[0], r[2] / 2, r[2], r[3], r[4]],
      (r: readonly number[]) => [r[0], r[1], r[2], Number.NaN, r[4]],
      (r: readonly number[]) => [r[0], Number.POSITIVE_INFINITY, r[2], r[3], r[4]],
      (r: readonly number[]) => [r[0], r[1], r[2], r[3], -1],
    );
    const row = fc
      .tuple(fc.integer({ min: 0, max: 400 }), fc.boolean(), valid, fc.option(corrupt, { freq: 5 }))
      .map(([k, offGrid, bar, damage]) => {
        const [o, h, l, c, v] = damage === null ? bar : damage(bar);
        return [k * H + (offGrid && k % 7 === 0 ? 1 : 0), o, h, l, c, v] as const;
      });
    let reached = 0;
    let draws = 0;
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 300 }), (rows) => {
        draws++;
        const { candles, report } = repairCandles(series(rows), 'h1');
        const n = candles.time.length;
        if (n > 0 && report.invalid + report.duplicates > 0) reached++;
        expect(report.received).toBe(rows.length);
        expect(n + report.invalid + report.duplicates + report.misaligned).toBe(rows.length);
        for (let i = 0; i < n; i++) {
          if (i > 0) expect(candles.time[i]).toBeGreaterThan(candles.time[i - 1]);
          expect(candles.low[i]).toBeGreaterThan(0);
          expect(candles.high[i]).toBeGreaterThanOrEqual(Math.max(candles.open[i], candles.close[i]));
          expect(candles.low[i]).toBeLessThanOrEqual(Math.min(candles.open[i], candles.close[i]));
          expect(Number.isFinite(candles.volume[i]) && candles.volume[i] >= 0).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
    // Most draws keep bars and repair some: the property is exercised, not vacuous.
    expect(reached / draws).toBeGreaterThan(0.5);
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
