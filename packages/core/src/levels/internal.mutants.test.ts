// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the candle checks shared by levels, plans and simulations, and the ATR column they read.
import { describe, expect, it } from 'vitest';
import { caughtInputError as caught } from '../testing/bad-input.js';
import type { Candles } from '../types.js';
import { atrColumn, positiveOrNull, prefixCandles } from './internal.js';

function plain(n: number): Candles {
  const col = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
  return {
    time: col((i) => i * 1000),
    open: col((i) => 10 + i),
    high: col((i) => 11 + i),
    low: col((i) => 9 + i),
    close: col((i) => 10 + i),
    volume: col(() => 5),
  } as unknown as Candles;
}

describe('prefixCandles', () => {
  it('returns the candles 0..asOf, as a view of a Float64Array column and a copy of any other', () => {
    const typed = {
      time: Float64Array.from([0, 1, 2, 3]),
      open: Float64Array.from([1, 2, 3, 4]),
      high: Float64Array.from([2, 3, 4, 5]),
      low: Float64Array.from([0.5, 1, 2, 3]),
      close: Float64Array.from([1, 2, 3, 4]),
      volume: Float64Array.from([1, 1, 1, 1]),
    };
    const all = prefixCandles(typed, undefined);
    expect(all.end).toBe(3);
    // the whole column is the column itself: nothing copied
    expect(all.view.close).toBe(typed.close);
    const part = prefixCandles(typed, 1);
    expect(part.end).toBe(1);
    expect([...part.view.close]).toEqual([1, 2]);
    expect(part.view.close.buffer).toBe(typed.close.buffer);
    const copy = prefixCandles(plain(5), 2);
    expect(copy.view.high).toBeInstanceOf(Float64Array);
    expect([...copy.view.high]).toEqual([11, 12, 13]);
    expect([...copy.view.time]).toEqual([0, 1000, 2000]);
  });

  it('rejects what is not candles, an empty series, a missing or short column, and a bad asOf', () => {
    for (const bad of [null, undefined, 3, {}]) {
      const e = caught(() => prefixCandles(bad as unknown as Candles, undefined));
      expect(e.code).toBe('empty_input');
      expect(e.message).toBe('candles must be an object of columns time, open, high, low, close, volume');
    }
    const empty = caught(() => prefixCandles(plain(0), undefined));
    expect([empty.code, empty.message, empty.field]).toEqual(['empty_input', 'candles.close is empty', 'close']);
    const missing = caught(() => prefixCandles({ ...plain(3), volume: undefined } as unknown as Candles, undefined));
    expect([missing.code, missing.message, missing.field]).toEqual([
      'empty_input',
      'candles.volume is missing',
      'volume',
    ]);
    const notArray = caught(() => prefixCandles({ ...plain(3), open: 7 } as unknown as Candles, undefined));
    expect([notArray.code, notArray.field]).toEqual(['empty_input', 'open']);
    const short = caught(() => prefixCandles({ ...plain(3), low: [1, 2] } as unknown as Candles, undefined));
    expect([short.code, short.message, short.field]).toEqual([
      'length_mismatch',
      'candles.low has 2 values but candles.close has 3',
      'low',
    ]);
    for (const asOf of [-1, 3, 1.5]) {
      const e = caught(() => prefixCandles(plain(3), asOf));
      expect([e.code, e.field]).toEqual(['invalid_option', 'asOf']);
    }
  });

  it('checks only the window for non-finite values', () => {
    const c = plain(6);
    (c.close as unknown as number[])[1] = Number.NaN;
    // candle 1 lies outside the last 3 candles: not read, not checked
    expect(prefixCandles(c, undefined, 3).end).toBe(5);
    expect(caught(() => prefixCandles(c, undefined, 5)).code).toBe('non_finite');
    expect(caught(() => prefixCandles(c, 3, 3)).code).toBe('non_finite');
    expect(caught(() => prefixCandles(c, undefined)).code).toBe('non_finite');
  });
});

describe('atrColumn', () => {
  const c = plain(6);
  const { view } = prefixCandles(c, 3);

  it("computes the prefix's ATR, or takes the caller's column of the full or the prefix length", () => {
    const own = atrColumn(view, 6, 2);
    expect(own).toHaveLength(4);
    const full = [1, 2, 3, 4, 5, 6];
    expect(atrColumn(view, 6, 2, full)).toBe(full);
    const prefix = [1, 2, 3, 4];
    expect(atrColumn(view, 6, 2, prefix)).toBe(prefix);
  });

  it('rejects a column of another length, naming it', () => {
    for (const given of [[1, 2, 3], null, { length: 'x' }]) {
      const e = caught(() => atrColumn(view, 6, 2, given as unknown as ArrayLike<number>));
      expect([e.code, e.field]).toEqual(['length_mismatch', 'atr']);
    }
    expect(caught(() => atrColumn(view, 6, 2, [1, 2, 3])).message).toBe('atr has 3 values but candles have 6');
    expect(caught(() => atrColumn(view, 6, 2, null as unknown as ArrayLike<number>)).message).toBe(
      'atr has undefined values but candles have 6',
    );
  });
});

describe('positiveOrNull', () => {
  it('keeps finite positive numbers only', () => {
    expect(positiveOrNull(2.5)).toBe(2.5);
    expect(positiveOrNull(Number.MIN_VALUE)).toBe(Number.MIN_VALUE);
    for (const x of [0, -0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(positiveOrNull(x)).toBeNull();
  });
});
