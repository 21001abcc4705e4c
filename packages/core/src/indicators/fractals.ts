import type { CandleLike, HL } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, nanArray } from './internal/validate.js';

const FIELDS = ['high', 'low'] as const;

/** Options of {@link fractals}. */
export interface FractalsOptions {
  /** Bars on each side of the center. Default 2 (Bill Williams' five-bar fractal). */
  period?: number;
}

/** Output of {@link fractals}: columns aligned with the input, NaN where no fractal is confirmed. */
export type FractalsResult<T = Float64Array> = {
  /** The high of the up fractal centered `period` bars back, confirmed at this bar. */
  up: T;
  /** The low of the down fractal centered `period` bars back, confirmed at this bar. */
  down: T;
};

function periodOf(options?: FractalsOptions): number {
  return checkInt('period', options?.period ?? 2, 1);
}

/**
 * Bill Williams fractals, reported when they become known (no look-ahead).
 *
 * Formula (Williams, "Trading Chaos"; trading-signals `SwingHigh`/`SwingLow` with lookback
 * `period`): the bar `c = i - period` is an up fractal when its high is strictly greater than
 * the highs of the `period` bars before it and the `period` bars after it; a down fractal when
 * its low is strictly lower than those bars' lows. It is confirmed at bar `i`, the last of those
 * bars, so `up[i] = high[i - period]` (and `down[i] = low[i - period]`) on a confirming bar and
 * NaN on every other bar; a bar can confirm both. A chart draws the mark `period` bars back,
 * on the center. Ties: any equal high (low) in the window rejects the fractal, so a flat top of
 * two equal highs is none; TradingView's built-in Williams Fractals also accepts up to four
 * highs equal to the center right before it (a flat top whose last bar is then the fractal).
 * Default period 2. Lookback: `2 * period`.
 */
export const fractals = /* @__PURE__ */ withLookback(
  function fractals(candles: HL, options?: FractalsOptions): FractalsResult {
    const period = periodOf(options);
    const n = checkColumns(candles, FIELDS);
    const { high, low } = candles;
    const up = nanArray(n);
    const down = nanArray(n);
    for (let i = 2 * period; i < n; i++) {
      const c = i - period;
      const h = high[c];
      let isUp = true;
      for (let k = 1; k <= period; k++) {
        if (!(high[c + k] < h && high[c - k] < h)) {
          isUp = false;
          break;
        }
      }
      if (isUp) up[i] = h;
      const l = low[c];
      let isDown = true;
      for (let k = 1; k <= period; k++) {
        if (!(low[c + k] > l && low[c - k] > l)) {
          isDown = false;
          break;
        }
      }
      if (isDown) down[i] = l;
    }
    return { up, down };
  },
  (options?: FractalsOptions) => 2 * periodOf(options),
);

/** Streaming {@link fractals}; takes candles with `high` and `low`. */
export class Fractals extends StreamBase<CandleLike, FractalsResult<number>> {
  readonly period: number;
  /** Highs and lows of the last `2 * period + 1` bars, at slot `index % size`. */
  private readonly size: number;
  private readonly highs: Float64Array;
  private readonly lows: Float64Array;

  constructor(options?: FractalsOptions) {
    const period = periodOf(options);
    super(2 * period, { up: Number.NaN, down: Number.NaN });
    this.period = period;
    this.size = 2 * this.period + 1;
    this.highs = new Float64Array(this.size);
    this.lows = new Float64Array(this.size);
  }

  // No save or restore: the window holds raw bars only, and overwriting the last slot is the whole undo.
  update(candle: CandleLike): FractalsResult<number> {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): FractalsResult<number> {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): FractalsResult<number> {
    const i = this.n - 1;
    const size = this.size;
    const p = this.period;
    this.highs[i % size] = candle.high as number;
    this.lows[i % size] = candle.low as number;
    if (i < 2 * p) return { up: Number.NaN, down: Number.NaN };
    const c = i - p;
    const h = this.highs[c % size];
    let isUp = true;
    for (let k = 1; k <= p; k++) {
      if (!(this.highs[(c + k) % size] < h && this.highs[(c - k) % size] < h)) {
        isUp = false;
        break;
      }
    }
    const l = this.lows[c % size];
    let isDown = true;
    for (let k = 1; k <= p; k++) {
      if (!(this.lows[(c + k) % size] > l && this.lows[(c - k) % size] > l)) {
        isDown = false;
        break;
      }
    }
    return { up: isUp ? h : Number.NaN, down: isDown ? l : Number.NaN };
  }
}
