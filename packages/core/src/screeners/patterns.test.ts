import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { candleSeries, toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import { type CandlePattern, patternsAt } from './patterns.js';

function bars(ohlc: [number, number, number, number][]): Candle[] {
  return ohlc.map(([open, high, low, close], i) => ({ time: i, open, high, low, close, volume: 1 }));
}

/** A decline of six bars, then the bar under test. */
function afterDecline(last: [number, number, number, number]): Candle[] {
  const prior: [number, number, number, number][] = [];
  for (let k = 0; k < 6; k++) {
    const o = 120 - 3 * k;
    prior.push([o, o + 0.5, o - 3.5, o - 3]);
  }
  return bars([...prior, last]);
}

function mirror(rows: readonly Candle[], k: number): Candle[] {
  return rows.map((r) => ({ ...r, open: k - r.open, close: k - r.close, high: k - r.low, low: k - r.high }));
}

const MIRROR: Record<CandlePattern, CandlePattern> = {
  bullish_engulfing: 'bearish_engulfing',
  bearish_engulfing: 'bullish_engulfing',
  hammer: 'shooting_star',
  shooting_star: 'hammer',
  doji: 'doji',
};

describe('patternsAt', () => {
  it('finds a hammer after a decline, and not after a rise', () => {
    // body 1, lower shadow 4, no upper shadow, range 5
    const hammer: [number, number, number, number] = [101, 102, 97, 102];
    expect(patternsAt(toColumns(afterDecline(hammer)))).toEqual(['hammer']);
    const rise = mirror(afterDecline([0, 0, 0, 0]), 240).slice(0, 6);
    expect(patternsAt(toColumns([...rise, ...bars([hammer]).map((b) => ({ ...b, time: 6 }))]))).toEqual([]);
  });

  it('finds a shooting star after a rise', () => {
    const rows = mirror(afterDecline([101, 102, 97, 102]), 300);
    expect(patternsAt(toColumns(rows))).toEqual(['shooting_star']);
  });

  it('finds engulfing bars and doji', () => {
    expect(
      patternsAt(
        toColumns(
          bars([
            [10, 10.2, 8.8, 9],
            [8.9, 10.6, 8.8, 10.5],
          ]),
        ),
      ),
    ).toEqual(['bullish_engulfing']);
    expect(
      patternsAt(
        toColumns(
          bars([
            [9, 10.2, 8.8, 10],
            [10.1, 10.2, 8.5, 8.6],
          ]),
        ),
      ),
    ).toEqual(['bearish_engulfing']);
    // an equal body does not engulf
    expect(
      patternsAt(
        toColumns(
          bars([
            [10, 10, 9, 9],
            [9, 10, 9, 10],
          ]),
        ),
      ),
    ).toEqual([]);
    expect(patternsAt(toColumns(bars([[10, 11, 9, 10.1]])))).toEqual(['doji']);
    // a flat bar has no range: no doji
    expect(patternsAt(toColumns(bars([[10, 10, 10, 10]])))).toEqual([]);
  });

  it('maps each pattern to its mirror image when prices are mirrored (p -> K - p)', () => {
    // K = 0: negation is exact in floating point (K - p is not, and can erase a one-ulp range);
    // the definitions only read differences of prices, so negative prices are fine here.
    fc.assert(
      fc.property(candleSeries(2, 30), (rows) => {
        const a = patternsAt(toColumns(rows));
        const b = patternsAt(toColumns(mirror(rows, 0)));
        expect(new Set(b)).toEqual(new Set(a.map((p) => MIRROR[p])));
      }),
      { numRuns: 200 },
    );
  });

  it('reads only bars up to asOf', () => {
    fc.assert(
      fc.property(candleSeries(2, 40), fc.nat(), (rows, cut) => {
        const k = cut % rows.length;
        const full = toColumns(rows);
        expect(patternsAt(full, { asOf: k })).toEqual(patternsAt(toColumns(rows.slice(0, k + 1))));
      }),
      { numRuns: 100 },
    );
  });

  it('rejects bad input with a typed error', () => {
    const c = toColumns(bars([[1, 2, 0.5, 1.5]]));
    expect(() => patternsAt(c, { asOf: 1 })).toThrow(InputError);
    expect(() => patternsAt(c, { trendBars: 0 })).toThrow(InputError);
    expect(() => patternsAt({ ...c, open: new Float64Array(0) })).toThrow(InputError);
  });
});
