import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { flatWindows, spread, talibFrom, talibRsiZeroed, union } from '../testing/window-masks.js';
import { rsi } from './rsi.js';
import { StochRSI, type StochRsiOptions, stochRsi } from './stoch-rsi.js';

type Opts = Required<StochRsiOptions>;

/**
 * Where our stochastic of the RSI may legitimately differ from TA-Lib's, carried through the %K
 * and %D smoothing: windows holding an RSI that TA-Lib zeroes by its 1e-8 test; flat RSI windows
 * (raw 50 here, 0 in TA-Lib); and RSI windows whose range is below `flat` (1e-9 unless told). Those arise on flat
 * prices, where the RSI is constant in exact arithmetic but its recurrence jitters by a few ulps
 * (TA-Lib's and ours by different ulps, 5e-14 apart at most), and the stochastic maps that noise
 * anywhere in 0..100 in both libraries.
 */
function masks(
  values: ArrayLike<number>,
  o: Opts,
  talibRsi: Float64Array,
  flat: number,
): { k: Uint8Array; d: Uint8Array } {
  const ours = rsi(values, { period: o.rsiPeriod });
  const raw = union(
    spread(talibRsiZeroed(values, o.rsiPeriod), o.stochPeriod),
    flatWindows(ours, ours, o.stochPeriod, flat),
    flatWindows(talibRsi, talibRsi, o.stochPeriod, flat),
  );
  const k = spread(raw, o.kSmooth);
  return { k, d: spread(k, o.dPeriod) };
}

/**
 * Skips masked indices and, for short generated series, differences up to `absTol`: there the
 * mean |expected| that scales the relative tolerance can be tiny, while the running-sum residue
 * of the SMAs is relative to the 0..100 range.
 */
function skip(mask: Uint8Array, a: Float64Array, e: Float64Array, absTol: number): (i: number) => boolean {
  return (i) => mask[i] === 1 || Math.abs(a[i] - e[i]) <= absTol;
}

/** kSmooth = 1 against TA-Lib STOCHRSI (fastK, fastD with SMA). */
function compareWithStochRsi(values: ArrayLike<number>, o: Opts, label: string, absTol = 0, flat = 1e-9): void {
  expect(o.kSmooth).toBe(1);
  const ref = talib(
    'STOCHRSI',
    { inReal: values },
    {
      optInTimePeriod: o.rsiPeriod,
      optInFastK_Period: o.stochPeriod,
      optInFastD_Period: o.dPeriod,
      optInFastD_MAType: 0,
    },
  );
  const out = stochRsi(values, o);
  const m = masks(values, o, talib('RSI', { inReal: values }, { optInTimePeriod: o.rsiPeriod }).outReal, flat);
  expectClose(out.k, ref.outFastK, { label: `${label} k`, skip: skip(m.k, out.k, ref.outFastK, absTol) });
  expectClose(out.d, ref.outFastD, { label: `${label} d`, skip: skip(m.d, out.d, ref.outFastD, absTol) });
}

/** Any kSmooth against TA-Lib STOCH fed with TA-Lib's RSI as high, low and close. */
function compareWithStochOfRsi(values: ArrayLike<number>, o: Opts, label: string, absTol = 0, flat = 1e-9): void {
  const r = talib('RSI', { inReal: values }, { optInTimePeriod: o.rsiPeriod }).outReal;
  const ref = talibFrom('STOCH', { high: r, low: r, close: r }, o.rsiPeriod, {
    optInFastK_Period: o.stochPeriod,
    optInSlowK_Period: o.kSmooth,
    optInSlowK_MAType: 0,
    optInSlowD_Period: o.dPeriod,
    optInSlowD_MAType: 0,
  });
  const out = stochRsi(values, o);
  const m = masks(values, o, r, flat);
  expectClose(out.k, ref.outSlowK, { label: `${label} k`, skip: skip(m.k, out.k, ref.outSlowK, absTol) });
  expectClose(out.d, ref.outSlowD, { label: `${label} d`, skip: skip(m.d, out.d, ref.outSlowD, absTol) });
}

/**
 * The stochastic stage alone: TA-Lib STOCH fed with our RSI agrees to rounding everywhere except
 * on exactly flat RSI windows.
 */
function compareStochStage(values: ArrayLike<number>, o: Opts, label: string): void {
  const r = rsi(values, { period: o.rsiPeriod });
  const ref = talibFrom('STOCH', { high: r, low: r, close: r }, o.rsiPeriod, {
    optInFastK_Period: o.stochPeriod,
    optInSlowK_Period: o.kSmooth,
    optInSlowK_MAType: 0,
    optInSlowD_Period: o.dPeriod,
    optInSlowD_MAType: 0,
  });
  const out = stochRsi(values, o);
  const k = spread(flatWindows(r, r, o.stochPeriod), o.kSmooth);
  const d = spread(k, o.dPeriod);
  expectClose(out.k, ref.outSlowK, { label: `${label} k`, skip: (i) => k[i] === 1 });
  expectClose(out.d, ref.outSlowD, { label: `${label} d`, skip: (i) => d[i] === 1 });
}

const name = (o: Opts) => `(${o.rsiPeriod},${o.stochPeriod},${o.kSmooth},${o.dPeriod})`;

describe('stochRsi', () => {
  it('matches a worked example', () => {
    // RSI(1): 100 on a rise, 0 on a fall, 50 when flat: [_, 100, 0, 100, 50].
    // Raw stochastic over 2 RSI values: [_, _, 0, 100, 0]; %K = SMA2: [_, _, _, 50, 50].
    const o = { rsiPeriod: 1, stochPeriod: 2, kSmooth: 2, dPeriod: 1 };
    const { k, d } = stochRsi([1, 2, 1, 2, 2], o);
    expect(Array.from(k)).toEqual([Number.NaN, Number.NaN, Number.NaN, 50, 50]);
    expect(Array.from(d)).toEqual([Number.NaN, Number.NaN, Number.NaN, 50, 50]);
    expect(stochRsi.lookback(o)).toBe(3);
    expect(stochRsi.lookback()).toBe(14 + 13 + 2 + 2);
  });

  it('reads 50 on a flat RSI window', () => {
    const rising = Array.from({ length: 30 }, (_, i) => i + 1);
    const { k, d } = stochRsi(rising, { rsiPeriod: 3, stochPeriod: 3, kSmooth: 2, dPeriod: 2 });
    expect(k[29]).toBe(50);
    expect(d[29]).toBe(50);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib STOCHRSI (kSmooth 1) and STOCH of TA-Lib's RSI on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name: series, candles } of loadSharedSeries()) {
        for (const o of [
          { rsiPeriod: 14, stochPeriod: 14, kSmooth: 1, dPeriod: 3 },
          { rsiPeriod: 14, stochPeriod: 5, kSmooth: 1, dPeriod: 3 },
          { rsiPeriod: 2, stochPeriod: 2, kSmooth: 1, dPeriod: 1 },
          { rsiPeriod: 9, stochPeriod: 1, kSmooth: 1, dPeriod: 5 },
        ]) {
          compareWithStochRsi(candles.close, o, `${series} STOCHRSI${name(o)}`);
        }
        for (const o of [
          { rsiPeriod: 14, stochPeriod: 14, kSmooth: 3, dPeriod: 3 },
          { rsiPeriod: 9, stochPeriod: 7, kSmooth: 2, dPeriod: 4 },
          { rsiPeriod: 21, stochPeriod: 14, kSmooth: 5, dPeriod: 1 },
        ]) {
          compareWithStochOfRsi(candles.close, o, `${series} STOCH(RSI)${name(o)}`);
          compareStochStage(candles.close, o, `${series} STOCH(our RSI)${name(o)}`);
        }
      }
    },
  );

  it('matches TA-Lib on generated series', () => {
    const r = reach('a TA-Lib STOCHRSI value');
    r.assert(
      fc.property(priceSeries(8, 120), (xs) => {
        r.hitIf(xs.length > stochRsi.lookback({ rsiPeriod: 5, stochPeriod: 4, kSmooth: 1, dPeriod: 3 }));
        // Generated walks hold long flat stretches after tiny moves, where the RSI is constant in
        // exact arithmetic but for a step of a few 1e-9: the stochastic of that window divides ulp
        // noise by it (our RSI and TA-Lib's agree to about 1e-14, which becomes 100 * 1e-14 / range
        // on %K), so windows with an RSI range below 1e-4 (of 0..100) are masked there: the error
        // allowed on the rest is then 10x the worst seen (a range of 1.04e-5 gave 1.04e-7, seed
        // 1389197280).
        compareWithStochRsi(
          xs,
          { rsiPeriod: 5, stochPeriod: 4, kSmooth: 1, dPeriod: 3 },
          'generated',
          1e-9 * 100,
          1e-4,
        );
        if (xs.length > 4) {
          compareWithStochOfRsi(
            xs,
            { rsiPeriod: 4, stochPeriod: 5, kSmooth: 3, dPeriod: 2 },
            'generated',
            1e-9 * 100,
            1e-4,
          );
        }
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const o of [
      { rsiPeriod: 14, stochPeriod: 14, kSmooth: 3, dPeriod: 3 },
      { rsiPeriod: 1, stochPeriod: 1, kSmooth: 1, dPeriod: 1 },
      { rsiPeriod: 3, stochPeriod: 4, kSmooth: 2, dPeriod: 3 },
    ]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => stochRsi(xs, o),
        stream: () => new StochRSI(o),
        lookback: stochRsi.lookback(o),
        constant: { input: 12, expected: { k: 50, d: 50 } },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(stochRsi, ['rsiPeriod', 'stochPeriod', 'kSmooth', 'dPeriod']);
    expect(() => new StochRSI().update(Number.NaN)).toThrow(/finite/);
    expect(() => new StochRSI().replace(1)).toThrow(/replace/);
  });
});
