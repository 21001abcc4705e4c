import { InputError } from '../errors.js';
import type { CandleLike, CV } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link vwma}. */
export interface VwmaOptions {
  /** Number of candles in the window. Default 20. */
  period?: number;
}

const FIELDS = ['close', 'volume'] as const;

/** A resync happens once the rounding budget exceeds this multiple of a sum (about 2e-13 relative). */
const BUDGET = 1024;

function periodOf(options?: VwmaOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

function negativeVolume(v: number, index?: number): InputError {
  const where = index === undefined ? 'candle.volume' : `candles.volume[${index}]`;
  return new InputError('invalid_candle', `${where} is ${v}; volume must be >= 0`, 'volume', index);
}

/**
 * Volume-weighted moving average: the closes of the last `period` candles weighted by their
 * volumes.
 *
 * Formula (TradingView `ta.vwma`; Tulip / @ixjb94/indicators `vwma`):
 * `sum(close * volume) / sum(volume)` over the window. A window whose volumes are all zero
 * (an index, a halted market) reads the simple average of the closes, exactly `sma(close)`,
 * where the formula has no value. The two sums slide in O(1) and are recomputed from the window
 * whenever the rounding budget of the volume sum (the sum of its values since the last recompute)
 * exceeds 1024 times its value, so a quiet window after a volume spike keeps full precision and
 * an all-zero window has an exactly zero sum. Volumes must be `>= 0` (an
 * `InputError` otherwise).
 * Default period 20. Lookback: `period - 1`.
 */
export const vwma = /* @__PURE__ */ withLookback(
  function vwma(candles: CV, options?: VwmaOptions): Float64Array {
    const p = periodOf(options);
    const n = checkColumns(candles, FIELDS);
    const out = outputColumn(n, p - 1);
    vwmaInto(candles.close, candles.volume, n, p, out);
    return out;
  },
  (options?: VwmaOptions) => periodOf(options) - 1,
);

/** The batch kernel of {@link vwma}, writing from index `period - 1`. */
function vwmaInto(close: ArrayLike<number>, volume: ArrayLike<number>, n: number, p: number, out: Float64Array): void {
  let closeSum = 0;
  const warm = Math.min(p, n);
  for (let i = 0; i < warm; i++) {
    if (volume[i] < 0) throw negativeVolume(volume[i], i);
    closeSum += close[i];
  }
  let sv = 0;
  let spv = 0;
  let budget = 0;
  // Each pass of the outer loop recomputes the sums at index i; the inner loop slides until the
  // budget runs out (one straight loop per block keeps the hot path simple for the JIT).
  let i = p - 1;
  while (i < n) {
    sv = 0;
    spv = 0;
    for (let j = i - p + 1; j <= i; j++) {
      sv += volume[j];
      spv += close[j] * volume[j];
    }
    budget = sv;
    out[i] = sv === 0 ? closeSum / p : spv / sv;
    for (i++; i < n; i++) {
      const v = volume[i];
      if (v < 0) throw negativeVolume(v, i);
      const x = close[i];
      const vOld = volume[i - p];
      const xOld = close[i - p];
      closeSum += x - xOld;
      sv += v - vOld;
      spv += x * v - xOld * vOld;
      budget += sv;
      if (!(budget <= sv * BUDGET)) break;
      out[i] = sv === 0 ? closeSum / p : spv / sv;
    }
  }
}

/** Streaming {@link vwma}; takes candles with `close` and `volume`. */
export class VWMA extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly closes: Window;
  private readonly volumes: Window;
  private closeSum = 0;
  private sv = 0;
  private spv = 0;
  private budget = 0;
  private saved = new Float64Array(4);

  constructor(options?: VwmaOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.closes = new Window(this.period);
    this.volumes = new Window(this.period);
  }

  update(candle: CandleLike): number {
    checkVolume(candle);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): number {
    checkVolume(candle);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected override save(): void {
    const s = this.saved;
    s[0] = this.closeSum;
    s[1] = this.sv;
    s[2] = this.spv;
    s[3] = this.budget;
  }

  protected override restore(): void {
    this.closes.undo();
    this.volumes.undo();
    const s = this.saved;
    this.closeSum = s[0];
    this.sv = s[1];
    this.spv = s[2];
    this.budget = s[3];
  }

  protected step(candle: CandleLike): number {
    const x = candle.close as number;
    const v = candle.volume as number;
    const p = this.period;
    const xOld = this.closes.push(x);
    const vOld = this.volumes.push(v);
    if (this.n < p) {
      this.closeSum += x;
      return Number.NaN;
    }
    let resync = this.n === p;
    if (resync) {
      this.closeSum += x;
    } else {
      this.closeSum += x - xOld;
      const sv = this.sv + (v - vOld);
      this.sv = sv;
      this.spv += x * v - xOld * vOld;
      this.budget += sv;
      resync = !(this.budget <= sv * BUDGET);
    }
    if (resync) {
      let sv = 0;
      let spv = 0;
      for (let j = 0; j < p; j++) {
        const vj = this.volumes.at(j);
        sv += vj;
        spv += this.closes.at(j) * vj;
      }
      this.sv = sv;
      this.spv = spv;
      this.budget = sv;
    }
    return this.sv === 0 ? this.closeSum / p : this.spv / this.sv;
  }
}

/** Throws unless the candle's fields are finite numbers and its volume is not negative. */
function checkVolume(candle: CandleLike): void {
  checkCandle(candle, FIELDS);
  if ((candle.volume as number) < 0) throw negativeVolume(candle.volume as number);
}
