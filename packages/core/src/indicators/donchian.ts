import type { CandleLike, HL } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link donchian}. */
export interface DonchianOptions {
  /** Number of bars in the channel. Default 20. */
  period?: number;
}

/** Output of {@link donchian}. */
export type DonchianOutput = {
  /** Highest high of the window. */
  upper: Float64Array;
  /** (upper + lower) / 2. */
  middle: Float64Array;
  /** Lowest low of the window. */
  lower: Float64Array;
};

/** One row of {@link donchian}, as streamed by {@link Donchian}. */
export type DonchianValues = {
  upper: number;
  middle: number;
  lower: number;
};

const FIELDS = ['high', 'low'] as const;

function periodOf(options?: DonchianOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Donchian channel: the highest high and lowest low of the last `period` bars and their midpoint.
 *
 * Formula (TA-Lib `MAX` of the highs, `MIN` of the lows, `MIDPRICE`, exactly):
 * `upper = max(high[i-period+1..i])`, `lower = min(low[i-period+1..i])`,
 * `middle = (upper + lower) / 2`. The window's extreme is rescanned only when it leaves the
 * window, as in TA-Lib. Defaults: period 20. Lookback: `period - 1`.
 */
export const donchian = /* @__PURE__ */ withLookback(
  function donchian(candles: HL, options?: DonchianOptions): DonchianOutput {
    const period = periodOf(options);
    const n = checkColumns(candles, FIELDS);
    const lb = period - 1;
    const out = { upper: outputColumn(n, lb), middle: outputColumn(n, lb), lower: outputColumn(n, lb) };
    const { upper, middle, lower } = out;
    const { high, low } = candles;
    let hi = 0;
    let hiAt = -1;
    let lo = 0;
    let loAt = -1;
    for (let i = lb; i < n; i++) {
      const start = i - lb;
      const h = high[i];
      if (hiAt < start) {
        hiAt = start;
        hi = high[start];
        for (let j = start + 1; j <= i; j++) {
          if (high[j] >= hi) {
            hi = high[j];
            hiAt = j;
          }
        }
      } else if (h >= hi) {
        hi = h;
        hiAt = i;
      }
      const l = low[i];
      if (loAt < start) {
        loAt = start;
        lo = low[start];
        for (let j = start + 1; j <= i; j++) {
          if (low[j] <= lo) {
            lo = low[j];
            loAt = j;
          }
        }
      } else if (l <= lo) {
        lo = l;
        loAt = i;
      }
      upper[i] = hi;
      lower[i] = lo;
      middle[i] = (hi + lo) / 2;
    }
    return out;
  },
  (options?: DonchianOptions) => periodOf(options) - 1,
);

/** Streaming {@link donchian}. */
export class Donchian extends StreamBase<CandleLike, DonchianValues> {
  readonly period: number;
  private readonly highs: Window;
  private readonly lows: Window;
  private hi = 0;
  private hiAt = -1;
  private lo = 0;
  private loAt = -1;
  private readonly saved = new Float64Array(4);

  constructor(options?: DonchianOptions) {
    const period = periodOf(options);
    super(period - 1, { upper: Number.NaN, middle: Number.NaN, lower: Number.NaN });
    this.period = period;
    this.highs = new Window(this.period);
    this.lows = new Window(this.period);
  }

  /** The newest channel (NaN before the lookback), a fresh object on each read. */
  override get value(): DonchianValues {
    return { ...super.value };
  }

  protected override save(): void {
    const s = this.saved;
    s[0] = this.hi;
    s[1] = this.hiAt;
    s[2] = this.lo;
    s[3] = this.loAt;
  }

  protected override restore(): void {
    const s = this.saved;
    this.hi = s[0];
    this.hiAt = s[1];
    this.lo = s[2];
    this.loAt = s[3];
    this.highs.undo();
    this.lows.undo();
  }

  update(candle: CandleLike): DonchianValues {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return { ...out };
  }

  replace(candle: CandleLike): DonchianValues {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return { ...out };
  }

  protected step(candle: CandleLike): DonchianValues {
    const c = candle as { high: number; low: number };
    this.highs.push(c.high);
    this.lows.push(c.low);
    const p = this.period;
    const i = this.n - 1;
    if (this.n < p) return { upper: Number.NaN, middle: Number.NaN, lower: Number.NaN };
    const start = i - p + 1;
    // Window slot j holds bar start + j.
    if (this.hiAt < start) {
      const w = this.highs;
      let hi = w.at(0);
      let at = 0;
      for (let j = 1; j < p; j++) {
        if (w.at(j) >= hi) {
          hi = w.at(j);
          at = j;
        }
      }
      this.hi = hi;
      this.hiAt = start + at;
    } else if (c.high >= this.hi) {
      this.hi = c.high;
      this.hiAt = i;
    }
    if (this.loAt < start) {
      const w = this.lows;
      let lo = w.at(0);
      let at = 0;
      for (let j = 1; j < p; j++) {
        if (w.at(j) <= lo) {
          lo = w.at(j);
          at = j;
        }
      }
      this.lo = lo;
      this.loAt = start + at;
    } else if (c.low <= this.lo) {
      this.lo = c.low;
      this.loAt = i;
    }
    return { upper: this.hi, middle: (this.hi + this.lo) / 2, lower: this.lo };
  }
}
