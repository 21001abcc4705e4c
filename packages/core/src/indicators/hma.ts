import { withLookback } from './internal/define.js';
import { checkInt, checkReplace, checkSeries, checkValue, outputColumn } from './internal/validate.js';
import type { Stream } from './stream.js';
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
export const hma = withLookback(
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
export class HMA implements Stream<number, number> {
  readonly period: number;
  private readonly lookback: number;
  private readonly full: WMA;
  private readonly half: WMA;
  private readonly root: WMA;
  private n = 0;
  private out = Number.NaN;

  constructor(options?: HmaOptions) {
    const p = paramsOf(options);
    this.period = p.period;
    this.lookback = lookbackOf(p);
    this.full = new WMA({ period: p.period });
    this.half = new WMA({ period: p.half });
    this.root = new WMA({ period: p.root });
  }

  get value(): number {
    return this.out;
  }

  get isStable(): boolean {
    return this.n > this.lookback;
  }

  get count(): number {
    return this.n;
  }

  update(value: number): number {
    checkValue(value);
    this.n++;
    const f = this.full.update(value);
    const h = this.half.update(value);
    this.out = this.n < this.period ? Number.NaN : this.root.update(2 * h - f);
    return this.out;
  }

  replace(value: number): number {
    checkValue(value);
    checkReplace(this.n);
    const f = this.full.replace(value);
    const h = this.half.replace(value);
    this.out = this.n < this.period ? Number.NaN : this.root.replace(2 * h - f);
    return this.out;
  }
}
