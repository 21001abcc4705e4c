import type { CandleLike, HLCV } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link mfi}. */
export interface MfiOptions {
  /** Number of money flows summed. Default 14. */
  period?: number;
}

function periodOf(options?: MfiOptions): number {
  return checkInt('period', options?.period ?? 14, 1);
}

const FIELDS = ['high', 'low', 'close', 'volume'] as const;

/** `100 * pos / (pos + neg)`; 50 when there is no money flow at all. */
function ratio(pos: number, neg: number): number {
  const total = pos + neg;
  return total === 0 ? 50 : 100 * (pos / total);
}

/**
 * Money Flow Index (Quong and Soudack): a volume-weighted RSI.
 *
 * Formula (TA-Lib `MFI`): typical price `tp = (high + low + close) / 3`, money flow `tp * volume`,
 * positive when `tp` rose from the previous candle, negative when it fell, neither when unchanged;
 * `mfi = 100 * pos / (pos + neg)` over the sums of the last `period` flows (running sums, as in
 * TA-Lib). A window without any flow (unchanged prices or zero volume) reads 50, where TA-Lib
 * reads 0 whenever `pos + neg < 1` (which also zeroes genuine values on small prices or volumes).
 * A side whose window holds no flow has its sum reset to an exact 0, clearing running-sum residue.
 * Default period 14. Lookback: `period`.
 */
export const mfi = /* @__PURE__ */ withLookback(
  function mfi(candles: HLCV, options?: MfiOptions): Float64Array {
    const period = periodOf(options);
    const n = columnsLength(candles, FIELDS);
    const out = outputColumn(n, period);
    if (n <= period) {
      checkColumns(candles, FIELDS);
      return out;
    }
    if (mfiInto(candles.high, candles.low, candles.close, candles.volume, n, period, out) !== 0)
      checkColumns(candles, FIELDS);
    return out;
  },
  (options?: MfiOptions) => periodOf(options),
);

/**
 * The kernel of {@link mfi}: writes from index `period` (n > period) into `out` and returns the sum
 * of `x * 0` over the columns (the finiteness check, folded into this pass). A function of its own
 * with nothing after its loop, so V8's mid-loop (OSR) and later full compiles see the same complete
 * feedback whatever ran before.
 */
function mfiInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  n: number,
  period: number,
  out: Float64Array,
): number {
  // Ring buffers of the last `period` flows; flow i lives in slot i % period.
  const posBuf = new Float64Array(period);
  const negBuf = new Float64Array(period);
  let pos = 0;
  let neg = 0;
  // Index of the newest nonzero flow of each side: older than the window means a sum of exactly 0.
  // (-period - 1 is older than any window and keeps the branch-free update below exact.)
  let posAt = -period - 1;
  let negAt = -period - 1;
  let prev = (high[0] + low[0] + close[0]) / 3;
  // The finiteness check, folded into this pass: x * 0 is 0 for finite x and NaN otherwise.
  let bad = prev * 0 + volume[0] * 0;
  let slot = 1 % period;
  for (let i = 1; i < n; i++) {
    const h = high[i];
    const l = low[i];
    const c = close[i];
    const v = volume[i];
    bad += h * 0 + l * 0 + (c * 0 + v * 0);
    const tp = (h + l + c) / 3;
    const d = tp - prev;
    prev = tp;
    const flow = tp * v;
    // Branch-free: the direction of a random walk is a coin toss, and a mispredicted branch per
    // candle cost more than the rest of the loop. flow * 1 is flow and flow * 0 is a zero, so
    // the sums are the same numbers as with `d > 0 ? flow : 0`.
    const p = flow * +(d > 0);
    const m = flow * +(d < 0);
    // TA-Lib's order: drop the flow leaving the window, then add the new one.
    if (i > period) {
      pos -= posBuf[slot];
      neg -= negBuf[slot];
    }
    pos += p;
    neg += m;
    posBuf[slot] = p;
    negBuf[slot] = m;
    posAt += (i - posAt) * +(p !== 0);
    negAt += (i - negAt) * +(m !== 0);
    slot = slot + 1 === period ? 0 : slot + 1;
    if (i < period) continue;
    if (i - posAt >= period) pos = 0;
    if (i - negAt >= period) neg = 0;
    const total = pos + neg;
    out[i] = total === 0 ? 50 : 100 * (pos / total);
  }
  return bad;
}

/** Streaming {@link mfi}. */
export class MFI extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly posWin: Window;
  private readonly negWin: Window;
  // previous typical price, sums, indices of the newest nonzero flows; and their copy before the last update
  private readonly s = new Float64Array([0, 0, 0, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  private readonly saved = new Float64Array(5);

  constructor(options?: MfiOptions) {
    const period = periodOf(options);
    super(period, Number.NaN);
    this.period = period;
    this.posWin = new Window(this.period);
    this.negWin = new Window(this.period);
  }

  protected override save(): void {
    this.saved.set(this.s);
  }

  protected override restore(): void {
    if (this.n > 1) {
      this.posWin.undo();
      this.negWin.undo();
    }
    this.s.set(this.saved);
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
    const s = this.s;
    const tp = ((candle.high as number) + (candle.low as number) + (candle.close as number)) / 3;
    const i = this.n - 1;
    if (i === 0) {
      s[0] = tp;
      return Number.NaN;
    }
    const d = tp - s[0];
    s[0] = tp;
    const flow = tp * (candle.volume as number);
    const p = d > 0 ? flow : 0;
    const m = d < 0 ? flow : 0;
    // The flow leaving the window is the one a full window evicts (NaN while filling).
    const oldPos = this.posWin.push(p);
    const oldNeg = this.negWin.push(m);
    if (i > this.period) {
      s[1] -= oldPos;
      s[2] -= oldNeg;
    }
    s[1] += p;
    s[2] += m;
    if (p !== 0) s[3] = i;
    if (m !== 0) s[4] = i;
    if (i < this.period) return Number.NaN;
    if (i - s[3] >= this.period) s[1] = 0;
    if (i - s[4] >= this.period) s[2] = 0;
    return ratio(s[1], s[2]);
  }
}
