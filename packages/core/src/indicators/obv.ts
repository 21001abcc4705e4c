import type { CandleLike, CV } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace, columnsLength } from './internal/validate.js';

const FIELDS = ['close', 'volume'] as const;

/**
 * On-Balance Volume (Granville): a running total that adds the bar's volume when the close
 * rises, subtracts it when the close falls, and leaves it unchanged on an equal close.
 *
 * Formula (TA-Lib `OBV`): `obv[0] = volume[0]`, then `obv[i] = obv[i-1] + volume[i]` if
 * `close[i] > close[i-1]`, `obv[i-1] - volume[i]` if `close[i] < close[i-1]`, else `obv[i-1]`.
 * The level depends on where the series starts; only its changes carry meaning.
 * No options. Lookback: 0.
 */
export const obv = /* @__PURE__ */ withLookback(
  function obv(candles: CV): Float64Array {
    const n = columnsLength(candles, FIELDS);
    const out = new Float64Array(n);
    if (obvInto(candles.close, candles.volume, n, out) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  () => 0,
);

/** Streaming {@link obv}; takes candles with `close` and `volume`. */
/**
 * The kernel: the running volume into `out`. Returns the sum of `x * 0` over the values read (0
 * when all are finite).
 */
function obvInto(close: ArrayLike<number>, volume: ArrayLike<number>, n: number, out: Float64Array): number {
  let acc = volume[0];
  let prev = close[0];
  let bad = acc * 0 + prev * 0;
  out[0] = acc;
  for (let i = 1; i < n; i++) {
    const c = close[i];
    const v = volume[i];
    bad += c * 0 + v * 0;
    // The sign of the move without a branch (up or down is a coin toss on a random walk):
    // +v, -v or 0 added, the same sums as `if (c > prev) acc += v; else if (c < prev) acc -= v`.
    acc += v * (+(c > prev) - +(c < prev));
    prev = c;
    out[i] = acc;
  }
  return bad;
}

export class OBV extends StreamBase<CandleLike, number> {
  private acc = 0;
  private last = 0;
  private pAcc = 0;
  private pLast = 0;

  constructor() {
    super(0, Number.NaN);
  }

  protected override save(): void {
    this.pAcc = this.acc;
    this.pLast = this.last;
  }

  protected override restore(): void {
    this.acc = this.pAcc;
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
    const close = candle.close as number;
    const volume = candle.volume as number;
    if (this.n === 1) this.acc = volume;
    else if (close > this.last) this.acc += volume;
    else if (close < this.last) this.acc -= volume;
    this.last = close;
    return this.acc;
  }
}
