import type { CandleLike, HLC } from '../types.js';
import { AtrState, atrInto, atrLookback, atrParams } from './atr.js';
import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkNumber, checkReplace, outputColumn } from './internal/validate.js';
import type { HLCValues } from './true-range.js';

/** Options of {@link keltner}. */
export interface KeltnerOptions {
  /** EMA period of the middle line. Default 20. */
  period?: number;
  /** Band distance in ATRs, in 0..1e6. Default 2. */
  multiplier?: number;
  /** ATR period of the band distance. Default 10. */
  atrPeriod?: number;
}

/** Output of {@link keltner}. */
export type KeltnerOutput = {
  /** middle + multiplier * ATR. */
  upper: Float64Array;
  /** EMA of the close. */
  middle: Float64Array;
  /** middle - multiplier * ATR. */
  lower: Float64Array;
};

/** One row of {@link keltner}, as streamed by {@link Keltner}. */
export type KeltnerValues = {
  upper: number;
  middle: number;
  lower: number;
};

const FIELDS = ['high', 'low', 'close'] as const;

function paramsOf(options?: KeltnerOptions): { period: number; multiplier: number; atrPeriod: number } {
  const period = checkInt('period', options?.period ?? 20, 1);
  const multiplier = checkNumber('multiplier', options?.multiplier ?? 2, 0, 1_000_000);
  const atrPeriod = checkInt('atrPeriod', options?.atrPeriod ?? 10, 1);
  return { period, multiplier, atrPeriod };
}

function lookbackOf(options?: KeltnerOptions): number {
  const { period, atrPeriod } = paramsOf(options);
  return Math.max(period - 1, atrPeriod);
}

const NAN_ROW: KeltnerValues = { upper: Number.NaN, middle: Number.NaN, lower: Number.NaN };

/**
 * Keltner channel, in its modern ATR form (Linda Raschke's; technicalindicators
 * `KeltnerChannels` with `useSMA: false`).
 *
 * Formula: `middle = EMA(close, period)` (TA-Lib `EMA`, seeded by the SMA of the first `period`
 * closes), `upper = middle + multiplier * ATR(atrPeriod)`, `lower = middle - multiplier * ATR`,
 * with the TA-Lib Wilder ATR (see `atr`). All three columns start together.
 * Defaults: period 20, multiplier 2, atrPeriod 10. Lookback: `max(period - 1, atrPeriod)`.
 */
export const keltner = /* @__PURE__ */ withLookback(function keltner(
  candles: HLC,
  options?: KeltnerOptions,
): KeltnerOutput {
  const { period, multiplier, atrPeriod } = paramsOf(options);
  const n = checkColumns(candles, FIELDS);
  const lb = Math.max(period - 1, atrPeriod);
  const out = { upper: outputColumn(n, lb), middle: outputColumn(n, lb), lower: outputColumn(n, lb) };
  const { upper, middle, lower } = out;
  if (n <= lb) return out;
  emaInto(candles.close, 0, n, period, 2 / (period + 1), middle);
  // upper holds the ATR until it is overwritten below.
  const ap = atrParams({ period: atrPeriod });
  atrInto(candles, n, ap, upper);
  for (let i = atrLookback(ap); i < lb; i++) upper[i] = Number.NaN;
  for (let i = period - 1; i < lb; i++) middle[i] = Number.NaN;
  for (let i = lb; i < n; i++) {
    const mid = middle[i];
    const dev = multiplier * upper[i];
    upper[i] = mid + dev;
    lower[i] = mid - dev;
  }
  return out;
}, lookbackOf);

/** Streaming {@link keltner}. */
export class Keltner extends StreamBase<CandleLike, KeltnerValues> {
  readonly period: number;
  readonly multiplier: number;
  readonly atrPeriod: number;
  readonly lookback: number;
  private readonly ema: EMA;
  private readonly atr: AtrState;

  constructor(options?: KeltnerOptions) {
    const { period, multiplier, atrPeriod } = paramsOf(options);
    const lookback = Math.max(period - 1, atrPeriod);
    super(lookback, { ...NAN_ROW });
    this.period = period;
    this.multiplier = multiplier;
    this.atrPeriod = atrPeriod;
    this.lookback = lookback;
    this.ema = new EMA({ period });
    this.atr = new AtrState(atrParams({ period: atrPeriod }));
  }

  /** The newest channel (NaN before the lookback), a fresh object on each read. */
  override get value(): KeltnerValues {
    return { ...super.value };
  }

  protected override save(): void {
    this.atr.save();
  }

  protected override restore(): void {
    this.atr.restore();
  }

  update(candle: CandleLike): KeltnerValues {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle, false);
    this.out = out;
    return { ...out };
  }

  replace(candle: CandleLike): KeltnerValues {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle, true);
    this.out = out;
    return { ...out };
  }

  protected step(candle: CandleLike, replacing: boolean): KeltnerValues {
    const c = candle as HLCValues;
    const mid = this.ema.next(c.close, replacing);
    this.atr.n = this.n;
    const atr = this.atr.step(c);
    if (this.n <= this.lookback) return { ...NAN_ROW };
    const dev = this.multiplier * atr;
    return { upper: mid + dev, middle: mid, lower: mid - dev };
  }
}
