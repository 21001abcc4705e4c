// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// Williams fractals by their definition, checked candle by candle, and the zigzag's threshold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import { findSwings, zigzag } from './swings.js';

/** Candles on a coarse price grid, so that equal highs and lows (flat tops) are common. */
const gridCandles = fc.array(
  fc.record({ low: fc.integer({ min: 0, max: 6 }), range: fc.integer({ min: 0, max: 3 }) }),
  { minLength: 0, maxLength: 40 },
);

function rowsOf(cells: { low: number; range: number }[]): Candle[] {
  return cells.map(({ low, range }, i) => ({
    time: i * 1000,
    open: low,
    high: low + range,
    low,
    close: low + range,
    volume: 1,
  }));
}

describe('findSwings by its definition', () => {
  it('keeps exactly the candles above the left ones strictly and at or above the right ones', () => {
    fc.assert(
      fc.property(gridCandles, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (cells, left, right) => {
        fc.pre(cells.length > 0);
        const rows = rowsOf(cells);
        const want: [string, number][] = [];
        for (let i = left; i + right < rows.length; i++) {
          const before = rows.slice(i - left, i);
          const after = rows.slice(i + 1, i + 1 + right);
          if (before.every((r) => rows[i].high > r.high) && after.every((r) => rows[i].high >= r.high)) {
            want.push(['high', i]);
          }
          if (before.every((r) => rows[i].low < r.low) && after.every((r) => rows[i].low <= r.low)) {
            want.push(['low', i]);
          }
        }
        const got = findSwings(toColumns(rows), { left, right });
        expect(got.map((s) => [s.kind, s.index])).toEqual(want);
        for (const s of got) {
          expect(s.confirmed_index).toBe(s.index + right);
          expect(s.price).toBe(s.kind === 'high' ? rows[s.index].high : rows[s.index].low);
          expect(s.time).toBe(rows[s.index].time);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('names the option in its errors', () => {
    const c = toColumns(rowsOf([{ low: 1, range: 1 }]));
    for (const name of ['left', 'right'] as const) {
      let caught: unknown;
      try {
        findSwings(c, { [name]: 0 });
      } catch (e) {
        caught = e;
      }
      expect((caught as InputError).field).toBe(name);
    }
  });
});

describe('zigzag threshold', () => {
  // a gentle drift: one unit a candle against an ATR of 10, so a reversal needs 20 units
  const drift = rowsOf(Array.from({ length: 15 }, (_, i) => ({ low: 100 + i, range: 2 })));
  const atr = new Float64Array(drift.length).fill(10);

  it('confirms no first pivot while the range of the price stays under the threshold', () => {
    expect(zigzag(toColumns(drift), { atr })).toEqual([]);
    // with a threshold under the range, the older extreme (the first low) becomes the first pivot
    expect(zigzag(toColumns(drift), { atr, atrMultiple: 0.2 })[0]).toMatchObject({ kind: 'low', index: 0 });
  });

  it('runs with its defaults, and names the option in its errors', () => {
    expect(zigzag(toColumns(drift))).toEqual(zigzag(toColumns(drift), { atrPeriod: 14, atrMultiple: 2 }));
    const c = toColumns(drift);
    for (const [name, value] of [
      ['atrPeriod', 0],
      ['atrMultiple', 0],
    ] as const) {
      let caught: unknown;
      try {
        zigzag(c, { [name]: value });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).field).toBe(name);
    }
  });
});
