import type { CandleLike, HLC } from '../types.js';
import { type AtrParams, AtrState, atrInto } from './atr.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkNumber, checkReplace, outputColumn } from './internal/validate.js';
import type { HLCValues } from './true-range.js';

/** Options of {@link superTrend}. */
export interface SuperTrendOptions {
  /** ATR period. Default 10. */
  period?: number;
  /** Band distance in ATRs, in 0..1e6. Default 3. */
  multiplier?: number;
}

/** Output of {@link superTrend}. */
export type SuperTrendOutput = {
  /** The SuperTrend line: the lower band in an uptrend, the upper band in a downtrend. */
  value: Float64Array;
  /** 1 in an uptrend, -1 in a downtrend. */
  direction: Float64Array;
};

/** One row of {@link superTrend}, as streamed by {@link SuperTrend}. */
export type SuperTrendValues = {
  value: number;
  direction: number;
};

const FIELDS = ['high', 'low', 'close'] as const;

function paramsOf(options?: SuperTrendOptions): { period: number; multiplier: number } {
  const period = checkInt('period', options?.period ?? 10, 1);
  const multiplier = checkNumber('multiplier', options?.multiplier ?? 3, 0, 1_000_000);
  return { period, multiplier };
}

function atrOf(period: number): AtrParams {
  return { period, smoothing: 'wilder', first: 0 };
}

/**
 * The band and trend state between bars, one bar per `step`, as in `pine_supertrend`; shared by
 * the batch function and the stream so that both use the same operations.
 */
class BandState {
  upper = 0;
  lower = 0;
  value = 0;
  down = true;
  close = Number.NaN;

  copyFrom(s: BandState): void {
    this.upper = s.upper;
    this.lower = s.lower;
    this.value = s.value;
    this.down = s.down;
    this.close = s.close;
  }

  /** A bar with a defined ATR; `first` on the first such bar. */
  step(high: number, low: number, close: number, atr: number, multiplier: number, first: boolean): void {
    const src = (high + low) / 2;
    let upper = src + multiplier * atr;
    let lower = src - multiplier * atr;
    // Pine's nz(band[1]): the bands before the first are 0.
    const prevUpper = first ? 0 : this.upper;
    const prevLower = first ? 0 : this.lower;
    // A comparison with the close before bar 0 (na in Pine) is false.
    const prevClose = this.close;
    if (!(lower > prevLower || prevClose < prevLower)) lower = prevLower;
    if (!(upper < prevUpper || prevClose > prevUpper)) upper = prevUpper;
    if (first) this.down = true;
    else if (this.value === prevUpper) this.down = !(close > upper);
    else this.down = close < lower;
    this.value = this.down ? upper : lower;
    this.upper = upper;
    this.lower = lower;
    this.close = close;
  }
}

/**
 * SuperTrend (Olivier Seban), in TradingView's `ta.supertrend(factor, atrPeriod)` convention,
 * following its published `pine_supertrend` step by step.
 *
 * Formula: with `src = (high + low) / 2` and `atr` TradingView's `ta.atr(period)` (Wilder's RMA
 * of the true range with the first bar's `high - low`; `atr` with `convention: 'tradingview'`),
 * the bands `src +- multiplier * atr` only tighten: the lower band keeps its previous value
 * unless it rises or the previous close fell below it, the upper band likewise downwards. The
 * trend starts down on the first bar; a down trend turns up when the close rises above the upper
 * band, an up trend turns down when the close falls below the lower band (Pine tests "down" as
 * `supertrend[1] == upperBand[1]`, replicated). The line is the lower band in an uptrend, the
 * upper band in a downtrend. As in Pine, the bands before the first bar are 0 (`nz`), so a first
 * lower band at or below 0 reads 0 (and with period 1, whose first bar has no previous close,
 * both bands of bar 0 read 0). `direction` is 1 up and -1 down, the opposite sign of
 * TradingView's. trading-signals' `SuperTrend` agrees except for that first-bar rule.
 * Defaults: period 10, multiplier 3. Lookback: `period - 1`.
 */
export const superTrend = /* @__PURE__ */ withLookback(
  function superTrend(candles: HLC, options?: SuperTrendOptions): SuperTrendOutput {
    const { period, multiplier } = paramsOf(options);
    const n = checkColumns(candles, FIELDS);
    const lb = period - 1;
    const out = { value: outputColumn(n, lb), direction: outputColumn(n, lb) };
    if (n <= lb) return out;
    const { value, direction } = out;
    // value holds the ATR until it is overwritten below.
    atrInto(candles, n, atrOf(period), value);
    const { high, low, close } = candles;
    const s = new BandState();
    if (lb > 0) s.close = close[lb - 1];
    for (let i = lb; i < n; i++) {
      s.step(high[i], low[i], close[i], value[i], multiplier, i === lb);
      value[i] = s.value;
      direction[i] = s.down ? -1 : 1;
    }
    return out;
  },
  (options?: SuperTrendOptions) => paramsOf(options).period - 1,
);

/** Streaming {@link superTrend}. */
export class SuperTrend extends StreamBase<CandleLike, SuperTrendValues> {
  readonly period: number;
  readonly multiplier: number;
  private readonly atr: AtrState;
  private readonly bands = new BandState();
  private readonly saved = new BandState();

  constructor(options?: SuperTrendOptions) {
    const { period, multiplier } = paramsOf(options);
    super(period - 1, { value: Number.NaN, direction: Number.NaN });
    this.period = period;
    this.multiplier = multiplier;
    this.atr = new AtrState(atrOf(period));
  }

  /** The newest line and direction (NaN before the lookback), a fresh object on each read. */
  override get value(): SuperTrendValues {
    return { ...super.value };
  }

  protected override save(): void {
    this.atr.save();
    this.saved.copyFrom(this.bands);
  }

  protected override restore(): void {
    this.atr.restore();
    this.bands.copyFrom(this.saved);
  }

  update(candle: CandleLike): SuperTrendValues {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return { ...out };
  }

  replace(candle: CandleLike): SuperTrendValues {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return { ...out };
  }

  protected step(candle: CandleLike): SuperTrendValues {
    const c = candle as HLCValues;
    this.atr.n = this.n;
    const atr = this.atr.step(c);
    const b = this.bands;
    if (this.n < this.period) {
      b.close = c.close;
      return { value: Number.NaN, direction: Number.NaN };
    }
    b.step(c.high, c.low, c.close, atr, this.multiplier, this.n === this.period);
    return { value: b.value, direction: b.down ? -1 : 1 };
  }
}
