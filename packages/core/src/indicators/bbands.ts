import { InputError } from '../errors.js';
import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import {
  checkInt,
  checkNumber,
  checkReplace,
  checkSeries,
  outputColumn,
  outputInto,
  seriesLength,
} from './internal/validate.js';
import { Window } from './internal/window.js';
import { StdDev, windowStdDevInto } from './stddev.js';

/** Options of {@link bbands}. */
export interface BBandsOptions {
  /** Number of values in the window. Default 20. */
  period?: number;
  /** Band distance in standard deviations, in 0..1e6, the same above and below. Default 2. */
  stdDev?: number;
  /**
   * Columns to write the result into instead of new ones: five distinct `Float64Array`s of the
   * input's length, none sharing memory with the input or another column (else an
   * `invalid_option` error). They are returned. Five fresh columns of a million values cost more
   * to allocate and first touch than the bands themselves.
   */
  out?: BBandsOutput;
}

/** Output of {@link bbands}. */
export type BBandsOutput = {
  /** middle + stdDev * sigma. */
  upper: Float64Array;
  /** The simple moving average. */
  middle: Float64Array;
  /** middle - stdDev * sigma. */
  lower: Float64Array;
  /** (value - lower) / (upper - lower): 0 on the lower band, 1 on the upper; 0.5 on a flat band. */
  percentB: Float64Array;
  /** (upper - lower) / middle; 0 when the middle is exactly 0. */
  width: Float64Array;
};

/** One row of {@link bbands}, as streamed by {@link BBands}. */
export type BBandsValues = {
  upper: number;
  middle: number;
  lower: number;
  percentB: number;
  width: number;
};

function paramsOf(options?: BBandsOptions): { period: number; stdDev: number } {
  const period = checkInt('period', options?.period ?? 20, 1);
  const stdDev = checkNumber('stdDev', options?.stdDev ?? 2, 0, 1_000_000);
  return { period, stdDev };
}

function percentBOf(x: number, lower: number, upper: number): number {
  const range = upper - lower;
  return range === 0 ? 0.5 : (x - lower) / range;
}

function widthOf(lower: number, upper: number, middle: number): number {
  return middle === 0 ? 0 : (upper - lower) / middle;
}

/**
 * Bollinger Bands (Bollinger; TA-Lib `BBANDS` with an SMA and `nbDevUp = nbDevDn = stdDev`).
 *
 * Formula: `middle = SMA(period)` (TA-Lib's running sum, exactly), `sigma` the population
 * standard deviation of the same window, `upper = middle + stdDev * sigma`,
 * `lower = middle - stdDev * sigma`; `percentB = (x - lower) / (upper - lower)` (0.5 on a flat
 * band) and `width = (upper - lower) / middle` (0 when the middle is exactly 0).
 * Sigma is computed exactly (see `stdDev`), where TA-Lib uses `E[x^2] - E[x]^2`, which loses
 * about 1e-9 relative near price 100 and reads 0 whenever the variance is below 1e-8: on such
 * windows TA-Lib's bands collapse onto the middle and these do not.
 * Defaults: period 20, stdDev 2. Lookback: `period - 1`.
 */
export const bbands = /* @__PURE__ */ withLookback(
  function bbands(values: ArrayLike<number>, options?: BBandsOptions): BBandsOutput {
    const { period, stdDev } = paramsOf(options);
    const n = seriesLength(values);
    const lb = period - 1;
    const out = outputsOf(options?.out, n, lb, values);
    if (n < period) {
      checkSeries(values);
      return out;
    }
    // upper holds sigma until bandsInto overwrites it (with a value that is not finite, sigma is
    // NaN and bandsInto's check throws the validation's error).
    windowStdDevInto(values, n, period, out.upper);
    if (bandsInto(values, n, period, stdDev, out) !== 0) checkSeries(values);
    return out;
  },
  (options?: BBandsOptions) => paramsOf(options).period - 1,
);

/** Streaming {@link bbands}. */
/**
 * The bands from sigma (in `out.upper`) and TA-Lib's running sum for the middle, from index
 * `period - 1`. Returns the sum of `x * 0` over the values: 0 when all are finite.
 */
function bandsInto(values: ArrayLike<number>, n: number, period: number, stdDev: number, out: BBandsOutput): number {
  const { upper, middle, lower, percentB, width } = out;
  const lb = period - 1;
  let bad = 0;
  let sum = 0;
  for (let i = 0; i < lb; i++) {
    const x = values[i];
    bad += x * 0;
    sum += x;
  }
  for (let i = lb; i < n; i++) {
    const x = values[i];
    bad += x * 0;
    sum += x;
    const mid = sum / period;
    sum -= values[i - lb];
    const dev = upper[i] * stdDev;
    const up = mid + dev;
    const lo = mid - dev;
    upper[i] = up;
    middle[i] = mid;
    lower[i] = lo;
    percentB[i] = percentBOf(x, lo, up);
    width[i] = widthOf(lo, up, mid);
  }
  return bad;
}

const COLUMNS = ['upper', 'middle', 'lower', 'percentB', 'width'] as const;

/** The five output columns: the caller's (`options.out`, checked) or new ones. */
function outputsOf(out: BBandsOutput | undefined, n: number, lb: number, values: ArrayLike<number>): BBandsOutput {
  if (out === undefined) {
    return {
      upper: outputColumn(n, lb),
      middle: outputColumn(n, lb),
      lower: outputColumn(n, lb),
      percentB: outputColumn(n, lb),
      width: outputColumn(n, lb),
    };
  }
  if (out === null || typeof out !== 'object') {
    throw new InputError('invalid_option', `out must be an object of ${COLUMNS.join(', ')} columns`, 'out');
  }
  const buffers = new Set<ArrayBufferLike>();
  for (const k of COLUMNS) {
    const column = out[k];
    if (column === undefined) {
      throw new InputError(
        'invalid_option',
        `out.${k} must be a Float64Array of length ${n}, got undefined`,
        `out.${k}`,
      );
    }
    outputInto(column, n, lb, values, `out.${k}`);
    buffers.add(column.buffer);
  }
  if (buffers.size !== COLUMNS.length) {
    throw new InputError('invalid_option', 'the columns of out must not share memory with each other', 'out');
  }
  return out;
}

export class BBands extends StreamBase<number, BBandsValues> {
  readonly period: number;
  readonly stdDev: number;
  private readonly sigma: StdDev;
  private readonly window: Window;
  private sum = 0;
  private pSum = 0;

  constructor(options?: BBandsOptions) {
    const { period, stdDev } = paramsOf(options);
    super(period - 1, empty());
    this.period = period;
    this.stdDev = stdDev;
    this.sigma = new StdDev({ period, nbDev: 1 });
    this.window = new Window(period);
  }

  /** The newest bands (NaN before the lookback), a fresh object on each read. */
  override get value(): BBandsValues {
    return { ...super.value };
  }

  protected override save(): void {
    this.pSum = this.sum;
  }

  protected override restore(): void {
    this.sum = this.pSum;
    this.window.undo();
  }

  update(value: number): BBandsValues {
    checkInput(value);
    this.save();
    this.n++;
    const out = this.step(value, false);
    this.out = out;
    return { ...out };
  }

  replace(value: number): BBandsValues {
    checkInput(value);
    checkReplace(this.n);
    this.restore();
    const out = this.step(value, true);
    this.out = out;
    return { ...out };
  }

  protected step(x: number, replacing: boolean): BBandsValues {
    const sigma = replacing ? this.sigma.replace(x) : this.sigma.update(x);
    const p = this.period;
    this.window.push(x);
    this.sum += x;
    if (this.n < p) return empty();
    const mid = this.sum / p;
    this.sum -= this.window.at(0);
    const dev = sigma * this.stdDev;
    const up = mid + dev;
    const lo = mid - dev;
    return { upper: up, middle: mid, lower: lo, percentB: percentBOf(x, lo, up), width: widthOf(lo, up, mid) };
  }
}

function empty(): BBandsValues {
  return { upper: Number.NaN, middle: Number.NaN, lower: Number.NaN, percentB: Number.NaN, width: Number.NaN };
}
