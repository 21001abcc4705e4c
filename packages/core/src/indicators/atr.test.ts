import { IndicatorsSync } from '@ixjb94/indicators';
import { ATR as TsAtr } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, Candles, HLC } from '../types.js';
import { ATR, type AtrOptions, atr } from './atr.js';

const small = { high: [10, 11, 12, 11], low: [9, 10, 10, 9], close: [9.5, 10.5, 11, 10] };

/** TA-Lib's TRANGE, with the first bar's `high - low` in front for the TradingView convention. */
function talibTrueRange(c: Candles, tradingview: boolean): Float64Array {
  const tr = talib('TRANGE', c).outReal;
  if (tradingview) tr[0] = c.high[0] - c.low[0];
  return tr.subarray(tradingview ? 0 : 1);
}

/** Aligns a reference computed on `talibTrueRange` back onto the candles. */
function realign(ref: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n).fill(Number.NaN);
  out.set(ref, n - ref.length);
  return out;
}

describe('atr', () => {
  it('matches a worked example in both conventions', () => {
    // tr[1..3] = 1.5, 2, 2 (tr[0] = 1 in the TradingView convention)
    expect(Array.from(atr(small, { period: 2 }))).toEqual([Number.NaN, Number.NaN, 1.75, 1.875]);
    expect(Array.from(atr(small, { period: 2, convention: 'tradingview' }))).toEqual([Number.NaN, 1.25, 1.625, 1.8125]);
    expect(Array.from(atr(small, { period: 2, smoothing: 'sma' }))).toEqual([Number.NaN, Number.NaN, 1.75, 2]);
    expect(atr.lookback()).toBe(14);
    expect(atr.lookback({ period: 10, convention: 'tradingview' })).toBe(9);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib ATR on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [1, 2, 5, 14, 30]) {
        const ref = talib('ATR', candles, { optInTimePeriod: period }).outReal;
        expectClose(atr(candles, { period }), ref, { label: `${name} ATR(${period})` });
      }
    }
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib SMA and EMA of TRANGE for the other smoothings, in both conventions (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const n = candles.close.length;
        for (const tradingview of [false, true]) {
          const tr = talibTrueRange(candles, tradingview);
          const convention = tradingview ? 'tradingview' : 'talib';
          for (const period of [2, 14, 30]) {
            for (const [smoothing, fn] of [
              ['sma', 'SMA'],
              ['ema', 'EMA'],
            ] as const) {
              const ref = realign(talib(fn, { inReal: tr }, { optInTimePeriod: period }).outReal, n);
              expectClose(atr(candles, { period, smoothing, convention }), ref, {
                label: `${name} ATR(${period}, ${smoothing}, ${convention})`,
              });
            }
          }
        }
      }
    },
  );

  it.skipIf(!sharedDataDir)(
    `matches @ixjb94/indicators atr and trading-signals ATR in the TradingView convention (skips when ${sharedDataSkipReason})`,
    () => {
      const ix = new IndicatorsSync();
      for (const { name, candles } of loadSharedSeries()) {
        const n = candles.close.length;
        const h = Array.from(candles.high);
        const l = Array.from(candles.low);
        const c = Array.from(candles.close);
        for (const period of [2, 10, 14]) {
          const ours = atr(candles, { period, convention: 'tradingview' });
          expectClose(ours, realign(Float64Array.from(ix.atr(h, l, c, period)), n), {
            label: `${name} ixjb94 atr(${period})`,
          });
          const ts = new TsAtr(period);
          const ref = new Float64Array(n);
          for (let i = 0; i < n; i++) ref[i] = ts.update({ high: h[i], low: l[i], close: c[i] }, false) ?? Number.NaN;
          expectClose(ours, ref, { label: `${name} trading-signals ATR(${period})` });
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    const sets: AtrOptions[] = [
      { period: 1 },
      { period: 3 },
      { period: 14 },
      { period: 1, convention: 'tradingview' },
      { period: 5, convention: 'tradingview' },
      { period: 4, smoothing: 'sma' },
      { period: 1, smoothing: 'sma' },
      { period: 4, smoothing: 'sma', convention: 'tradingview' },
      { period: 4, smoothing: 'ema' },
      { period: 1, smoothing: 'ema', convention: 'tradingview' },
    ];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => atr(toColumns(rows), options),
        stream: () => new ATR(options),
        lookback: atr.lookback(options),
        constant: {
          input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 },
          expected: 2,
        },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => atr(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
    expectInputError(() => atr(small, { smoothing: 'wma' as 'sma' }), 'invalid_option');
    expectInputError(() => atr(small, { convention: 'mt5' as 'talib' }), 'invalid_option');
    expect(() => new ATR().update({ high: 1, low: Number.NaN, close: 1 })).toThrow(/finite/);
  });
});
