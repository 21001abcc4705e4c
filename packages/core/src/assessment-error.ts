/**
 * Why a position cannot be assessed (the contract's 422 "with a reason", section 4.7):
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
 * 422 with the reason (bad input, by contrast, is an {@link InputError}: 400).
 * Source: service contract, sections 2.10 and 4.7 (`GET /v2/positions/{position_id}/analysis`).
 */
export class AssessmentError extends Error {
  override readonly name = 'AssessmentError';
  readonly code = 'position_not_assessable';
  readonly reason: AssessmentErrorReason;

  constructor(reason: AssessmentErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
