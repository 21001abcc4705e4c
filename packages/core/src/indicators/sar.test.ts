import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HL } from '../types.js';
import { SAR, type SarOptions, sar } from './sar.js';

describe('sar', () => {
  it('matches a hand-traced example', () => {
    // bars 0..3 rising: long (no -DM between bars 0 and 1); sar starts at low0 = 9, ep = high1 = 11
    const c = { high: [10, 11, 12, 13, 11], low: [9, 10, 11, 12, 9] };
    const out = sar(c);
    expect(out[0]).toBeNaN();
    expect(out[1]).toBe(9);
    // bar 1: ep stays 11 (not above), sar = 9 + 0.02 * 2 = 9.04
    expect(out[2]).toBeCloseTo(9.04, 14);
    // bar 2: new high 12, af 0.04, sar = 9.04 + 0.04 * (12 - 9.04) = 9.1584
    expect(out[3]).toBeCloseTo(9.1584, 14);
    // bar 3: new high 13, af 0.06: 9.1584 + 0.06 * 3.8416 = 9.389; bar 4's low 9 penetrates it:
    // reverse to short at the extreme point 13
    expect(out[4]).toBe(13);
    // a first -DM starts short: sar = high0
    expect(sar({ high: [10, 9.5, 9], low: [9, 8, 7.5] })[1]).toBe(10);
    expect(sar.lookback()).toBe(1);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib SAR on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const [acceleration, maximum] of [
        [0.02, 0.2],
        [0.01, 0.1],
        [0.05, 0.5],
        [0.3, 0.2],
        [0, 0.2],
      ]) {
        const ref = talib('SAR', candles, { optInAcceleration: acceleration, optInMaximum: maximum }).outReal;
        expectClose(sar(candles, { acceleration, maximum }), ref, {
          label: `${name} SAR(${acceleration}, ${maximum})`,
          rel: 0,
        });
      }
    }
  });

  it('matches TA-Lib SAR on generated candles', () => {
    const r = reach('a TA-Lib SAR value');
    r.assert(
      fc.property(candleSeries(1, 80), (rows) => {
        r.hitIf(rows.length > sar.lookback());
        const c = toColumns(rows);
        const ref = talib('SAR', c, { optInAcceleration: 0.02, optInMaximum: 0.2 }).outReal;
        expectClose(sar(c), ref, { rel: 0 });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    const sets: SarOptions[] = [{}, { acceleration: 0.1, maximum: 0.3 }, { acceleration: 0.5, maximum: 0.2 }];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => sar(toColumns(rows), options),
        stream: () => new SAR(options),
        lookback: sar.lookback(options),
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => sar(c as unknown as HL, o), ['high', 'low'], []);
    for (const bad of [-0.1, 2, Number.NaN]) {
      expectInputError(() => sar({ high: [2, 3], low: [1, 2] }, { acceleration: bad }), 'invalid_option');
      expectInputError(() => sar({ high: [2, 3], low: [1, 2] }, { maximum: bad }), 'invalid_option');
    }
  });
});
