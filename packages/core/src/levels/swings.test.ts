import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { atr } from '../indicators/atr.js';
import { expectInputError } from '../testing/bad-input.js';
import { gridCandleSeries, mirrorCandles } from '../testing/mirror.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { findSwings, type Swing, zigzag } from './swings.js';

/** Candles from highs and lows only (open = low, close = high). */
function hl(highs: number[], lows: number[]): Candles {
  return toColumns(
    highs.map((h, i) => ({ time: i * 1000, open: lows[i], high: h, low: lows[i], close: h, volume: 1 })),
  );
}

function brief(s: Swing[]): string[] {
  return s.map((x) => `${x.kind}@${x.index}:${x.price}/${x.confirmed_index}`);
}

describe('findSwings (Williams fractals)', () => {
  it('finds the five-bar fractals of a worked example', () => {
    const highs = [10, 11, 14, 12, 11, 12, 13, 12, 11, 10];
    const lows = [9, 10, 12, 10, 8, 10, 11, 10, 9, 8];
    expect(brief(findSwings(hl(highs, lows)))).toEqual(['high@2:14/4', 'low@4:8/6', 'high@6:13/8']);
    // as of index 7, the high at 6 is not confirmed yet
    expect(brief(findSwings(hl(highs, lows), { asOf: 7 }))).toEqual(['high@2:14/4', 'low@4:8/6']);
  });

  it('keeps the first candle of a flat top (strict on the left, non-strict on the right)', () => {
    const highs = [10, 11, 13, 13, 12, 11, 10];
    const lows = [9, 10, 12, 12, 11, 10, 9];
    expect(brief(findSwings(hl(highs, lows)).filter((s) => s.kind === 'high'))).toEqual(['high@2:13/4']);
    expect(brief(findSwings(hl(highs, lows), { left: 1, right: 3 }).filter((s) => s.kind === 'high'))).toEqual([
      'high@2:13/5',
    ]);
  });

  it('never looks ahead: the prefix result is the full result confirmed by then', () => {
    fc.assert(
      fc.property(candleSeries(1, 80), fc.nat(), fc.integer({ min: 1, max: 4 }), (rows, cut, span) => {
        const c = toColumns(rows);
        const asOf = cut % rows.length;
        const full = findSwings(c, { left: span, right: span });
        const prefix = findSwings(toColumns(rows.slice(0, asOf + 1)), { left: span, right: span });
        expect(findSwings(c, { left: span, right: span, asOf })).toEqual(prefix);
        expect(prefix).toEqual(full.filter((s) => s.confirmed_index <= asOf));
      }),
      { numRuns: 100 },
    );
  });

  it('mirrors: p -> K - p turns swing highs into swing lows at the same candles', () => {
    fc.assert(
      fc.property(gridCandleSeries(5, 120), (rows) => {
        const c = toColumns(rows);
        const m = findSwings(mirrorCandles(c, 10_000));
        const flipped = findSwings(c).map(
          (s): Swing => ({
            ...s,
            kind: s.kind === 'high' ? 'low' : 'high',
            price: 10_000 - s.price,
          }),
        );
        const key = (s: Swing): string => `${s.index}${s.kind}`;
        expect([...m].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
          [...flipped].sort((a, b) => key(a).localeCompare(key(b))),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('rejects bad input with a typed error', () => {
    const c = hl([1, 2, 3], [0.5, 1, 2]);
    expectInputError(() => findSwings(c, { left: 0 }), 'invalid_option');
    expectInputError(() => findSwings(c, { right: 1.5 }), 'invalid_option');
    expectInputError(() => findSwings(c, { asOf: 3 }), 'invalid_option');
    expectInputError(() => findSwings(hl([], [])), 'empty_input');
    const bad = hl([1, 2, 3], [0.5, 1, 2]);
    bad.high[1] = Number.NaN;
    expectInputError(() => findSwings(bad), 'non_finite');
    expect(() => findSwings({ ...c, low: new Float64Array(2) })).toThrow(InputError);
  });
});

describe('zigzag (ATR-scaled)', () => {
  it('confirms pivots on a reversal of atrMultiple ATRs (worked example with a constant ATR)', () => {
    // ATR fixed at 1, multiple 2: a reversal needs a 2-point move from the running extreme.
    const highs = [10, 11, 12, 13, 12.5, 11.5, 11, 10.5, 11, 12, 13.5, 14, 13];
    const lows = [9, 10, 11, 12, 11.5, 10.9, 10, 9.5, 10, 11, 12.5, 13, 11.9];
    const c = hl(highs, lows);
    const one = new Float64Array(highs.length).fill(1);
    // before any pivot both extremes are tracked: low 9 at 0 and high 13 at 3 are 4 apart by index 3
    expect(brief(zigzag(c, { atr: one }))).toEqual(['low@0:9/1', 'high@3:13/5', 'low@7:9.5/9', 'high@11:14/12']);
    expect(brief(zigzag(c, { atr: one, asOf: 8 }))).toEqual(['low@0:9/1', 'high@3:13/5']);
  });

  it('finds nothing during the ATR warm-up', () => {
    const c = hl([1, 5, 1, 5, 1], [0.5, 4, 0.5, 4, 0.5]);
    expect(zigzag(c, { atrPeriod: 14 })).toEqual([]);
  });

  it('alternates highs and lows, and never looks ahead', () => {
    fc.assert(
      fc.property(candleSeries(1, 150), fc.nat(), (rows, cut) => {
        const c = toColumns(rows);
        const asOf = cut % rows.length;
        const full = zigzag(c, { atrPeriod: 5, atrMultiple: 1.5 });
        for (let k = 1; k < full.length; k++) {
          expect(full[k].kind).not.toBe(full[k - 1].kind);
          expect(full[k].index).toBeGreaterThanOrEqual(full[k - 1].index);
        }
        for (const s of full) expect(s.confirmed_index).toBeGreaterThan(s.index);
        const prefix = zigzag(toColumns(rows.slice(0, asOf + 1)), { atrPeriod: 5, atrMultiple: 1.5 });
        expect(prefix).toEqual(full.filter((s) => s.confirmed_index <= asOf));
        expect(zigzag(c, { atrPeriod: 5, atrMultiple: 1.5, asOf, atr: atr(c, { period: 5 }) })).toEqual(prefix);
      }),
      { numRuns: 100 },
    );
  });

  it('mirrors: p -> K - p swaps pivot kinds at the same candles', () => {
    fc.assert(
      fc.property(gridCandleSeries(20, 200), (rows) => {
        const c = toColumns(rows);
        const m = zigzag(mirrorCandles(c, 10_000), { atrPeriod: 7 });
        const z = zigzag(c, { atrPeriod: 7 });
        expect(m.map((s) => [s.index, s.kind, s.confirmed_index])).toEqual(
          z.map((s) => [s.index, s.kind === 'high' ? 'low' : 'high', s.confirmed_index]),
        );
      }),
      { numRuns: 60 },
    );
  });

  it.skipIf(!sharedDataDir)(`alternates on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      const z = zigzag(candles);
      const f = findSwings(candles);
      expect(z.length, name).toBeGreaterThan(0);
      expect(f.length, name).toBeGreaterThan(z.length);
      for (let k = 1; k < z.length; k++) expect(z[k].kind).not.toBe(z[k - 1].kind);
      for (const s of z) {
        expect(s.price).toBe(s.kind === 'high' ? candles.high[s.index] : candles.low[s.index]);
      }
    }
  });

  it('rejects bad options with a typed error', () => {
    const c = hl([1, 2, 3], [0.5, 1, 2]);
    expectInputError(() => zigzag(c, { atrPeriod: 0 }), 'invalid_option');
    expectInputError(() => zigzag(c, { atrMultiple: 0 }), 'invalid_option');
    expectInputError(() => zigzag(c, { atrMultiple: Number.NaN }), 'invalid_option');
    expectInputError(() => zigzag(c, { atr: new Float64Array(2) }), 'length_mismatch');
  });
});
