import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkCandleOut, sameBits, waveCandles } from '../testing/out.js';
import { candleSeries, candlesPast, checkIndicatorProperties, seriesPast, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { adxSkip, talibDmZeroTests } from '../testing/talib-dm-zero.js';
import type { Candle, HLC } from '../types.js';
import { ADX, type AdxOptions, adx } from './adx.js';
import { dmi } from './dmi.js';

// +DM 1, 0, 1.5, 0; -DM 0, 1, 0, 0; TR 2, 2.5, 3.5, 1.5 on bars 1..4 (see dmi.test.ts).
const example = {
  high: [10, 11, 10.5, 12, 11.5],
  low: [8, 9, 8, 9, 10],
  close: [9, 10, 8.5, 11, 10.5],
};

describe('adx', () => {
  it('matches a hand-traced example in both conventions', () => {
    // TA-Lib: DX 100/3, 500/9, 500/9 on bars 2..4; ADX(2) = (100/3 + 500/9) / 2, then (adx + 500/9) / 2
    const a = adx(example, { period: 2 });
    expect(a[2]).toBeNaN();
    expect(a[3]).toBeCloseTo(400 / 9, 11);
    expect(a[4]).toBeCloseTo(50, 11);
    // TradingView: DX 0, 60, 60
    const t = adx(example, { period: 2, convention: 'tradingview' });
    expect(t[3]).toBeCloseTo(30, 11);
    expect(t[4]).toBeCloseTo(45, 11);
    expect(adx.lookback({ period: 14 })).toBe(27);
  });

  it('is the Wilder average of the DX of dmi, exactly', () => {
    const c = waveCandles(80);
    for (const period of [1, 3, 14]) {
      const dx = dmi(c, { period }).dx;
      const a = adx(c, { period });
      let acc = 0;
      for (let i = period; i < 2 * period; i++) acc += dx[i];
      let want = acc / period;
      expect(a[2 * period - 1]).toBe(want);
      for (let i = 2 * period; i < 80; i++) {
        want = (want * (period - 1) + dx[i]) / period;
        expect(a[i]).toBe(want);
      }
    }
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib ADX on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 5, 14, 30]) {
        const ref = talib('ADX', candles, { optInTimePeriod: period }).outReal;
        expectClose(adx(candles, { period }), ref, {
          label: `${name} ADX(${period})`,
          skip: adxSkip(talibDmZeroTests(candles, period), period),
        });
      }
    }
  });

  it('matches TA-Lib ADX on generated candles, flat stretches and sub-1e-8 moves included', () => {
    const r = reach('a TA-Lib ADX value');
    r.assert(
      fc.property(candleSeries(15, 160), fc.integer({ min: 2, max: 10 }), (rows, period) => {
        r.hitIf(rows.length > adx.lookback({ period }));
        const c = toColumns(rows);
        const ref = talib('ADX', c, { optInTimePeriod: period }).outReal;
        expectClose(adx(c, { period }), ref, { skip: adxSkip(talibDmZeroTests(c, period), period) });
      }),
      { numRuns: 200 },
    );
  });

  it('holds the streaming properties', () => {
    const sets: AdxOptions[] = [{ period: 1 }, { period: 2 }, { period: 14 }, { period: 3, convention: 'tradingview' }];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => adx(toColumns(rows), options),
        stream: () => new ADX(options),
        lookback: adx.lookback(options),
        constant: { input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 }, expected: 0 },
      });
    }
  });

  it("writes into the caller's array with out, and checks it", () => {
    checkCandleOut((c, out) => adx(c, out === undefined ? { period: 5 } : { period: 5, out: out as Float64Array }));
  });

  it('writes into out bit for bit what it returns without, whatever out held', () => {
    const r = reach('an ADX value written into out');
    const draws = fc
      .record({ period: fc.integer({ min: 1, max: 10 }), tradingview: fc.boolean(), fill: fc.double() })
      .chain((o) =>
        fc.tuple(fc.constant(o), seriesPast(candleSeries, adx.lookback({ period: o.period }), { minLength: 1 })),
      );
    r.assert(
      fc.property(draws, ([{ period, tradingview, fill }, rows]) => {
        const options: AdxOptions = { period, convention: tradingview ? 'tradingview' : 'talib' };
        r.hitIf(rows.length > adx.lookback(options));
        const c = toColumns(rows);
        const out = new Float64Array(rows.length).fill(fill);
        expect(adx(c, { ...options, out })).toBe(out);
        expect(sameBits(out, adx(c, options))).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => adx(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
  });
});
