import { type TalibInputs, talib } from './talib.js';

/**
 * Marks each index whose window of the last `period` values has `max(high) - min(low) <= tolerance`:
 * with the default 0, a flat window, where TA-Lib's range-based oscillators divide by zero and
 * print 0; with a tolerance, windows whose range is rounding noise (of a computed input such as
 * an RSI), which a stochastic amplifies to anything in 0..100.
 */
export function flatWindows(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  period: number,
  tolerance = 0,
): Uint8Array {
  const n = high.length;
  const out = new Uint8Array(n);
  for (let i = period - 1; i < n; i++) {
    let hi = Number.NEGATIVE_INFINITY;
    let lo = Number.POSITIVE_INFINITY;
    for (let j = i - period + 1; j <= i; j++) {
      if (high[j] > hi) hi = high[j];
      if (low[j] < lo) lo = low[j];
    }
    out[i] = hi - lo <= tolerance ? 1 : 0;
  }
  return out;
}

/** Marks each index whose last `width` indices (itself included) hold a marked one: a mask through an SMA(width). */
export function spread(mask: Uint8Array, width: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) last = i;
    out[i] = i - last < width ? 1 : 0;
  }
  return out;
}

/** Marks each index marked in any of the masks. */
export function union(...masks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(masks[0].length);
  for (const m of masks) for (let i = 0; i < m.length; i++) out[i] |= m[i];
  return out;
}

/** The mask as the `skip` predicate of `expectClose`. */
export function skipOf(mask: Uint8Array): (i: number) => boolean {
  return (i) => mask[i] === 1;
}

/**
 * Runs a TA-Lib function on the inputs from index `from` on (to skip a NaN prefix, such as the
 * lookback of an RSI fed to STOCH) and realigns every output with the full input. Needs at least
 * one input left after `from`.
 */
export function talibFrom(
  name: string,
  inputs: TalibInputs,
  from: number,
  options: Record<string, number> = {},
): Record<string, Float64Array> {
  const sliced: TalibInputs = {};
  let n = 0;
  for (const [k, v] of Object.entries(inputs) as [keyof TalibInputs, ArrayLike<number> | undefined][]) {
    if (!v) continue;
    sliced[k] = Array.from(v).slice(from);
    n = v.length;
  }
  if (n - from < 1) throw new Error(`talibFrom: nothing left after index ${from} (TA-Lib aborts on empty input)`);
  const res = talib(name, sliced, options);
  const out: Record<string, Float64Array> = {};
  for (const [k, col] of Object.entries(res)) {
    const full = new Float64Array(n).fill(Number.NaN);
    full.set(col, from);
    out[k] = full;
  }
  return out;
}

/**
 * Marks where TA-Lib's RSI(period) prints 0 by its absolute 1e-8 zero test on avgGain + avgLoss
 * (flat windows and sub-1e-8 moves), where our RSI reads 50 or its genuine value. A relative
 * margin of 1e-6 on the threshold absorbs the rounding of this re-computation.
 */
export function talibRsiZeroed(values: ArrayLike<number>, period: number): Uint8Array {
  const out = new Uint8Array(values.length);
  let g = 0;
  let l = 0;
  for (let i = 1; i < values.length; i++) {
    const d = values[i] - values[i - 1];
    if (i <= period) {
      if (d < 0) l -= d;
      else g += d;
      if (i === period) {
        g /= period;
        l /= period;
      }
    } else {
      g = (g * (period - 1) + Math.max(d, 0)) / period;
      l = (l * (period - 1) + Math.max(-d, 0)) / period;
    }
    if (i >= period && g + l < 1e-8 * (1 + 1e-6)) out[i] = 1;
  }
  return out;
}
