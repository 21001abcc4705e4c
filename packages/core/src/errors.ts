/** Stable codes of {@link InputError}. */
export type InputErrorCode = 'empty_input' | 'length_mismatch' | 'non_finite' | 'invalid_option' | 'invalid_candle';

/**
 * The one error core throws for bad input: empty or mismatched columns, NaN or Infinity
 * inside a series, a non-integer or out-of-range option. `code` is stable; `message` names
 * the offending column, index or option for a human.
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
  }
}
