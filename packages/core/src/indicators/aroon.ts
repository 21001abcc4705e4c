import type { CandleLike, HL } from '../types.js';
import { withLookback } from './internal/define.js';
import { HighLowWindow } from './internal/high-low-window.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, outputColumn } from './internal/validate.js';

/** Options of {@link aroon}. */
export interface AroonOptions {
  /** Look-back in candles; the window holds `period + 1` candles. Default 14. */
  period?: number;
}

/** Output of {@link aroon}, aligned with the input. */
export type AroonOutput = {
  up: Float64Array;
  down: Float64Array;
  oscillator: Float64Array;
};

/** One output row of {@link Aroon}. */
export type AroonValue = {
  up: number;
  down: number;
  oscillator: number;
};

function periodOf(options?: AroonOptions): number {
  return checkInt('period', options?.period ?? 14, 1);
}

const FIELDS = ['high', 'low'] as const;

/**
 * Aroon (Chande): how recently the window's highest high and lowest low occurred.
 *
 * Formula (TA-Lib `AROON` and `AROONOSC`): over the last `period + 1` candles, with
 * `f = 100 / period`, `up = f * (period - candlesSinceHighestHigh)`,
 * `down = f * (period - candlesSinceLowestLow)` and `oscillator = f * (indexOfHigh - indexOfLow)`
 * (equal to `up - down` up to rounding). On equal highs (lows) the most recent one counts, as in
 * TA-Lib. Default period 14. Lookback: `period`.
 */
export const aroon = /* @__PURE__ */ withLookback(
  function aroon(candles: HL, options?: AroonOptions): AroonOutput {
    const period = periodOf(options);
    const n = checkColumns(candles, FIELDS);
    const up = outputColumn(n, period);
    const down = outputColumn(n, period);
    const oscillator = outputColumn(n, period);
    const { high, low } = candles;
    const factor = 100 / period;
    let lowest = 0;
    let highest = 0;
    let lowestIdx = -1;
    let highestIdx = -1;
    let trailing = 0;
    // TA-Lib's scan: `<=` and `>=` everywhere, so the newest of equal extremes wins.
    for (let today = period; today < n; today++, trailing++) {
      let tmp = low[today];
      if (lowestIdx < trailing) {
        lowestIdx = trailing;
        lowest = low[trailing];
        for (let i = trailing + 1; i <= today; i++) {
          tmp = low[i];
          if (tmp <= lowest) {
            lowestIdx = i;
            lowest = tmp;
          }
        }
      } else if (tmp <= lowest) {
        lowestIdx = today;
        lowest = tmp;
      }
      tmp = high[today];
      if (highestIdx < trailing) {
        highestIdx = trailing;
        highest = high[trailing];
        for (let i = trailing + 1; i <= today; i++) {
          tmp = high[i];
          if (tmp >= highest) {
            highestIdx = i;
            highest = tmp;
          }
        }
      } else if (tmp >= highest) {
        highestIdx = today;
        highest = tmp;
      }
      up[today] = factor * (period - (today - highestIdx));
      down[today] = factor * (period - (today - lowestIdx));
      oscillator[today] = factor * (highestIdx - lowestIdx);
    }
    return { up, down, oscillator };
  },
  (options?: AroonOptions) => periodOf(options),
);

/** Streaming {@link aroon}. */
export class Aroon extends StreamBase<CandleLike, AroonValue> {
  readonly period: number;
  private readonly factor: number;
  private readonly window: HighLowWindow;
  private up = Number.NaN;
  private down = Number.NaN;
  private oscillator = Number.NaN;

  constructor(options?: AroonOptions) {
    const period = periodOf(options);
    super(period, { up: Number.NaN, down: Number.NaN, oscillator: Number.NaN });
    this.period = period;
    this.factor = 100 / this.period;
    this.window = new HighLowWindow(this.period + 1);
  }

  /** The newest Aroon up, down and oscillator (NaN before the lookback), a fresh object on each read. */
  override get value(): AroonValue {
    return { up: this.up, down: this.down, oscillator: this.oscillator };
  }

  protected override restore(): void {
    this.window.undo();
  }

  // `value` is built from the state on each read, so the fresh record of `step` is not kept:
  // unused by the caller, it is never allocated.
  update(candle: CandleLike): AroonValue {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    return this.step(candle);
  }

  replace(candle: CandleLike): AroonValue {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    return this.step(candle);
  }

  protected step(candle: CandleLike): AroonValue {
    const w = this.window;
    w.push(candle.high as number, candle.low as number);
    if (this.n <= this.period) return this.value;
    const today = this.n - 1;
    const f = this.factor;
    this.up = f * (this.period - (today - w.highestAt));
    this.down = f * (this.period - (today - w.lowestAt));
    this.oscillator = f * (w.highestAt - w.lowestAt);
    return this.value;
  }
}
