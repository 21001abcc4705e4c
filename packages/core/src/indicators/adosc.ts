import type { CandleLike, HLCV } from '../types.js';
import { moneyFlowVolume } from './ad.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, nanArray } from './internal/validate.js';

const FIELDS = ['high', 'low', 'close', 'volume'] as const;

/** Options of {@link adOsc}. */
export interface AdOscOptions {
  /** Period of the fast EMA of the A/D line. Default 3. */
  fast?: number;
  /** Period of the slow EMA of the A/D line. Default 10. */
  slow?: number;
}

function paramsOf(options?: AdOscOptions): { fast: number; slow: number } {
  const fast = checkInt('fast', options?.fast ?? 3, 1);
  const slow = checkInt('slow', options?.slow ?? 10, 1);
  return { fast, slow };
}

function lookbackOf(options?: AdOscOptions): number {
  const { fast, slow } = paramsOf(options);
  return Math.max(fast, slow) - 1;
}

/**
 * Chaikin A/D Oscillator: the fast EMA of the Accumulation/Distribution line minus its slow EMA.
 *
 * Formula (Chaikin; TA-Lib `ADOSC`): `ad` as in {@link ad}; both EMAs are seeded with the first
 * A/D value (not with a simple average, as TA-Lib and MetaStock do) and advance as
 * `ema = k * ad + (1 - k) * ema` with `k = 2 / (period + 1)`; `adosc = fastEma - slowEma`.
 * Defaults: fast 3, slow 10 (periods from 1; either may be the larger one, as in TA-Lib).
 * Lookback: `max(fast, slow) - 1` (TA-Lib's, leaving the seeded EMAs time to settle).
 */
export const adOsc = /* @__PURE__ */ withLookback(function adOsc(candles: HLCV, options?: AdOscOptions): Float64Array {
  const { fast, slow } = paramsOf(options);
  const lookback = Math.max(fast, slow) - 1;
  const n = checkColumns(candles, FIELDS);
  const { high, low, close, volume } = candles;
  const out = nanArray(n);
  const fastK = 2 / (fast + 1);
  const fastK1 = 1 - fastK;
  const slowK = 2 / (slow + 1);
  const slowK1 = 1 - slowK;
  let acc = moneyFlowVolume(high[0], low[0], close[0], volume[0]);
  let fastEma = acc;
  let slowEma = acc;
  if (lookback === 0) out[0] = fastEma - slowEma;
  for (let i = 1; i < n; i++) {
    acc += moneyFlowVolume(high[i], low[i], close[i], volume[i]);
    fastEma = fastK * acc + fastK1 * fastEma;
    slowEma = slowK * acc + slowK1 * slowEma;
    if (i >= lookback) out[i] = fastEma - slowEma;
  }
  return out;
}, lookbackOf);

/** Streaming {@link adOsc}; takes candles with `high`, `low`, `close` and `volume`. */
export class ADOsc extends StreamBase<CandleLike, number> {
  readonly fast: number;
  readonly slow: number;
  private readonly lookback: number;
  private readonly fastK: number;
  private readonly fastK1: number;
  private readonly slowK: number;
  private readonly slowK1: number;
  private acc = 0;
  private fastEma = 0;
  private slowEma = 0;
  private pAcc = 0;
  private pFast = 0;
  private pSlow = 0;

  constructor(options?: AdOscOptions) {
    const { fast, slow } = paramsOf(options);
    super(Math.max(fast, slow) - 1, Number.NaN);
    this.fast = fast;
    this.slow = slow;
    this.lookback = Math.max(fast, slow) - 1;
    this.fastK = 2 / (fast + 1);
    this.fastK1 = 1 - this.fastK;
    this.slowK = 2 / (slow + 1);
    this.slowK1 = 1 - this.slowK;
  }

  protected override save(): void {
    this.pAcc = this.acc;
    this.pFast = this.fastEma;
    this.pSlow = this.slowEma;
  }

  protected override restore(): void {
    this.acc = this.pAcc;
    this.fastEma = this.pFast;
    this.slowEma = this.pSlow;
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
    const mfv = moneyFlowVolume(
      candle.high as number,
      candle.low as number,
      candle.close as number,
      candle.volume as number,
    );
    if (this.n === 1) {
      this.acc = mfv;
      this.fastEma = mfv;
      this.slowEma = mfv;
    } else {
      this.acc += mfv;
      this.fastEma = this.fastK * this.acc + this.fastK1 * this.fastEma;
      this.slowEma = this.slowK * this.acc + this.slowK1 * this.slowEma;
    }
    if (this.n <= this.lookback) return Number.NaN;
    return this.fastEma - this.slowEma;
  }
}
