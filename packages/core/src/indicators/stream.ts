/**
 * The one streaming shape every indicator shares (modelled on trading-signals): feed a new
 * input with `update`, correct the still-open last input with `replace`, read `value`, and
 * know from `isStable` whether the lookback has been consumed.
 *
 * Streaming and batch agree exactly: the n-th `update` returns the batch output at index n-1,
 * bit for bit, and `replace(x)` returns what a batch run over the series with its last input
 * set to `x` returns at that index. Before the lookback, values are `NaN`, as in batch.
 */
export interface Stream<In, Out> {
  /** Appends one input and returns the newest output. */
  update(input: In): Out;
  /** Replaces the last input (the still-open candle) and returns the recomputed output. */
  replace(input: In): Out;
  /** The newest output (NaN before the lookback). */
  readonly value: Out;
  /** True once the lookback has been consumed, i.e. `value` is defined. */
  readonly isStable: boolean;
  /** Number of inputs seen. */
  readonly count: number;
}
