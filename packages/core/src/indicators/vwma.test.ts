import ixjb from '@ixjb94/indicators';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, CV } from '../types.js';
import { sma } from './sma.js';
import { VWMA, vwma } from './vwma.js';

const ix = new ixjb.IndicatorsSync();

/** @ixjb94/indicators output starts at its first defined value; pad it to the input's length. */
function padded(values: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n).fill(Number.NaN);
  out.set(Array.from(values), n - values.length);
  return out;
}

/** Each window summed afresh: sum(close * volume) / sum(volume), NaN where the volume is all zero. */
function direct({ close, volume }: CV, period: number): Float64Array {
  const out = new Float64Array(close.length).fill(Number.NaN);
  for (let i = period - 1; i < close.length; i++) {
    let pv = 0;
    let v = 0;
    for (let j = i - period + 1; j <= i; j++) {
      pv += close[j] * volume[j];
      v += volume[j];
    }
    if (v > 0) out[i] = pv / v;
  }
  return out;
}

/**
 * @ixjb94/indicators keeps both sums running over the whole series, so each carries the rounding
 * of every earlier step: at most about `eps * sum_k(|sum_k| + |dropped_k|)` absolutely. Where
 * that bound exceeds 1e-10 of the current sums (a quiet window long after a volume spike, as in
 * the crypto series, whose volumes span 1e-8 to 2e4) its value is not a reference: masked.
 */
function ixjbDrifted({ close, volume }: CV, period: number): (i: number) => boolean {
  const drifted = new Uint8Array(close.length);
  let sv = 0;
  let spv = 0;
  let bv = 0;
  let bp = 0;
  for (let i = 0; i < close.length; i++) {
    sv += volume[i];
    spv += close[i] * volume[i];
    if (i >= period) {
      sv -= volume[i - period];
      spv -= close[i - period] * volume[i - period];
      bv += Math.abs(sv) + volume[i - period];
      bp += Math.abs(spv) + Math.abs(close[i - period] * volume[i - period]);
    }
    drifted[i] = Number.EPSILON * (bv / Math.abs(sv) + bp / Math.abs(spv)) > 1e-10 ? 1 : 0;
  }
  return (i) => drifted[i] === 1;
}

describe('vwma', () => {
  it('matches a worked example', () => {
    const candles = { close: [10, 20, 30, 40], volume: [1, 3, 0, 0] };
    // (10 + 60) / 4, (60 + 0) / 3, then an all-zero window: the SMA of (30, 40).
    expect(Array.from(vwma(candles, { period: 2 }))).toEqual([Number.NaN, 17.5, 20, 35]);
    expect(vwma.lookback({ period: 2 })).toBe(1);
    expect(vwma.lookback()).toBe(19);
  });

  it.skipIf(!sharedDataDir)(
    `matches @ixjb94/indicators VWMA, and reads sma(close) without volume, on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const noVolume = candles.volume.every((v) => v === 0);
        for (const period of [1, 2, 14, 20, 100]) {
          const ours = vwma(candles, { period });
          if (noVolume) {
            expect(Array.from(ours), `${name} VWMA(${period}) = SMA`).toEqual(
              Array.from(sma(candles.close, { period })),
            );
            continue;
          }
          const ref = padded(ix.vwma(Array.from(candles.close), Array.from(candles.volume), period), ours.length);
          const skip = ixjbDrifted(candles, period);
          expectClose(ours, ref, { label: `${name} VWMA(${period}) vs ixjb`, skip });
          let masked = 0;
          for (let i = 0; i < ours.length; i++) masked += skip(i) ? 1 : 0;
          expect(masked, `${name} VWMA(${period}) positions masked`).toBeLessThan(ours.length / 2);
          expectClose(ours, direct(candles, period), { label: `${name} VWMA(${period}) vs direct`, rel: 1e-12 });
        }
      }
    },
  );

  it('equals the direct sums wherever volume traded, and the SMA elsewhere, on generated candles', () => {
    const r = reach('a volume-weighted average');
    r.assert(
      fc.property(candleSeries(20, 150), fc.integer({ min: 1, max: 25 }), (rows, period) => {
        r.hitIf(rows.length > vwma.lookback({ period }));
        const c = toColumns(rows);
        const ours = vwma(c, { period });
        const ref = direct(c, period);
        const avg = sma(c.close, { period });
        for (let i = 0; i < ours.length; i++) {
          const want = i >= period - 1 && Number.isNaN(ref[i]) ? avg[i] : ref[i];
          if (Number.isNaN(want)) expect(ours[i]).toBeNaN();
          else expect(Math.abs(ours[i] - want)).toBeLessThanOrEqual(1e-12 * Math.abs(want));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps full precision in a quiet window after a volume spike', () => {
    const n = 300;
    const close = Array.from({ length: n }, (_, i) => 100 + Math.sin(i / 7));
    const volume = Array.from({ length: n }, (_, i) => (i % 97 === 5 ? 1e12 : 1e-6 * (1 + (i % 3))));
    const c = { close, volume };
    expectClose(vwma(c, { period: 10 }), direct(c, 10), { rel: 1e-12 });
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 5, 14]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => vwma(toColumns(rows), { period }),
        stream: () => new VWMA({ period }),
        lookback: vwma.lookback({ period }),
        constant: { input: { time: 0, open: 7, high: 7, low: 7, close: 7, volume: 3 }, expected: 7 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => vwma(c as unknown as CV, o), ['close', 'volume'], ['period']);
    expect(() => vwma({ close: [1, 2, 3], volume: [1, -1, 1] }, { period: 2 })).toThrow(InputError);
    expect(() => new VWMA().update({ close: 1, volume: -2 })).toThrow(/volume must be/);
    expect(() => new VWMA().update({ close: 1 })).toThrow(InputError);
  });
});
