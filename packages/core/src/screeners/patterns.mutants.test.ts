// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// every pattern checked against its documented definition on candles of an integer grid, where
// bodies and shadows land exactly on the thresholds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { type CandlePattern, patternsAt } from './patterns.js';

interface Bar {
  open: number;
  high: number;
  low: number;
  close: number;
}

const bar: fc.Arbitrary<Bar> = fc
  .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), fc.nat(14), fc.nat(14))
  .map(([open, close, up, down]) => ({
    open,
    close,
    high: Math.max(open, close) + up,
    low: Math.min(open, close) - down,
  }));

/** The definitions of patternsAt's documentation, read literally. */
function reference(bars: readonly Bar[], i: number, trendBars: number): CandlePattern[] {
  const b = bars[i];
  const body = Math.abs(b.close - b.open);
  const range = b.high - b.low;
  const lower = Math.min(b.open, b.close) - b.low;
  const upper = b.high - Math.max(b.open, b.close);
  const prior = i - 1 - trendBars >= 0 ? [bars[i - 1].close, bars[i - 1 - trendBars].close] : null;
  const p = i >= 1 ? bars[i - 1] : null;
  const out: CandlePattern[] = [];
  if (p && p.close < p.open && b.close > b.open && b.open <= p.close && b.close >= p.open && body > p.open - p.close) {
    out.push('bullish_engulfing');
  }
  if (p && p.close > p.open && b.close < b.open && b.open >= p.close && b.close <= p.open && body > p.close - p.open) {
    out.push('bearish_engulfing');
  }
  const small = range > 0 && body <= 0.35 * range;
  if (prior && small && lower >= 2 * body && upper <= 0.1 * range && prior[0] < prior[1]) out.push('hammer');
  if (prior && small && upper >= 2 * body && lower <= 0.1 * range && prior[0] > prior[1]) out.push('shooting_star');
  if (range > 0 && body <= 0.1 * range) out.push('doji');
  return out;
}

function columns(bars: readonly Bar[]) {
  return {
    open: bars.map((b) => b.open),
    high: bars.map((b) => b.high),
    low: bars.map((b) => b.low),
    close: bars.map((b) => b.close),
  };
}

describe('patternsAt against its definitions', () => {
  it('finds exactly the documented patterns at every bar', () => {
    fc.assert(
      fc.property(fc.array(bar, { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 4 }), (bars, trendBars) => {
        const c = columns(bars);
        for (let i = 0; i < bars.length; i++) {
          expect(patternsAt(c, { asOf: i, trendBars })).toEqual(reference(bars, i, trendBars));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('finds each pattern on a textbook bar, and reads the last bar by default with a trend of 5', () => {
    const fall = [10, 9, 8, 7, 6, 5].map((x) => ({ open: x + 1, high: x + 1, low: x, close: x }));
    const rise = [5, 6, 7, 8, 9, 10].map((x) => ({ open: x - 1, high: x, low: x - 1, close: x }));
    // hammer: body 2 at the top of a range of 10, no upper shadow
    expect(patternsAt(columns([...fall, { open: 3, high: 5, low: -5, close: 5 }]))).toEqual(['hammer']);
    // shooting star: body 2 at the bottom of a range of 10
    expect(patternsAt(columns([...rise, { open: 12, high: 20, low: 10, close: 10 }]))).toEqual(['shooting_star']);
    // the prior move is measured over trendBars: a 6-bar decline is no decline over 1 bar after a bounce
    const bounce = [
      ...fall.slice(0, 5),
      { open: 6, high: 7, low: 6, close: 7 },
      { open: 3, high: 5, low: -5, close: 5 },
    ];
    expect(patternsAt(columns(bounce), { trendBars: 1 })).toEqual([]);
    expect(patternsAt(columns(bounce), { trendBars: 4 })).toEqual(['hammer']);
  });

  it('rejects an index outside the series and a bad trendBars, naming them', () => {
    const c = columns([{ open: 1, high: 2, low: 0, close: 1 }]);
    for (const asOf of [-1, 1, 0.5]) {
      let caught: unknown;
      try {
        patternsAt(c, { asOf });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).field).toBe('asOf');
      expect((caught as InputError).code).toBe('invalid_option');
      expect((caught as InputError).message).toBe(`asOf must be an integer in 0..0, got ${asOf}`);
    }
    let caught: unknown;
    try {
      patternsAt(c, { trendBars: 0 });
    } catch (e) {
      caught = e;
    }
    expect((caught as InputError).field).toBe('trendBars');
  });
});
