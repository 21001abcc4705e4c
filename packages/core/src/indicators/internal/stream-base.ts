import type { Stream } from '../stream.js';
import { checkValue } from './validate.js';

/**
 * The streaming base every indicator class extends. It holds what all of them share: the count,
 * the newest output, and `value`, `isStable` (from the published lookback) and `count`. A subclass
 * writes its maths in `step`, and keeps the state of one input back in `save` (called before each
 * `update`) and `restore` (called before each `replace`).
 *
 * `update` and `replace` are not here but in each class, as the same four lines: check the input
 * (with {@link checkInput} or `checkCandle`), `save` and count (or `checkReplace` and `restore`),
 * `step`, keep the output. A body shared by every class runs with one set of V8 type feedback
 * for all of them: once an application streams a few kinds of indicator, its `this.step` and
 * field reads go megamorphic and are no longer inlined (measured: `update` 2.2x slower over the
 * 40 classes, EMA from 4.4 to 34 ns). A body per class stays monomorphic, so it inlines `save`,
 * `step` and `restore`; see BENCHMARKS.md. Hot code must not use the shared getters either (they
 * are one function for all classes): a class reads `this.n` and `this.lookbackCount` itself.
 * @internal
 */
export abstract class StreamBase<In, Out> implements Stream<In, Out> {
  /** Number of inputs seen, the current one included once `step` runs. */
  protected n = 0;
  // Declared, not defined: a class field would first hold `undefined`, which makes V8 store every
  // later number output boxed (a heap allocation per update); the constructor's first store of a
  // number keeps the field an unboxed double.
  /** The newest output; `update` and `replace` store what `step` returns. */
  declare protected out: Out;
  /** Inputs consumed before the first defined output (the batch lookback). */
  protected readonly lookbackCount: number;

  /**
   * @param lookback inputs consumed before the first defined output (the batch lookback).
   * @param initial the output before any input (NaN, or the indicator's all-NaN record).
   */
  constructor(lookback: number, initial: Out) {
    this.lookbackCount = lookback;
    this.out = initial;
  }

  /** The newest output (NaN before the lookback). */
  get value(): Out {
    return this.out;
  }

  /** True once the lookback has been consumed, i.e. `value` is defined. */
  get isStable(): boolean {
    return this.n > this.lookbackCount;
  }

  /** Number of inputs seen. */
  get count(): number {
    return this.n;
  }

  /** Appends one input and returns the newest output. */
  abstract update(input: In): Out;

  /** Replaces the last input (the still-open candle) and returns the recomputed output. */
  abstract replace(input: In): Out;

  /**
   * Consumes one checked input (the `n`-th) and returns the output at it. `replacing` is true when
   * it stands in for the last input, after `restore`; an indicator built on other streams passes
   * it on (`replace` rather than `update` on them).
   */
  protected abstract step(input: In, replacing: boolean): Out;

  /** Keeps the state `restore` must bring back; called before each `update`. */
  protected save(): void {}

  /** Brings back the state kept by `save`, undoing the last input; called before each `replace`. */
  protected restore(): void {}
}

/** Throws unless `x` is a finite number: the input check of `update` and `replace` over numbers. */
export function checkInput(x: number): void {
  // x - x is 0 for a finite number and NaN for NaN and +-Infinity.
  if (typeof x !== 'number' || x - x !== 0) checkValue(x);
}
