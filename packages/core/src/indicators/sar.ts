import type { CandleLike, HL } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkNumber, checkReplace, outputColumn } from './internal/validate.js';

/** Options of {@link sar}. */
export interface SarOptions {
  /** Acceleration factor step (and start), in 0..1. Default 0.02. Capped at `maximum`. */
  acceleration?: number;
  /** Maximum acceleration factor, in 0..1. Default 0.2. */
  maximum?: number;
}

const FIELDS = ['high', 'low'] as const;

function paramsOf(options?: SarOptions): { acceleration: number; maximum: number } {
  const acceleration = checkNumber('acceleration', options?.acceleration ?? 0.02, 0, 1);
  const maximum = checkNumber('maximum', options?.maximum ?? 0.2, 0, 1);
  // As TA-Lib: an acceleration above the maximum is lowered to it.
  return { acceleration: Math.min(acceleration, maximum), maximum };
}

/**
 * The SAR state between bars. `step` consumes one bar's high and low and returns the SAR for
 * it, exactly as one iteration of TA-Lib's loop; the batch function runs the same object over
 * the columns so that batch and streaming share one implementation.
 */
class SarState {
  isLong = true;
  sar = 0;
  ep = 0;
  af = 0;
  prevHigh = 0;
  prevLow = 0;

  copyFrom(s: SarState): void {
    this.isLong = s.isLong;
    this.sar = s.sar;
    this.ep = s.ep;
    this.af = s.af;
    this.prevHigh = s.prevHigh;
    this.prevLow = s.prevLow;
  }

  /** Bar 1: TA-Lib's initial direction and SAR from bars 0 and 1. */
  start(high0: number, low0: number, high: number, low: number, acceleration: number): void {
    // Short iff the one-bar -DM of the first two bars is positive (TA-Lib MINUS_DM(1)).
    const up = high - high0;
    const down = low0 - low;
    this.isLong = !(down > 0 && up < down);
    this.ep = this.isLong ? high : low;
    this.sar = this.isLong ? low0 : high0;
    this.af = acceleration;
    // TA-Lib's "cheat": the first iteration's previous bar is bar 1 itself.
    this.prevHigh = high;
    this.prevLow = low;
  }

  step(newHigh: number, newLow: number, acceleration: number, maximum: number): number {
    const prevHigh = this.prevHigh;
    const prevLow = this.prevLow;
    this.prevHigh = newHigh;
    this.prevLow = newLow;
    let sar = this.sar;
    let out: number;
    if (this.isLong) {
      if (newLow <= sar) {
        // Switch to short; the SAR jumps to the extreme point, kept above both bars' highs.
        this.isLong = false;
        sar = this.ep;
        if (sar < prevHigh) sar = prevHigh;
        if (sar < newHigh) sar = newHigh;
        out = sar;
        this.af = acceleration;
        this.ep = newLow;
        sar = sar + this.af * (this.ep - sar);
        if (sar < prevHigh) sar = prevHigh;
        if (sar < newHigh) sar = newHigh;
      } else {
        out = sar;
        if (newHigh > this.ep) {
          this.ep = newHigh;
          this.af += acceleration;
          if (this.af > maximum) this.af = maximum;
        }
        sar = sar + this.af * (this.ep - sar);
        if (sar > prevLow) sar = prevLow;
        if (sar > newLow) sar = newLow;
      }
    } else if (newHigh >= sar) {
      // Switch to long; the SAR jumps to the extreme point, kept below both bars' lows.
      this.isLong = true;
      sar = this.ep;
      if (sar > prevLow) sar = prevLow;
      if (sar > newLow) sar = newLow;
      out = sar;
      this.af = acceleration;
      this.ep = newHigh;
      sar = sar + this.af * (this.ep - sar);
      if (sar > prevLow) sar = prevLow;
      if (sar > newLow) sar = newLow;
    } else {
      out = sar;
      if (newLow < this.ep) {
        this.ep = newLow;
        this.af += acceleration;
        if (this.af > maximum) this.af = maximum;
      }
      sar = sar + this.af * (this.ep - sar);
      if (sar < prevHigh) sar = prevHigh;
      if (sar < newHigh) sar = newHigh;
    }
    this.sar = sar;
    return out;
  }
}

/**
 * Parabolic SAR (Wilder 1978), the stop-and-reverse trailing level.
 *
 * Formula (TA-Lib `SAR`, exactly): the first bar is consumed; the initial trade is short iff the
 * one-bar -DM of the first two bars is positive (`low0 - low1 > 0` and greater than
 * `high1 - high0`), long otherwise (ties long); the initial SAR is the first bar's low (long) or
 * high (short) and the extreme point the second bar's high (low). Each bar outputs the SAR
 * computed on the previous one, then `sar += af * (ep - sar)`, kept outside the last two bars'
 * range; `af` starts at `acceleration` and grows by it on each new extreme up to `maximum`;
 * when a bar penetrates the SAR, the trade reverses and the SAR jumps to the extreme point.
 * An acceleration above the maximum is lowered to it, as in TA-Lib.
 * Defaults: acceleration 0.02, maximum 0.2. Lookback: 1.
 */
export const sar = /* @__PURE__ */ withLookback(
  function sar(candles: HL, options?: SarOptions): Float64Array {
    const { acceleration, maximum } = paramsOf(options);
    const n = checkColumns(candles, FIELDS);
    const out = outputColumn(n, 1);
    if (n < 2) return out;
    const { high, low } = candles;
    const s = new SarState();
    s.start(high[0], low[0], high[1], low[1], acceleration);
    for (let i = 1; i < n; i++) out[i] = s.step(high[i], low[i], acceleration, maximum);
    return out;
  },
  (options?: SarOptions) => {
    paramsOf(options);
    return 1;
  },
);

/** Streaming {@link sar}. */
export class SAR extends StreamBase<CandleLike, number> {
  readonly acceleration: number;
  readonly maximum: number;
  private readonly state = new SarState();
  private readonly saved = new SarState();

  constructor(options?: SarOptions) {
    super(1, Number.NaN);
    const { acceleration, maximum } = paramsOf(options);
    this.acceleration = acceleration;
    this.maximum = maximum;
  }

  protected override save(): void {
    this.saved.copyFrom(this.state);
  }

  protected override restore(): void {
    this.state.copyFrom(this.saved);
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
    const c = candle as { high: number; low: number };
    const s = this.state;
    if (this.n === 1) {
      // Bar 0 is only remembered, in prevHigh / prevLow, for the initial direction.
      s.prevHigh = c.high;
      s.prevLow = c.low;
      return Number.NaN;
    }
    if (this.n === 2) s.start(s.prevHigh, s.prevLow, c.high, c.low, this.acceleration);
    return s.step(c.high, c.low, this.acceleration, this.maximum);
  }
}
