import type { CandleLike, HL } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link ao}. */
export interface AoOptions {
  /** Period of the fast SMA of the median price. Default 5. */
  fast?: number;
  /** Period of the slow SMA of the median price; greater than `fast`. Default 34. */
  slow?: number;
}

function paramsOf(options?: AoOptions): { fast: number; slow: number } {
  const slow = checkInt('slow', options?.slow ?? 34, 2);
  const fast = checkInt('fast', options?.fast ?? 5, 1, slow - 1);
  return { fast, slow };
}

const FIELDS = ['high', 'low'] as const;

/**
 * Awesome Oscillator (Bill Williams).
 *
 * Formula (Williams, "New Trading Dimensions"; as technicalindicators `AwesomeOscillator` and
 * @ixjb94/indicators `ao`): median price `m = (high + low) / 2`;
 * `ao = SMA(m, fast) - SMA(m, slow)`, each SMA a running sum seeded by its first window and then
 * moved by the difference of the newest and the dropped value. TA-Lib has no AO.
 * Defaults fast 5, slow 34. Lookback: `slow - 1`.
 */
export const ao = /* @__PURE__ */ withLookback(
  function ao(candles: HL, options?: AoOptions): Float64Array {
    const { fast, slow } = paramsOf(options);
    const n = checkColumns(candles, FIELDS);
    const out = outputColumn(n, slow - 1);
    const { high, low } = candles;
    let sumFast = 0;
    let sumSlow = 0;
    for (let i = 0; i < n; i++) {
      const m = (high[i] + low[i]) / 2;
      if (i < fast) sumFast += m;
      else sumFast += m - (high[i - fast] + low[i - fast]) / 2;
      if (i < slow) sumSlow += m;
      else sumSlow += m - (high[i - slow] + low[i - slow]) / 2;
      if (i >= slow - 1) out[i] = sumFast / fast - sumSlow / slow;
    }
    return out;
  },
  (options?: AoOptions) => paramsOf(options).slow - 1,
);

/** Streaming {@link ao}. */
export class AO extends StreamBase<CandleLike, number> {
  readonly fast: number;
  readonly slow: number;
  // The last `slow` median prices; the fast window is its newest `fast` values.
  private readonly window: Window;
  private sumFast = 0;
  private sumSlow = 0;
  private pSumFast = 0;
  private pSumSlow = 0;

  constructor(options?: AoOptions) {
    const { fast, slow } = paramsOf(options);
    super(slow - 1, Number.NaN);
    this.fast = fast;
    this.slow = slow;
    this.window = new Window(slow);
  }

  protected override save(): void {
    this.pSumFast = this.sumFast;
    this.pSumSlow = this.sumSlow;
  }

  protected override restore(): void {
    this.window.undo();
    this.sumFast = this.pSumFast;
    this.sumSlow = this.pSumSlow;
  }

  update(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): number {
    const m = ((candle.high as number) + (candle.low as number)) / 2;
    const i = this.n - 1;
    const w = this.window;
    // Before the push, the median `fast` candles ago sits `fast` places from the newest end.
    if (i < this.fast) this.sumFast += m;
    else this.sumFast += m - w.at(w.length - this.fast);
    const evicted = w.push(m);
    if (i < this.slow) this.sumSlow += m;
    else this.sumSlow += m - evicted;
    return i >= this.slow - 1 ? this.sumFast / this.fast - this.sumSlow / this.slow : Number.NaN;
  }
}
