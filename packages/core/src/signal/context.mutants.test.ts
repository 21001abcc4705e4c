// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// every column of the context read at two periods (one not its default), in one context, and
// compared with the public indicator functions, so that a cache key shared by two periods or an
// option dropped shows; the log returns by their definition, zero and negative closes included;
// and the errors of computeContext and asOfIndex, field by field.
import { describe, expect, it } from 'vitest';
import { ao } from '../indicators/ao.js';
import { atr } from '../indicators/atr.js';
import { cci } from '../indicators/cci.js';
import { hma } from '../indicators/hma.js';
import { macd } from '../indicators/macd.js';
import { mom } from '../indicators/mom.js';
import { rsi } from '../indicators/rsi.js';
import { sma } from '../indicators/sma.js';
import { stdDev } from '../indicators/stddev.js';
import { stoch } from '../indicators/stoch.js';
import { stochRsi } from '../indicators/stoch-rsi.js';
import { ultOsc } from '../indicators/ultosc.js';
import { vwma } from '../indicators/vwma.js';
import { willr } from '../indicators/willr.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { toColumns } from '../testing/props.js';
import type { Candles } from '../types.js';
import { asOfIndex, computeContext } from './context.js';

/** 120 hourly candles of a wave with a drift and a varying volume. */
function wave(n = 120): Candles {
  return toColumns(
    Array.from({ length: n }, (_, i) => {
      const c = 100 + i / 5 + 6 * Math.sin(i / 7) + 2 * Math.cos(i / 3);
      return {
        time: i * 3_600_000,
        open: c - 0.5,
        high: c + 1 + (i % 3),
        low: c - 1 - (i % 4),
        close: c,
        volume: 100 + ((i * 37) % 90),
      };
    }),
  );
}

/** Equal, NaN equal to NaN. */
function same(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  expect(a.length, what).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i]) && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) {
      throw new Error(`${what} at ${i}: ${a[i]} != ${b[i]}`);
    }
  }
}

describe('IndicatorContext: each column at its own period', () => {
  it('reads each column at two periods in one context as the public functions compute it', () => {
    const c = wave();
    const ctx = computeContext(c);
    // every column first at one period, then at another: a key shared by periods returns the first
    for (const p of [5, 9]) {
      same(ctx.sma(p), sma(c.close, { period: p }), `sma ${p}`);
      same(ctx.hma(p), hma(c.close, { period: p }), `hma ${p}`);
      same(ctx.vwma(p), vwma(c, { period: p }), `vwma ${p}`);
      same(ctx.rsi(p), rsi(c.close, { period: p }), `rsi ${p}`);
      same(ctx.atr(p), atr(c, { period: p }), `atr ${p}`);
      same(ctx.stdDev(p), stdDev(c.close, { period: p }), `stdDev ${p}`);
      same(ctx.cciClose(p), cci({ high: c.close, low: c.close, close: c.close }, { period: p }), `cciClose ${p}`);
      same(ctx.mom(p), mom(c.close, { period: p }), `mom ${p}`);
      same(ctx.willr(p), willr(c, { period: p }), `willr ${p}`);
      const logs = Array.from(ctx.logReturns().subarray(1));
      same(ctx.volatility(p).subarray(1), stdDev(logs, { period: p }), `volatility ${p}`);
    }
    // the defaults
    same(ctx.rsi(), rsi(c.close, { period: 14 }), 'rsi 14');
    same(ctx.atr(), atr(c, { period: 14 }), 'atr 14');
    same(ctx.stdDev(), stdDev(c.close, { period: 20 }), 'stdDev 20');
    same(ctx.cciClose(), cci({ high: c.close, low: c.close, close: c.close }, { period: 20 }), 'cciClose 20');
    same(ctx.mom(), mom(c.close, { period: 10 }), 'mom 10');
    same(ctx.willr(), willr(c, { period: 14 }), 'willr 14');
    // the fixed ones
    const m = macd(c.close);
    same(ctx.macd().macd, m.macd, 'macd');
    same(ctx.macd().histogram, m.histogram, 'macd histogram');
    same(ctx.stoch().k, stoch(c, { kPeriod: 14, kSmooth: 3, dPeriod: 3 }).k, 'stoch');
    same(ctx.stochRsi().d, stochRsi(c.close, { rsiPeriod: 14, stochPeriod: 14, kSmooth: 3, dPeriod: 3 }).d, 'stochRsi');
    same(ctx.ao(), ao(c), 'ao');
    same(ctx.ultOsc(), ultOsc(c), 'ultOsc');
  });
});

describe('IndicatorContext.logReturns', () => {
  it('is ln(close[i] / close[i-1]), 0 at bar 0 and where either close is not positive', () => {
    const closes = [2, 4, 1, 0, 3, -1, -2, 6, 3];
    const c = toColumns(closes.map((x, i) => ({ time: i, open: x, high: x, low: x, close: x, volume: 1 })));
    const got = Array.from(computeContext(c).logReturns());
    expect(got).toEqual([0, Math.log(2), Math.log(0.25), 0, 0, 0, 0, 0, Math.log(0.5)]);
  });
});

describe('computeContext and asOfIndex: errors', () => {
  it('refuses a context in place of candles', () => {
    const ctx = computeContext(wave(3));
    const e = caught(() => computeContext(ctx as unknown as Candles));
    expect([e.code, e.message]).toEqual(['invalid_option', 'computeContext takes candles, not a context']);
  });

  it('takes an asOf in 0..length - 1 and names it otherwise', () => {
    const ctx = computeContext(wave(10));
    expect(asOfIndex(ctx, undefined)).toBe(9);
    expect(asOfIndex(ctx, 0)).toBe(0);
    expect(asOfIndex(ctx, 9)).toBe(9);
    for (const bad of [10, -1, 2.5, Number.NaN]) {
      const e = caught(() => asOfIndex(ctx, bad));
      expect([e.code, e.field, e.message]).toEqual([
        'invalid_option',
        'asOf',
        `asOf must be an integer in 0..9, got ${String(bad)}`,
      ]);
    }
  });
});
