import Decimal from 'decimal.js';
import { InputError } from '../errors.js';

/**
 * Decimal for money: 60 significant digits, half-even. A product of two doubles has at most 34
 * significant digits, so sums and products of venue figures are exact; only divisions (average
 * prices, `1 / price` of inverse contracts, percentages) round, at the 60th digit.
 * A number enters by its shortest round-trip decimal form (`0.1` is `0.1`, not the binary value),
 * which is the decimal string the venue sent for any figure of up to 15 significant digits.
 * The configured constructor is made on first use, not at module load, so a bundle that never
 * touches money (an RSI-only import) neither runs nor keeps it.
 * @internal
 */
export type Dec = Decimal;

let Money: typeof Decimal | undefined;

/** `x` as a money {@link Dec}. @internal */
export function dec(x: Decimal.Value): Dec {
  if (Money === undefined) Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });
  return new Money(x);
}

/** The exact decimal rounded once to the nearest double (`-0` reads as `0`). @internal */
export function toNum(d: Dec): number {
  const x = d.toNumber();
  return x === 0 ? 0 : x;
}

/** Exact sum of `values` as a Decimal. @internal */
export function decSum(values: readonly number[]): Dec {
  let acc = dec(0);
  for (const v of values) acc = acc.plus(v);
  return acc;
}

/** Largest absolute ms time `Date` accepts. */
const MAX_TIME = 8.64e15;

/** Reads the fields of one input record; every reader throws {@link InputError} naming `what[index].field`. @internal */
export interface Fields {
  fail(field: string, message: string, code?: 'invalid_option' | 'non_finite'): never;
  /** A non-empty string. */
  string(field: string): string;
  /** A string, or null when absent. */
  stringOrNull(field: string): string | null;
  /** A finite number. */
  number(field: string): number;
  /** A finite number, or null when absent. */
  numberOrNull(field: string): number | null;
  /** A positive finite number, or null when absent, zero or negative (how venues write "not set"). */
  positiveOrNull(field: string): number | null;
  /** A number at or above zero, or null when absent or negative. */
  nonNegativeOrNull(field: string): number | null;
  /** A time in ms since the epoch within Date's range, or null when absent. */
  timeOrNull(field: string): number | null;
  /** A time in ms since the epoch within Date's range. */
  time(field: string): number;
  /** One of `choices`. */
  choice<T extends string>(field: string, choices: readonly T[]): T;
}

/** The {@link Fields} of `row`, or throws when it is not an object. @internal */
export function fieldsOf(row: unknown, what: string, index?: number): Fields {
  if (row == null || typeof row !== 'object') {
    const where = index === undefined ? what : `${what}[${index}]`;
    throw new InputError('invalid_option', `${where} must be an object`, what, index);
  }
  const record = row as Record<string, unknown>;
  const where = (field: string): string => (index === undefined ? `${what}.${field}` : `${what}[${index}].${field}`);
  const fail = (field: string, message: string, code: 'invalid_option' | 'non_finite' = 'invalid_option'): never => {
    throw new InputError(code, `${where(field)} ${message}`, field, index);
  };
  const number = (field: string): number => {
    const v = record[field];
    if (typeof v !== 'number') return fail(field, `must be a number, got ${String(v)}`);
    if (!Number.isFinite(v)) return fail(field, `is ${String(v)}; it must be finite`, 'non_finite');
    return v;
  };
  const numberOrNull = (field: string): number | null => {
    const v = record[field];
    return v === undefined || v === null ? null : number(field);
  };
  const timeOrNull = (field: string): number | null => {
    const v = numberOrNull(field);
    if (v !== null && Math.abs(v) > MAX_TIME) fail(field, `is ${v}; it must be a time in ms within Date's range`);
    return v;
  };
  return {
    fail,
    string(field) {
      const v = record[field];
      if (typeof v !== 'string' || v.length === 0) return fail(field, `must be a non-empty string, got ${String(v)}`);
      return v;
    },
    stringOrNull(field) {
      const v = record[field];
      if (v === undefined || v === null) return null;
      if (typeof v !== 'string') return fail(field, `must be a string or null, got ${String(v)}`);
      return v;
    },
    number,
    numberOrNull,
    positiveOrNull(field) {
      const v = numberOrNull(field);
      return v !== null && v > 0 ? v : null;
    },
    nonNegativeOrNull(field) {
      const v = numberOrNull(field);
      return v !== null && v >= 0 ? v : null;
    },
    timeOrNull,
    time(field) {
      const v = timeOrNull(field);
      return v === null ? fail(field, 'must be a time in ms since the epoch') : v;
    },
    choice<T extends string>(field: string, choices: readonly T[]): T {
      const v = record[field];
      if (typeof v !== 'string' || !(choices as readonly string[]).includes(v)) {
        return fail(field, `must be one of ${choices.map((c) => `'${c}'`).join(', ')}, got ${String(v)}`);
      }
      return v as T;
    },
  };
}

/** Throws unless `rows` is an array. @internal */
export function checkArray<T>(rows: readonly T[], what: string): readonly T[] {
  if (!Array.isArray(rows)) throw new InputError('invalid_option', `${what} must be an array`, what);
  return rows;
}

/** ISO 8601 UTC date-time of a ms time. @internal */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** ISO 8601 UTC date-time of a ms time, or null. @internal */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}
