import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { talibDmZeroTests } from '../testing/talib-dm-zero.js';
import type { Candle, HLC } from '../types.js';
import { DMI, type DmiOptions, dmi } from './dmi.js';

// +DM 1, 0, 1.5, 0; -DM 0, 1, 0, 0; TR 2, 2.5, 3.5, 1.5 on bars 1..4.
const dmExample = {
  high: [10, 11, 10.5, 12, 11.5],
  low: [8, 9, 8, 9, 10],
  close: [9, 10, 8.5, 11, 10.5],
};

function closeTo(actual: ArrayLike<number>, expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (Number.isNaN(expected[i])) expect(actual[i]).toBeNaN();
    else expect(actual[i]).toBeCloseTo(expected[i], 11);
  }
}

describe('dmi', () => {
  it('matches a hand-traced example (TA-Lib seeding)', () => {
    const { plusDI, minusDI, dx } = dmi(dmExample, { period: 2 });
    // sums: bar 1 seeds (1, 0, 2); bar 2 (0.5, 1, 3.5); bar 3 (1.75, 0.5, 5.25); bar 4 (0.875, 0.25, 4.125)
    closeTo(plusDI, [Number.NaN, Number.NaN, 100 / 7, 100 / 3, 700 / 33]);
    closeTo(minusDI, [Number.NaN, Number.NaN, 200 / 7, 200 / 21, 200 / 33]);
    closeTo(dx, [Number.NaN, Number.NaN, 100 / 3, 500 / 9, 500 / 9]);
    expect(dmi.lookback({ period: 14 })).toBe(14);
  });

  it('matches a hand-traced example (TradingView DMI script seeding)', () => {
    const { plusDI, minusDI, dx } = dmi(dmExample, { period: 2, convention: 'tradingview' });
    // rma: bar 2 seeds by the means of bars 1..2 (0.5, 0.5, 2.25); bar 3 (1, 0.25, 2.875); bar 4 (0.5, 0.125, 2.1875)
    closeTo(plusDI, [Number.NaN, Number.NaN, 50 / 2.25, 100 / 2.875, 50 / 2.1875]);
    closeTo(minusDI, [Number.NaN, Number.NaN, 50 / 2.25, 25 / 2.875, 12.5 / 2.1875]);
    closeTo(dx, [Number.NaN, Number.NaN, 0, 60, 60]);
  });

  it('reads DI 0 and DX 0 on a flat series, and period 1 is the one-bar definition', () => {
    const flat = { high: [5, 5, 5, 5], low: [5, 5, 5, 5], close: [5, 5, 5, 5] };
    const out = dmi(flat, { period: 2 });
    expect(Array.from(out.plusDI.subarray(2))).toEqual([0, 0]);
    expect(Array.from(out.dx.subarray(2))).toEqual([0, 0]);
    const one = dmi(dmExample, { period: 1 });
    closeTo(one.plusDI, [Number.NaN, 50, 0, (100 * 1.5) / 3.5, 0]);
    closeTo(one.minusDI, [Number.NaN, 0, 40, 0, 0]);
    closeTo(one.dx, [Number.NaN, 100, 100, 100, 0]);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib PLUS_DI, MINUS_DI and DX on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const period of [2, 5, 14, 30]) {
          const o = { optInTimePeriod: period };
          const z = talibDmZeroTests(candles, period);
          const out = dmi(candles, { period });
          const skipDI = (i: number) => z.tr[i] === 1;
          const skipDX = (i: number) => z.tr[i] === 1 || z.diSum[i] === 1;
          const label = `${name} (${period})`;
          expectClose(out.plusDI, talib('PLUS_DI', candles, o).outReal, { label: `PLUS_DI ${label}`, skip: skipDI });
          expectClose(out.minusDI, talib('MINUS_DI', candles, o).outReal, { label: `MINUS_DI ${label}`, skip: skipDI });
          expectClose(out.dx, talib('DX', candles, o).outReal, { label: `DX ${label}`, skip: skipDX });
        }
      }
    },
  );

  it('matches TA-Lib on generated candles, flat stretches and sub-1e-8 moves included', () => {
    const r = reach('a TA-Lib DX value');
    r.assert(
      fc.property(candleSeries(8, 150), fc.integer({ min: 2, max: 10 }), (rows, period) => {
        r.hitIf(rows.length > dmi.lookback({ period }));
        const c = toColumns(rows);
        const z = talibDmZeroTests(c, period);
        const out = dmi(c, { period });
        const o = { optInTimePeriod: period };
        const skipDI = (i: number) => z.tr[i] === 1;
        const skipDX = (i: number) => z.tr[i] === 1 || z.diSum[i] === 1;
        expectClose(out.plusDI, talib('PLUS_DI', c, o).outReal, { label: 'PLUS_DI', skip: skipDI });
        expectClose(out.minusDI, talib('MINUS_DI', c, o).outReal, { label: 'MINUS_DI', skip: skipDI });
        expectClose(out.dx, talib('DX', c, o).outReal, { label: 'DX', skip: skipDX });
      }),
      { numRuns: 200 },
    );
  });

  it('holds the streaming properties', () => {
    const sets: DmiOptions[] = [{ period: 1 }, { period: 2 }, { period: 14 }, { period: 3, convention: 'tradingview' }];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => dmi(toColumns(rows), options),
        stream: () => new DMI(options),
        lookback: dmi.lookback(options),
        constant: {
          input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 },
          expected: { plusDI: 0, minusDI: 0, dx: 0 },
        },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => dmi(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
    expectInputError(() => dmi(dmExample, { convention: 'x' as 'talib' }), 'invalid_option');
  });
});
