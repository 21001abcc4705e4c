import { brand, isBranded } from './error-brand.js';

/** Stable codes of {@link InputError}. */
export type InputErrorCode = 'empty_input' | 'length_mismatch' | 'non_finite' | 'invalid_option' | 'invalid_candle';

/**
 * The one error core throws for bad input: empty or mismatched columns, NaN or Infinity
 * inside a series, a non-integer or out-of-range option. `code` is stable; `message` names
 * the offending column, index or option for a human.
 *
 * `instanceof InputError` holds for an error thrown by either build of core (ESM or CommonJS)
 * or by another copy of core in the same process; testing `error.code` works everywhere too.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly code: InputErrorCode;
  /** The column or option at fault, when there is one. */
  readonly field: string | undefined;
  /** The index inside the column at fault, when there is one. */
  readonly index: number | undefined;

  constructor(code: InputErrorCode, message: string, field?: string, index?: number) {
    super(message);
    this.code = code;
    this.field = field;
    this.index = index;
    brand(this, 'InputError');
  }

  /** True for an `InputError` from any copy of core (ESM or CommonJS build) loaded in this realm. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, maybe a user's subclass.
    return isBranded(this, InputError, value, 'InputError');
  }
}
