import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { adx } from '../indicators/adx.js';
import { dmi } from '../indicators/dmi.js';
import { donchian } from '../indicators/donchian.js';
import { ema } from '../indicators/ema.js';
import { stdDev } from '../indicators/stddev.js';
import { candleSeries, seriesPast, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { computeContext } from './context.js';

function same(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i]) && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) {
      throw new Error(`index ${i}: ${a[i]} != ${b[i]}`);
    }
  }
}

describe('computeContext', () => {
  it('computes each column once and reuses it', () => {
    const cached = reach('an EMA(50) value');
    cached.assert(
      fc.property(seriesPast(candleSeries, 49, { minLength: 1 }), (rows) => {
        const ctx = computeContext(toColumns(rows));
        cached.hitIf(Number.isFinite(ctx.ema(50)[rows.length - 1]));
        expect(ctx.rsi(14)).toBe(ctx.rsi(14));
        expect(ctx.dmi(14)).toBe(ctx.dmi(14));
        expect(ctx.ema(20)).not.toBe(ctx.ema(50));
      }),
      { numRuns: 20 },
    );
  });

  it('reads the same values as the public indicator functions', () => {
    const read = reach('an EMA(50) value');
    read.assert(
      fc.property(seriesPast(candleSeries, 49, { minLength: 1 }), (rows) => {
        const c = toColumns(rows);
        const ctx = computeContext(c);
        read.hitIf(Number.isFinite(ctx.ema(50)[rows.length - 1]));
        for (const p of [1, 13, 50]) same(ctx.ema(p), ema(c.close, { period: p }));
        const d = dmi(c, { period: 14, convention: 'tradingview' });
        same(ctx.dmi(14).plusDI, d.plusDI);
        same(ctx.dmi(14).minusDI, d.minusDI);
        same(ctx.dmi(14).adx, adx(c, { period: 14, convention: 'tradingview' }));
        for (const p of [9, 20]) {
          const ch = donchian(c, { period: p });
          for (let i = 0; i < rows.length; i++) {
            expect(ctx.highest(p, i)).toEqual(ch.upper[i]);
            expect(ctx.lowest(p, i)).toEqual(ch.lower[i]);
          }
        }
        if (rows.length > 1) {
          const r = Array.from(ctx.logReturns().subarray(1));
          const want = stdDev(r, { period: 5 });
          same(ctx.volatility(5).subarray(1), want);
          expect(ctx.volatility(5)[0]).toBeNaN();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('gives volume window statistics by their definition', () => {
    const c = toColumns([1, 2, 3, 4, 5].map((v, i) => ({ time: i, open: 1, high: 1, low: 1, close: 1, volume: v })));
    const ctx = computeContext(c);
    expect(ctx.volumeWindow(5, 4)).toEqual({ mean: 3, sd: Math.sqrt(2) });
    expect(ctx.volumeWindow(5, 3).mean).toBeNaN();
  });

  it('rejects bad candles with a typed error', () => {
    const good = toColumns([{ time: 0, open: 1, high: 1, low: 1, close: 1, volume: 1 }]);
    expect(() => computeContext({ ...good, close: new Float64Array([Number.NaN]) })).toThrow(InputError);
    expect(() => computeContext({ ...good, volume: new Float64Array(0) })).toThrow(InputError);
  });
});
