import type { CandleLike, HLCV } from '../types.js';
import { moneyFlowVolume } from './ad.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, nanArray } from './internal/validate.js';

const FIELDS = ['high', 'low', 'close', 'volume'] as const;

/** Options of {@link cmf}. */
export interface CmfOptions {
  /** Number of bars summed. Default 20. */
  period?: number;
}

function periodOf(options?: CmfOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Sliding sums of the money-flow volume and the volume over the last `period` bars, without
 * subtracting: bars are grouped in consecutive blocks of `period`; a window is a suffix of the
 * previous block plus a prefix of the current one. The suffix sums are computed once when a
 * block completes (O(1) amortized), the prefix sum runs. So a window's sums carry no rounding
 * residue from bars that have left it, and a window whose volumes are all 0 sums to exactly 0.
 * Used by the streaming CMF; the batch loop inlines the same operations in the same order.
 */
class BlockSums {
  readonly period: number;
  /** Money-flow volume and volume of the current block, by position in the block. */
  private readonly flows: Float64Array;
  private readonly volumes: Float64Array;
  /** Suffix sums of the previous complete block, by position (index 0 unused). */
  private readonly tailFlow: Float64Array;
  private readonly tailVol: Float64Array;
  /** Prefix sums of the current block. */
  headFlow = 0;
  headVol = 0;

  constructor(period: number) {
    this.period = period;
    this.flows = new Float64Array(period);
    this.volumes = new Float64Array(period);
    this.tailFlow = new Float64Array(period);
    this.tailVol = new Float64Array(period);
  }

  /**
   * Adds the bar at position `pos` (its index modulo `period`) and returns the CMF of the
   * window that ends there, or NaN when `full` is false (fewer than `period` bars so far).
   */
  push(pos: number, mfv: number, volume: number, full: boolean): number {
    const p = this.period;
    this.flows[pos] = mfv;
    this.volumes[pos] = volume;
    this.headFlow += mfv;
    this.headVol += volume;
    let out = Number.NaN;
    if (full) {
      let flow = this.headFlow;
      let vol = this.headVol;
      if (pos < p - 1) {
        flow = this.tailFlow[pos + 1] + flow;
        vol = this.tailVol[pos + 1] + vol;
      }
      out = vol === 0 ? 0 : flow / vol;
    }
    if (pos === p - 1) {
      let flow = 0;
      let vol = 0;
      for (let k = p - 1; k > 0; k--) {
        flow += this.flows[k];
        vol += this.volumes[k];
        this.tailFlow[k] = flow;
        this.tailVol[k] = vol;
      }
      this.headFlow = 0;
      this.headVol = 0;
    }
    return out;
  }
}

/**
 * Chaikin Money Flow: the money-flow volume of the last `period` bars over their volume.
 *
 * Formula (Chaikin; as in trading-signals `CMF`, @ixjb94/indicators `cmf`, StockCharts):
 * `cmf = sum(mfv, period) / sum(volume, period)` with the money-flow volume
 * `mfv = ((c - l) - (h - c)) / (h - l) * v` of {@link ad} (0 when `high == low`). A window
 * whose volume is all zero reads 0 (no money flowed; trading-signals does the same). The
 * window sums never subtract a leaving bar, so they carry no rounding residue from earlier
 * bars (a running sum can leave a residue that fakes a volume, or cancels a tiny real one).
 * TA-Lib has no CMF. Default period 20. Lookback: `period - 1`.
 */
export const cmf = /* @__PURE__ */ withLookback(
  function cmf(candles: HLCV, options?: CmfOptions): Float64Array {
    const period = periodOf(options);
    const n = checkColumns(candles, FIELDS);
    const { high, low, close, volume } = candles;
    const out = nanArray(n);
    if (n < period) return out;
    // BlockSums.push inlined (same operations in the same order), with the sums in registers.
    const flows = new Float64Array(period);
    const volumes = new Float64Array(period);
    const tailFlow = new Float64Array(period);
    const tailVol = new Float64Array(period);
    const last = period - 1;
    let headFlow = 0;
    let headVol = 0;
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const v = volume[i];
      const mfv = moneyFlowVolume(high[i], low[i], close[i], v);
      flows[pos] = mfv;
      volumes[pos] = v;
      headFlow += mfv;
      headVol += v;
      if (i >= last) {
        let flow = headFlow;
        let vol = headVol;
        if (pos < last) {
          flow = tailFlow[pos + 1] + flow;
          vol = tailVol[pos + 1] + vol;
        }
        out[i] = vol === 0 ? 0 : flow / vol;
      }
      if (pos === last) {
        let flow = 0;
        let vol = 0;
        for (let k = last; k > 0; k--) {
          flow += flows[k];
          vol += volumes[k];
          tailFlow[k] = flow;
          tailVol[k] = vol;
        }
        headFlow = 0;
        headVol = 0;
        pos = 0;
      } else {
        pos++;
      }
    }
    return out;
  },
  (options?: CmfOptions) => periodOf(options) - 1,
);

/** Streaming {@link cmf}; takes candles with `high`, `low`, `close` and `volume`. */
export class CMF extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly sums: BlockSums;
  private pHeadFlow = 0;
  private pHeadVol = 0;

  constructor(options?: CmfOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.sums = new BlockSums(this.period);
  }

  protected override save(): void {
    this.pHeadFlow = this.sums.headFlow;
    this.pHeadVol = this.sums.headVol;
  }

  protected override restore(): void {
    // Only the prefix sums need restoring: the replaced bar rewrites its own slot, and when it
    // completes a block its step recomputes the suffix sums, which its own window does not read.
    this.sums.headFlow = this.pHeadFlow;
    this.sums.headVol = this.pHeadVol;
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
    const v = candle.volume as number;
    const mfv = moneyFlowVolume(candle.high as number, candle.low as number, candle.close as number, v);
    return this.sums.push((this.n - 1) % this.period, mfv, v, this.n >= this.period);
  }
}
