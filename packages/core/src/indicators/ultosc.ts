import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/**
 * Options of {@link ultOsc}. The three periods are sorted first, as in TA-Lib: the shortest
 * window weighs 4, the middle one 2 and the longest 1, whatever order they are given in.
 */
export interface UltOscOptions {
  /** Short window. Default 7. */
  period1?: number;
  /** Middle window. Default 14. */
  period2?: number;
  /** Long window. Default 28. */
  period3?: number;
}

/** The three periods sorted ascending, as TA-Lib weighs them: 4 to the shortest, 1 to the longest. */
function periodsOf(options?: UltOscOptions): [number, number, number] {
  const p = [
    checkInt('period1', options?.period1 ?? 7, 1),
    checkInt('period2', options?.period2 ?? 14, 1),
    checkInt('period3', options?.period3 ?? 28, 1),
  ];
  p.sort((a, b) => a - b);
  return [p[0], p[1], p[2]];
}

const FIELDS = ['high', 'low', 'close'] as const;

/** Buying pressure over true range of one window; 0.5 for a window without any range. */
function term(a: number, b: number, flat: boolean): number {
  return flat ? 0.5 : a / b;
}

/**
 * Ultimate Oscillator (Larry Williams).
 *
 * Formula (TA-Lib `ULTOSC`): buying pressure `bp = close - min(low, prevClose)`, true range
 * `tr = max(high - low, |prevClose - high|, |prevClose - low|)`; over the three windows
 * (sorted, as TA-Lib does, so the shortest gets weight 4, the middle 2 and the longest 1),
 * `ult = 100 * (4 * sum(bp)/sum(tr) + 2 * ... + ...) / 7`, with running sums as in TA-Lib.
 * A window without any range (every true range 0) contributes a neutral 0.5 (so a flat market
 * reads 50), where TA-Lib drops the term whenever `|sum(tr)| < 1e-8`, which also drops genuine
 * terms on sub-cent prices; such a window's range sum is reset to an exact 0, clearing running-sum
 * residue. Defaults 7, 14, 28. Lookback: the longest period.
 */
export const ultOsc = /* @__PURE__ */ withLookback(
  function ultOsc(candles: HLC, options?: UltOscOptions): Float64Array {
    const [p1, p2, p3] = periodsOf(options);
    const n = checkColumns(candles, FIELDS);
    const out = outputColumn(n, p3);
    if (n <= p3) return out;
    const { high, low, close } = candles;
    // Ring buffers of the last p3 terms; the term of candle i lives in slot i % p3.
    const bpBuf = new Float64Array(p3);
    const trBuf = new Float64Array(p3);
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    // Index of the newest nonzero true range: older than a window means its range sum is exactly 0.
    let rangeAt = Number.NEGATIVE_INFINITY;
    // Each window primes from the candle its first output needs (TA-Lib's PRIME_TOTALS).
    const from1 = p3 - p1 + 1;
    const from2 = p3 - p2 + 1;
    let slot = 1 % p3;
    let t1 = (slot - p1 + 1 + p3) % p3;
    let t2 = (slot - p2 + 1 + p3) % p3;
    let t3 = (slot + 1) % p3;
    let prevClose = close[0];
    for (let i = 1; i < n; i++) {
      const h = high[i];
      const l = low[i];
      const bp = close[i] - Math.min(l, prevClose);
      let tr = h - l;
      const up = Math.abs(prevClose - h);
      if (up > tr) tr = up;
      const down = Math.abs(prevClose - l);
      if (down > tr) tr = down;
      prevClose = close[i];
      bpBuf[slot] = bp;
      trBuf[slot] = tr;
      if (tr !== 0) rangeAt = i;
      if (i >= from1) {
        a1 += bp;
        b1 += tr;
      }
      if (i >= from2) {
        a2 += bp;
        b2 += tr;
      }
      a3 += bp;
      b3 += tr;
      if (i >= p3) {
        const since = i - rangeAt;
        if (since >= p1) b1 = 0;
        if (since >= p2) b2 = 0;
        if (since >= p3) b3 = 0;
        const sum = 4 * term(a1, b1, since >= p1) + 2 * term(a2, b2, since >= p2) + term(a3, b3, since >= p3);
        out[i] = 100 * (sum / 7);
        // Drop the oldest term of each window (TA-Lib subtracts it after the output).
        a1 -= bpBuf[t1];
        b1 -= trBuf[t1];
        a2 -= bpBuf[t2];
        b2 -= trBuf[t2];
        a3 -= bpBuf[t3];
        b3 -= trBuf[t3];
      }
      slot = slot + 1 === p3 ? 0 : slot + 1;
      t1 = t1 + 1 === p3 ? 0 : t1 + 1;
      t2 = t2 + 1 === p3 ? 0 : t2 + 1;
      t3 = t3 + 1 === p3 ? 0 : t3 + 1;
    }
    return out;
  },
  (options?: UltOscOptions) => periodsOf(options)[2],
);

/** Streaming {@link ultOsc}. */
export class UltOsc extends StreamBase<CandleLike, number> {
  /** The periods sorted ascending: weights 4, 2, 1. */
  readonly periods: readonly [number, number, number];
  private readonly bpWin: Window;
  private readonly trWin: Window;
  // a1..a3, b1..b3, previous close, index of the newest nonzero true range; and their copy before the last update.
  private readonly s = new Float64Array([0, 0, 0, 0, 0, 0, 0, Number.NEGATIVE_INFINITY]);
  private readonly saved = new Float64Array(8);

  constructor(options?: UltOscOptions) {
    const periods = periodsOf(options);
    super(periods[2], Number.NaN);
    this.periods = periods;
    this.bpWin = new Window(this.periods[2]);
    this.trWin = new Window(this.periods[2]);
  }

  protected override save(): void {
    this.saved.set(this.s);
  }

  protected override restore(): void {
    if (this.n > 1) {
      this.bpWin.undo();
      this.trWin.undo();
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
    const close = candle.close as number;
    const i = this.n - 1;
    if (i === 0) {
      s[6] = close;
      return Number.NaN;
    }
    const h = candle.high as number;
    const l = candle.low as number;
    const prevClose = s[6];
    const bp = close - Math.min(l, prevClose);
    let tr = h - l;
    const up = Math.abs(prevClose - h);
    if (up > tr) tr = up;
    const down = Math.abs(prevClose - l);
    if (down > tr) tr = down;
    s[6] = close;
    this.bpWin.push(bp);
    this.trWin.push(tr);
    if (tr !== 0) s[7] = i;
    const [p1, p2, p3] = this.periods;
    if (i >= p3 - p1 + 1) {
      s[0] += bp;
      s[3] += tr;
    }
    if (i >= p3 - p2 + 1) {
      s[1] += bp;
      s[4] += tr;
    }
    s[2] += bp;
    s[5] += tr;
    if (i < p3) return Number.NaN;
    const since = i - s[7];
    if (since >= p1) s[3] = 0;
    if (since >= p2) s[4] = 0;
    if (since >= p3) s[5] = 0;
    const sum = 4 * term(s[0], s[3], since >= p1) + 2 * term(s[1], s[4], since >= p2) + term(s[2], s[5], since >= p3);
    // Drop the oldest term of each window; the full windows hold terms i - p3 + 1 .. i.
    this.drop(0, p3 - p1);
    this.drop(1, p3 - p2);
    this.drop(2, 0);
    return 100 * (sum / 7);
  }

  private drop(k: number, at: number): void {
    this.s[k] -= this.bpWin.at(at);
    this.s[k + 3] -= this.trWin.at(at);
  }
}
