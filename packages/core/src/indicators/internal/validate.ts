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

/**
 * The common length of the named columns, checking that each is present, array-like and
 * non-empty and that the lengths agree, without reading a value: for kernels that fold the
 * finiteness check into their own single pass (accumulating `x * 0`, which is 0 for every finite
 * x and NaN otherwise) and call {@link checkColumns} when that sum is not 0, so a caller gets the
 * same typed error, for the same first bad value, as from a separate check.
 */
export function columnsLength(columns: object, fields: readonly string[]): number {
  if (columns != null && typeof columns === 'object') {
    const record = columns as Record<string, ArrayLike<number> | undefined>;
    let n = -1;
    let ok = true;
    for (const f of fields) {
      const col = record[f];
      const len = col == null ? -1 : col.length;
      if (typeof len !== 'number' || len <= 0 || (n !== -1 && len !== n)) {
        ok = false;
        break;
      }
      n = len;
    }
    if (ok && n > 0) return n;
  }
  return checkColumns(columns, fields);
}

/**
 * The length of `values`, checking that it is a non-empty array-like without reading a value: for
 * kernels that fold the finiteness check into their own pass (see {@link columnsLength}) and call
 * {@link checkSeries} when their sum of `x * 0` is not 0.
 */
export function seriesLength(values: ArrayLike<number>, field = 'values'): number {
  const len = values == null ? -1 : values.length;
  if (typeof len === 'number' && len > 0) return len;
  return checkSeries(values, field);
}

/**
 * The output column of a kernel that accepts the caller's array (`options.out`): that array, after
 * checking that it is a `Float64Array` of exactly `n` values that does not share memory with the
 * input, with NaN written to its first `lookback` slots; or, without one, a new column. Writing
 * into an array the caller reuses skips allocating and first-touching 8 bytes per value, which
 * is the floor of the fastest kernels.
 */
export function outputInto(
  out: Float64Array | undefined,
  n: number,
  lookback: number,
  input: ArrayLike<number>,
  field = 'out',
): Float64Array {
  if (out === undefined) return outputColumn(n, lookback);
  if (!(out instanceof Float64Array) || out.length !== n) {
    const got = out instanceof Float64Array ? `length ${out.length}` : String(out);
    throw new InputError('invalid_option', `${field} must be a Float64Array of length ${n}, got ${got}`, field);
  }
  if (ArrayBuffer.isView(input) && input.buffer === out.buffer) {
    throw new InputError('invalid_option', `${field} must not share memory with the input`, field);
  }
  if (lookback > 0) out.fill(Number.NaN, 0, Math.min(lookback, n));
  return out;
}

/**
 * {@link outputInto} for a kernel of candles: the caller's array is checked against each named
 * column of `candles` (already checked by {@link columnsLength}), none of which it may share
 * memory with.
 */
export function outputIntoColumns(
  out: Float64Array | undefined,
  n: number,
  lookback: number,
  candles: object,
  fields: readonly string[],
  field = 'out',
): Float64Array {
  if (out === undefined) return outputColumn(n, lookback);
  const record = candles as Record<string, ArrayLike<number>>;
  for (const f of fields) outputInto(out, n, 0, record[f], field);
  if (lookback > 0) out.fill(Number.NaN, 0, Math.min(lookback, n));
  return out;
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
