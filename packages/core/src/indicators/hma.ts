import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';
import { WMA, wmaInto } from './wma.js';

/** Options of {@link hma}. */
export interface HmaOptions {
  /** Period of the full WMA; the half WMA uses `floor(period / 2)`, the final one `floor(sqrt(period))`. Default 20, at least 2. */
  period?: number;
}

interface HmaParams {
  period: number;
  half: number;
  root: number;
}

function paramsOf(options?: HmaOptions): HmaParams {
  const period = checkInt('period', options?.period ?? 20, 2);
  return { period, half: Math.floor(period / 2), root: Math.floor(Math.sqrt(period)) };
}

function lookbackOf(p: HmaParams): number {
  return p.period - 1 + p.root - 1;
}

/**
 * Hull moving average (Alan Hull, 2005).
 *
 * Formula: `WMA(2 * WMA(x, floor(n / 2)) - WMA(x, n), floor(sqrt(n)))`, with Hull's integer
 * periods rounded down, as Tulip Indicators, @ixjb94/indicators and trading-signals compute it;
 * every WMA is the TA-Lib `WMA` arithmetic (see `wma`). A platform that rounds `sqrt(n)` to the
 * nearest integer instead uses a final WMA one longer for n = 7-8, 13-15, 21-24, 31-35, ...
 * (identical for the common 9, 16, 20, 25, 49, 55).
 * Default period 20. Lookback: `n - 1 + floor(sqrt(n)) - 1`.
 */
export const hma = /* @__PURE__ */ withLookback(
  function hma(values: ArrayLike<number>, options?: HmaOptions): Float64Array {
    const p = paramsOf(options);
    const n = checkSeries(values);
    const lookback = lookbackOf(p);
    const out = outputColumn(n, lookback);
    if (n <= lookback) return out;
    const full = new Float64Array(n);
    const half = new Float64Array(n);
    wmaInto(values, 0, n, p.period, full);
    wmaInto(values, 0, n, p.half, half);
    // full becomes the de-lagged series from index period - 1 on.
    for (let i = p.period - 1; i < n; i++) full[i] = 2 * half[i] - full[i];
    wmaInto(full, p.period - 1, n, p.root, out);
    return out;
  },
  (options?: HmaOptions) => lookbackOf(paramsOf(options)),
);

/** Streaming {@link hma}. */
export class HMA extends StreamBase<number, number> {
  readonly period: number;
  private readonly full: WMA;
  private readonly half: WMA;
  private readonly root: WMA;

  constructor(options?: HmaOptions) {
    const p = paramsOf(options);
    super(lookbackOf(p), Number.NaN);
    this.period = p.period;
    this.full = new WMA({ period: p.period });
    this.half = new WMA({ period: p.half });
    this.root = new WMA({ period: p.root });
  }

  update(value: number): number {
    checkInput(value);
    this.save();
    this.n++;
    const out = this.step(value, false);
    this.out = out;
    return out;
  }

  replace(value: number): number {
    checkInput(value);
    checkReplace(this.n);
    this.restore();
    const out = this.step(value, true);
    this.out = out;
    return out;
  }

  protected step(value: number, replacing: boolean): number {
    const f = replacing ? this.full.replace(value) : this.full.update(value);
    const h = replacing ? this.half.replace(value) : this.half.update(value);
    if (this.n < this.period) return Number.NaN;
    return replacing ? this.root.replace(2 * h - f) : this.root.update(2 * h - f);
  }
}
