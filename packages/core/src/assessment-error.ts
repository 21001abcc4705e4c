import { brand, isBranded } from './error-brand.js';

/**
 * Why a position cannot be assessed (the server answers 422 with this reason):
 * - `unpriced_without_asset`: no mark from the venue and the instrument maps to no tracked asset, so
 *   there is no price and no candle series to take one from.
 * - `unpriced_without_candles`: no mark from the venue and no candles were given to take one from.
 * - `mark_not_positive`: the mark (the venue's, or the last close) is not a positive finite price.
 * - `entry_not_positive`: the entry price is missing or not a positive finite price.
 */
export type AssessmentErrorReason =
  | 'unpriced_without_asset'
  | 'unpriced_without_candles'
  | 'mark_not_positive'
  | 'entry_not_positive';

/**
 * The error of a position that exists but cannot be assessed: the input is well formed, the position
 * simply has no usable price. `code` is stable and `reason` says which rule failed; the server answers
 * 422 with the reason on `GET /v2/positions/{position_id}/analysis` (bad input, by contrast, is an
 * {@link InputError}: 400).
 * `instanceof AssessmentError` holds for an error thrown by either build of core (ESM or CommonJS);
 * testing `error.code` works everywhere too.
 */
export class AssessmentError extends Error {
  override readonly name = 'AssessmentError';
  readonly code = 'position_not_assessable';
  readonly reason: AssessmentErrorReason;

  constructor(reason: AssessmentErrorReason, message: string) {
    super(message);
    this.reason = reason;
    brand(this, 'AssessmentError');
  }

  /** True for an `AssessmentError` from any copy of core (ESM or CommonJS build) loaded in this realm. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, maybe a user's subclass.
    return isBranded(this, AssessmentError, value, 'AssessmentError');
  }
}
