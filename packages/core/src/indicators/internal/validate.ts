import { InputError } from '../../errors.js';

/** Throws unless `values` is a non-empty array-like of finite numbers. Returns its length. */
export function checkSeries(values: ArrayLike<number>, field = 'values'): number {
  if (values == null || typeof values.length !== 'number') {
    throw new InputError('empty_input', `${field} must be an array of numbers`, field);
  }
  const n = values.length;
  if (n === 0) throw new InputError('empty_input', `${field} is empty`, field);
  // x * 0 is 0 for every finite x and NaN for NaN and +-Infinity: one multiply-add per value.
  let acc = 0;
  for (let i = 0; i < n; i++) acc += values[i] * 0;
  if (acc !== 0) {
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new InputError(
          'non_finite',
          `${field}[${i}] is ${String(v)}; every value must be a finite number`,
          field,
          i,
        );
      }
    }
  }
  return n;
}

/** Throws unless each named column is present, non-empty, finite and of one common length. */
export function checkColumns(columns: object, fields: readonly string[]): number {
  if (columns == null || typeof columns !== 'object') {
    throw new InputError('empty_input', `candles must be an object with columns ${fields.join(', ')}`);
  }
  const record = columns as Record<string, ArrayLike<number> | undefined>;
  let n = -1;
  for (const f of fields) {
    const col = record[f];
    if (col == null) throw new InputError('empty_input', `candles.${f} is missing`, f);
    const len = checkSeries(col, `candles.${f}`);
    if (n === -1) n = len;
    else if (len !== n) {
      throw new InputError('length_mismatch', `candles.${f} has ${len} values but candles.${fields[0]} has ${n}`, f);
    }
  }
  return n;
}

/** Throws unless `value` is an integer in [min, max]. Returns it. */
export function checkInt(name: string, value: number, min: number, max = 1_000_000): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InputError('invalid_option', `${name} must be an integer in ${min}..${max}, got ${String(value)}`, name);
  }
  return value;
}

/** Throws unless `value` is a finite number in [min, max]. Returns it. */
export function checkNumber(name: string, value: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InputError('invalid_option', `${name} must be a number in ${min}..${max}, got ${String(value)}`, name);
  }
  return value;
}

/** Throws unless `value` is a finite number; used by streaming `update`. */
export function checkValue(value: number, field = 'value'): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InputError('non_finite', `${field} is ${String(value)}; it must be a finite number`, field);
  }
  return value;
}

/** Throws unless the candle has finite numbers in each named field. */
export function checkCandle(candle: object, fields: readonly string[]): void {
  if (candle == null || typeof candle !== 'object') {
    throw new InputError('invalid_candle', 'candle must be an object');
  }
  const record = candle as Record<string, unknown>;
  for (const f of fields) {
    const v = record[f];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new InputError('invalid_candle', `candle.${f} is ${String(v)}; it must be a finite number`, f);
    }
  }
}

/** Throws when `replace` is called before any `update`. */
export function checkReplace(count: number): void {
  if (count === 0) {
    throw new InputError('invalid_option', 'replace() needs a previous update()');
  }
}

/** A new output column of `n` NaN values. */
export function nanArray(n: number): Float64Array {
  return new Float64Array(n).fill(Number.NaN);
}

/**
 * A new output column of `n` values with NaN in the first `lookback` slots only; the kernel
 * writes every slot from `lookback` on. Cheaper than filling the whole column with NaN.
 */
export function outputColumn(n: number, lookback: number): Float64Array {
  const out = new Float64Array(n);
  if (lookback > 0) out.fill(Number.NaN, 0, Math.min(lookback, n));
  return out;
}
