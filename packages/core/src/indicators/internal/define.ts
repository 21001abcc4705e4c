/** A batch indicator function that also carries its published lookback. */
export type WithLookback<F, O> = F & {
  /** Number of inputs consumed before the first defined output, for these options. */
  lookback(options?: O): number;
};

/** Attaches `lookback(options)` to a batch indicator function. */
export function withLookback<F extends (...args: never[]) => unknown, O>(
  fn: F,
  lookback: (options?: O) => number,
): WithLookback<F, O> {
  return Object.assign(fn, { lookback });
}
