import type { CandleLike, HLCV } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace } from './internal/validate.js';

const FIELDS = ['high', 'low', 'close', 'volume'] as const;

/**
 * The bar's money-flow volume: the close location value `((c - l) - (h - c)) / (h - l)` times
 * the volume, in TA-Lib's operation order; 0 when `high - low` is not positive.
 * Shared by AD, ADOSC and CMF so that all of them use the exact same arithmetic.
 * @internal
 */
export function moneyFlowVolume(high: number, low: number, close: number, volume: number): number {
  const range = high - low;
  return range > 0 ? ((close - low - (high - close)) / range) * volume : 0;
}

/**
 * Chaikin Accumulation/Distribution line: the running total of each bar's money-flow volume.
 *
 * Formula (Chaikin; TA-Lib `AD`): `ad[i] = ad[i-1] + ((c - l) - (h - c)) / (h - l) * v`,
 * starting from 0 before the first bar. A bar with `high == low` adds 0 (TA-Lib's rule).
 * The level depends on where the series starts; only its changes carry meaning.
 * No options. Lookback: 0.
 */
export const ad = /* @__PURE__ */ withLookback(
  function ad(candles: HLCV): Float64Array {
    const n = checkColumns(candles, FIELDS);
    const { high, low, close, volume } = candles;
    const out = new Float64Array(n);
    let acc = 0;
    for (let i = 0; i < n; i++) {
      acc += moneyFlowVolume(high[i], low[i], close[i], volume[i]);
      out[i] = acc;
    }
    return out;
  },
  () => 0,
);

/** Streaming {@link ad}; takes candles with `high`, `low`, `close` and `volume`. */
export class AD extends StreamBase<CandleLike, number> {
  private acc = 0;
  private pAcc = 0;

  constructor() {
    super(0, Number.NaN);
  }

  protected override save(): void {
    this.pAcc = this.acc;
  }

  protected override restore(): void {
    this.acc = this.pAcc;
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
    this.acc += moneyFlowVolume(
      candle.high as number,
      candle.low as number,
      candle.close as number,
      candle.volume as number,
    );
    return this.acc;
  }
}
