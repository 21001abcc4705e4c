import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import {
  checkCandle,
  checkColumns,
  checkInt,
  checkReplace,
  columnsLength,
  outputIntoColumns,
} from './internal/validate.js';
import { WARM_HEAD } from './internal/warm.js';

/** Options of {@link cci}. */
export interface CciOptions {
  /** Number of typical prices in the mean and the mean deviation. Default 20. */
  period?: number;
  /**
   * An array to write the result into instead of a new one: a `Float64Array` of the input's
   * length that does not share memory with any of its columns (else an `invalid_option` error).
   * It is returned.
   */
  out?: Float64Array;
}

function periodOf(options?: CciOptions): number {
  return checkInt('period', options?.period ?? 20, 2);
}

const FIELDS = ['high', 'low', 'close'] as const;

/**
 * CCI of the newest typical price `tp` over the ring buffer `buf` (slot `i % period` holds the
 * typical price of candle i), summed in slot order like TA-Lib. Batch and stream share it.
 */
function cciOf(buf: Float64Array, period: number, tp: number): number {
  let sum = 0;
  for (let j = 0; j < period; j++) sum += buf[j];
  const avg = sum / period;
  let dev = 0;
  for (let j = 0; j < period; j++) dev += Math.abs(buf[j] - avg);
  return cciValue(tp - avg, dev, period);
}

/**
 * Commodity Channel Index (Lambert).
 *
 * Formula (TA-Lib `CCI`): typical price `tp = (high + low + close) / 3`;
 * `cci = (tp - mean) / (0.015 * meanDeviation)` over the last `period` typical prices, where
 * `meanDeviation` is the mean of `|tp_i - mean|`. Zero when the deviation from the mean is zero,
 * as in TA-Lib; a flat window (every typical price equal) reads 0 too, where TA-Lib can print
 * +-66.7 when the rounded mean misses the price by an ulp. Default period 20. Lookback: `period - 1`.
 * With `options.out` it writes into the caller's array and allocates nothing, so a caller that
 * recomputes often can reuse one array instead of paying for a fresh 8 MB column (allocated and
 * first touched) per million candles.
 */
export const cci = /* @__PURE__ */ withLookback(
  function cci(candles: HLC, options?: CciOptions): Float64Array {
    const period = periodOf(options);
    const n = columnsLength(candles, FIELDS);
    const out = outputIntoColumns(options?.out, n, period - 1, candles, FIELDS);
    if (cciInto(candles.high, candles.low, candles.close, n, period, out) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  (options?: CciOptions) => periodOf(options) - 1,
);

/** Typical prices are computed this many candles at a time into a scratch buffer. */
const CHUNK = 4096;

/**
 * The kernel: the CCI of every candle from `period - 1`, each summed in ring-slot order exactly
 * as {@link cciOf} sums it (so batch and stream agree bit for bit, and both with TA-Lib's order).
 * Each candle's two sums are chains of dependent additions, so the kernel computes four
 * neighbouring candles at once: their windows hold the same values in the same slots except the
 * three newest, and interleaving four independent chains lets the processor overlap them. Typical
 * prices are made `CHUNK` at a time into a buffer that keeps the `period` before the chunk.
 * Returns the sum of `x * 0` over the values (0 when all are finite).
 */
function cciInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  n: number,
  period: number,
  out: Float64Array,
): number {
  const tp = new Float64Array(Math.min(n, CHUNK + period));
  let bad = 0;
  // tp[k] holds the typical price of candle off + k.
  let off = 0;
  let filled = 0;
  let c = period - 1;
  // The run of equal typical prices and the last one, passed to and from `cciChunk`: candles
  // before the first output only count towards the run.
  const state = new Float64Array([0, Number.NaN]);
  while (filled < n) {
    if (filled - off + 1 > tp.length) {
      // Keep the last period values, then refill.
      const keep = filled - period;
      tp.copyWithin(0, keep - off, filled - off);
      off = keep;
    }
    const end = Math.min(n, off + tp.length);
    bad += typicalInto(high, low, close, filled, end, off, tp);
    filled = end;
    if (c === period - 1) {
      let run = 0;
      let last = Number.NaN;
      for (let i = 0; i < c && i < filled; i++) {
        const t = tp[i];
        run = t === last ? run + 1 : 1;
        last = t;
      }
      state[0] = run;
      state[1] = last;
      // The first chunk starts with a short call, so that V8 has run the whole of `cciChunk`
      // with feedback before its loop gets hot (see WARM_HEAD).
      const head = Math.min(filled, c + WARM_HEAD);
      cciChunk(tp, off, c, head, period, out, state);
      c = head;
    }
    cciChunk(tp, off, c, filled, period, out, state);
    c = filled;
  }
  return bad;
}

/**
 * The typical prices of candles `[from, to)` into `tp` (which starts at candle `off`), in a
 * function of its own so that the loop V8 compiles is this one, not the chunking around it.
 * Two candles a step: V8 checks each column (its map, its data pointer, the bound) on every step,
 * which costs more than the arithmetic of one candle, so two a step take about a millisecond per
 * million candles off this pass (standalone copy of the kernel: 20.2 -> 19.1 ms).
 * Returns the sum of `x * 0` over the values.
 */
function typicalInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  to: number,
  off: number,
  tp: Float64Array,
): number {
  let bad = 0;
  let i = from;
  for (; i + 1 < to; i += 2) {
    const h0 = high[i];
    const h1 = high[i + 1];
    const l0 = low[i];
    const l1 = low[i + 1];
    const x0 = close[i];
    const x1 = close[i + 1];
    bad += h0 * 0 + l0 * 0 + x0 * 0 + h1 * 0 + l1 * 0 + x1 * 0;
    tp[i - off] = (h0 + l0 + x0) / 3;
    tp[i + 1 - off] = (h1 + l1 + x1) / 3;
  }
  if (i < to) {
    const h = high[i];
    const l = low[i];
    const x = close[i];
    bad += h * 0 + l * 0 + x * 0;
    tp[i - off] = (h + l + x) / 3;
  }
  return bad;
}

/**
 * The CCI of candles `[from, to)` (their windows in `tp`, which starts at candle `off`); `state`
 * holds the run of equal typical prices and the last one, read on entry and written back on exit.
 * The loops over the window take two slots a step, each added in its turn (slot order is kept):
 * per slot the work is four subtractions and four additions, and V8 adds to each step the checks
 * of `tp` (map, data pointer, bound), an overflow test per index and an interrupt check, so a
 * step of one slot spent about as long on those as on the arithmetic. Two a step took 8% to 9%
 * off the kernel (standalone copy, 21.9 -> 20.2 ms per million candles); three or four a step were
 * slower (23 to 25 ms), as were five or six candles at once instead of four.
 */
function cciChunk(
  tp: Float64Array,
  off: number,
  from: number,
  to: number,
  p: number,
  out: Float64Array,
  state: Float64Array,
): void {
  let run = state[0];
  let last = state[1];
  let c = from;
  // The ring slot of candle c, kept in step with c (a remainder per step would cost a division).
  let r = from % p;
  // Every candle of one turn of the ring sums the same newest slots 0..r first, from 0 in slot
  // order, so that partial sum is carried from candle to candle of the turn (the same additions in
  // the same order, not repeated): `head` is the sum of slots 0..r - 1.
  let head = 0;
  for (let j = 0; j < r; j++) head += tp[c - r - off + j];
  while (c < to) {
    // Slot j of the ring holds candle s + j for j <= r, and s + j - p after (buffer positions).
    const s = c - r - off;
    head += tp[s + r];
    if (r + 3 < p && c + 3 < to) {
      let a0 = head;
      let a1 = head;
      let a2 = head;
      let a3 = head;
      // The three slots the newer candles have overwritten: candle q reads the new value from slot r + q.
      let o = tp[s + r + 1 - p];
      let w = tp[s + r + 1];
      a0 += o;
      a1 += w;
      a2 += w;
      a3 += w;
      o = tp[s + r + 2 - p];
      w = tp[s + r + 2];
      a0 += o;
      a1 += o;
      a2 += w;
      a3 += w;
      o = tp[s + r + 3 - p];
      w = tp[s + r + 3];
      a0 += o;
      a1 += o;
      a2 += o;
      a3 += w;
      // a3 has summed the newest slots 0..r + 3: the head of the next candle's sum.
      head = a3;
      // The older slots r + 4 .. p - 1, two a step (see the note above the function), in order.
      let j = r + 4;
      for (; j + 1 < p; j += 2) {
        const v = tp[s + j - p];
        const u = tp[s + j + 1 - p];
        a0 += v;
        a1 += v;
        a2 += v;
        a3 += v;
        a0 += u;
        a1 += u;
        a2 += u;
        a3 += u;
      }
      if (j < p) {
        const v = tp[s + j - p];
        a0 += v;
        a1 += v;
        a2 += v;
        a3 += v;
      }
      const m0 = a0 / p;
      const m1 = a1 / p;
      const m2 = a2 / p;
      const m3 = a3 / p;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      // The newer slots 0 .. r. Written with its end as a bound (`k + 1 < newer`), like the loop
      // over the older slots below: with the equivalent `k + 1 <= r` or `k < r`, this function
      // ran 15% slower in a worker thread (23.4 against 20.1 ms per million candles, standalone
      // copies, in each of five runs), though at the same speed on the main thread (19.2 ms).
      const newer = r + 1;
      let k = 0;
      for (; k + 1 < newer; k += 2) {
        const v = tp[s + k];
        const u = tp[s + k + 1];
        d0 += Math.abs(v - m0);
        d1 += Math.abs(v - m1);
        d2 += Math.abs(v - m2);
        d3 += Math.abs(v - m3);
        d0 += Math.abs(u - m0);
        d1 += Math.abs(u - m1);
        d2 += Math.abs(u - m2);
        d3 += Math.abs(u - m3);
      }
      if (k < newer) {
        const v = tp[s + k];
        d0 += Math.abs(v - m0);
        d1 += Math.abs(v - m1);
        d2 += Math.abs(v - m2);
        d3 += Math.abs(v - m3);
      }
      o = tp[s + r + 1 - p];
      w = tp[s + r + 1];
      d0 += Math.abs(o - m0);
      d1 += Math.abs(w - m1);
      d2 += Math.abs(w - m2);
      d3 += Math.abs(w - m3);
      o = tp[s + r + 2 - p];
      w = tp[s + r + 2];
      d0 += Math.abs(o - m0);
      d1 += Math.abs(o - m1);
      d2 += Math.abs(w - m2);
      d3 += Math.abs(w - m3);
      o = tp[s + r + 3 - p];
      w = tp[s + r + 3];
      d0 += Math.abs(o - m0);
      d1 += Math.abs(o - m1);
      d2 += Math.abs(o - m2);
      d3 += Math.abs(w - m3);
      let q = r + 4;
      for (; q + 1 < p; q += 2) {
        const v = tp[s + q - p];
        const u = tp[s + q + 1 - p];
        d0 += Math.abs(v - m0);
        d1 += Math.abs(v - m1);
        d2 += Math.abs(v - m2);
        d3 += Math.abs(v - m3);
        d0 += Math.abs(u - m0);
        d1 += Math.abs(u - m1);
        d2 += Math.abs(u - m2);
        d3 += Math.abs(u - m3);
      }
      if (q < p) {
        const v = tp[s + q - p];
        d0 += Math.abs(v - m0);
        d1 += Math.abs(v - m1);
        d2 += Math.abs(v - m2);
        d3 += Math.abs(v - m3);
      }
      let x = tp[c - off];
      run = x === last ? run + 1 : 1;
      last = x;
      out[c] = run >= p ? 0 : cciValue(x - m0, d0, p);
      x = tp[c + 1 - off];
      run = x === last ? run + 1 : 1;
      last = x;
      out[c + 1] = run >= p ? 0 : cciValue(x - m1, d1, p);
      x = tp[c + 2 - off];
      run = x === last ? run + 1 : 1;
      last = x;
      out[c + 2] = run >= p ? 0 : cciValue(x - m2, d2, p);
      x = tp[c + 3 - off];
      run = x === last ? run + 1 : 1;
      last = x;
      out[c + 3] = run >= p ? 0 : cciValue(x - m3, d3, p);
      c += 4;
      r += 4;
    } else {
      const x = tp[c - off];
      run = x === last ? run + 1 : 1;
      last = x;
      if (run >= p) out[c] = 0;
      else {
        let sum = head;
        for (let j = r + 1; j < p; j++) sum += tp[s + j - p];
        const avg = sum / p;
        let dev = 0;
        for (let j = 0; j <= r; j++) dev += Math.abs(tp[s + j] - avg);
        for (let j = r + 1; j < p; j++) dev += Math.abs(tp[s + j - p] - avg);
        out[c] = cciValue(x - avg, dev, p);
      }
      c += 1;
      r += 1;
    }
    if (r >= p) {
      r -= p;
      head = 0;
    }
  }
  state[0] = run;
  state[1] = last;
}

/** `num / (0.015 * meanDeviation)`, 0 when either is 0 (TA-Lib's guard). */
function cciValue(num: number, dev: number, period: number): number {
  return num === 0 || dev === 0 ? 0 : num / (0.015 * (dev / period));
}

/** Streaming {@link cci}. */
export class CCI extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly buf: Float64Array;
  private run = 0;
  private last = Number.NaN;
  private pRun = 0;
  private pLast = Number.NaN;

  constructor(options?: CciOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.buf = new Float64Array(this.period);
  }

  protected override save(): void {
    this.pRun = this.run;
    this.pLast = this.last;
  }

  protected override restore(): void {
    this.run = this.pRun;
    this.last = this.pLast;
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
    // The last candle's slot: what it overwrote has left the window, so replace needs no undo.
    const tp = ((candle.high as number) + (candle.low as number) + (candle.close as number)) / 3;
    this.run = tp === this.last ? this.run + 1 : 1;
    this.last = tp;
    this.buf[(this.n - 1) % this.period] = tp;
    if (this.n < this.period) return Number.NaN;
    return this.run >= this.period ? 0 : cciOf(this.buf, this.period, tp);
  }
}
