import { InputError } from '../errors.js';
import { ao } from '../indicators/ao.js';
import { atr } from '../indicators/atr.js';
import { cci } from '../indicators/cci.js';
import { dmiInto, dmiParams } from '../indicators/dmi.js';
import { emaInto } from '../indicators/ema.js';
import { hma } from '../indicators/hma.js';
import { checkColumns, nanArray } from '../indicators/internal/validate.js';
import { macd } from '../indicators/macd.js';
import { mom } from '../indicators/mom.js';
import { rsi } from '../indicators/rsi.js';
import { sma } from '../indicators/sma.js';
import { stdDev, windowStdDevInto } from '../indicators/stddev.js';
import { stoch } from '../indicators/stoch.js';
import { stochRsi } from '../indicators/stoch-rsi.js';
import { ultOsc } from '../indicators/ultosc.js';
import { vwma } from '../indicators/vwma.js';
import { willr } from '../indicators/willr.js';
import type { Candles } from '../types.js';

/** Two aligned columns, as the crossing oscillators return them. */
export interface KD {
  k: Float64Array;
  d: Float64Array;
}

/** MACD line, signal line and histogram. */
export interface MacdColumns {
  macd: Float64Array;
  signal: Float64Array;
  histogram: Float64Array;
}

/** +DI, -DI and ADX. */
export interface DmiColumns {
  plusDI: Float64Array;
  minusDI: Float64Array;
  adx: Float64Array;
}

const FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/**
 * The indicator context of one candle series: every column the analysis engine reads
 * (signal, technical rating, Fear & Greed, regime, screeners), each computed at most once,
 * on first use, and cached. `analyze()` and the screeners share one context per series so
 * that RSI(14) is computed once, not once per consumer.
 *
 * Every column is causal (value `i` reads candles `0..i` only), so reading a column at an
 * index `i` is exactly what a context over the prefix `0..i` reads there: no look-ahead.
 * The cache is the only state; the columns are never mutated after creation, so a context
 * behaves as a pure function of its candles. Build one with {@link computeContext}.
 */
export class IndicatorContext {
  /** The candles, validated once. */
  readonly candles: Candles;
  /** Number of candles. */
  readonly length: number;
  private readonly cache = new Map<string, unknown>();

  /** @internal use {@link computeContext}, which validates the candles. */
  constructor(candles: Candles, length: number) {
    this.candles = candles;
    this.length = length;
  }

  /**
   * Returns the cached value under `key`, computing it with `make` on first use. Also used by
   * the analysis modules to cache derived results (the regime walk, for instance).
   * @internal
   */
  memo<T>(key: string, make: () => T): T {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit as T;
    const v = make();
    this.cache.set(key, v);
    return v;
  }

  /** Simple moving average of the close (TA-Lib `SMA`). */
  sma(period: number): Float64Array {
    return this.memo(`sma:${period}`, () => sma(this.candles.close, { period }));
  }

  /** Exponential moving average of the close (TA-Lib `EMA`, SMA seed; the `ema` kernel). */
  ema(period: number): Float64Array {
    return this.memo(`ema:${period}`, () => {
      const out = nanArray(this.length);
      emaInto(this.candles.close, 0, this.length, period, 2 / (period + 1), out);
      return out;
    });
  }

  /** Hull moving average of the close. */
  hma(period: number): Float64Array {
    return this.memo(`hma:${period}`, () => hma(this.candles.close, { period }));
  }

  /** Volume-weighted moving average of the close. */
  vwma(period: number): Float64Array {
    return this.memo(`vwma:${period}`, () => vwma(this.candles, { period }));
  }

  /** RSI of the close, Wilder smoothing. */
  rsi(period = 14): Float64Array {
    return this.memo(`rsi:${period}`, () => rsi(this.candles.close, { period }));
  }

  /** Average true range, Wilder smoothing. */
  atr(period = 14): Float64Array {
    return this.memo(`atr:${period}`, () => atr(this.candles, { period }));
  }

  /** Population standard deviation of the close over `period` bars. */
  stdDev(period = 20): Float64Array {
    return this.memo(`stddev:${period}`, () => stdDev(this.candles.close, { period }));
  }

  /** MACD 12/26/9 of the close. */
  macd(): MacdColumns {
    return this.memo('macd', () => macd(this.candles.close));
  }

  /** Slow stochastic 14/3/3 (SMA smoothing), as TradingView's Technical Ratings reads it. */
  stoch(): KD {
    return this.memo('stoch', () => stoch(this.candles, { kPeriod: 14, kSmooth: 3, dPeriod: 3 }));
  }

  /** Stochastic RSI 14/14/3/3 in TradingView's form (%K smoothed by SMA 3, %D = SMA 3 of %K). */
  stochRsi(): KD {
    return this.memo('stochrsi', () =>
      stochRsi(this.candles.close, { rsiPeriod: 14, stochPeriod: 14, kSmooth: 3, dPeriod: 3 }),
    );
  }

  /**
   * CCI(20) over the close alone (TradingView's `cci(close, 20)`), computed by the CCI kernel
   * with the close as high, low and close.
   */
  cciClose(period = 20): Float64Array {
    return this.memo(`cciclose:${period}`, () => {
      const c = this.candles.close;
      return cci({ high: c, low: c, close: c }, { period });
    });
  }

  /** +DI, -DI and ADX over `period` bars (Wilder smoothing, TradingView's `ta.dmi` seeding). */
  dmi(period = 14): DmiColumns {
    return this.memo(`dmi:${period}`, () => {
      // One pass of the `dmi` / `adx` kernel for the three columns.
      const n = this.length;
      const out = { plusDI: nanArray(n), minusDI: nanArray(n), adx: nanArray(n) };
      dmiInto(
        this.candles,
        n,
        dmiParams({ period, convention: 'tradingview' }),
        out.plusDI,
        out.minusDI,
        null,
        out.adx,
      );
      return out;
    });
  }

  /** Awesome Oscillator: SMA 5 minus SMA 34 of the median price. */
  ao(): Float64Array {
    return this.memo('ao', () => ao(this.candles));
  }

  /** Momentum: `close - close[period]`. */
  mom(period = 10): Float64Array {
    return this.memo(`mom:${period}`, () => mom(this.candles.close, { period }));
  }

  /** Williams %R. */
  willr(period = 14): Float64Array {
    return this.memo(`willr:${period}`, () => willr(this.candles, { period }));
  }

  /** Ultimate Oscillator 7/14/28. */
  ultOsc(): Float64Array {
    return this.memo('ultosc', () => ultOsc(this.candles));
  }

  /**
   * Highest high of the `period` bars ending at bar `i` (inclusive), NaN when fewer exist: the
   * Donchian upper band at `i`, read by a scan (a maximum is exact, so it equals the column).
   */
  highest(period: number, i: number): number {
    if (i - period + 1 < 0) return Number.NaN;
    const h = this.candles.high;
    let m = h[i];
    for (let j = i - period + 1; j < i; j++) if (h[j] > m) m = h[j];
    return m;
  }

  /** Lowest low of the `period` bars ending at bar `i` (inclusive), NaN when fewer exist. */
  lowest(period: number, i: number): number {
    if (i - period + 1 < 0) return Number.NaN;
    const l = this.candles.low;
    let m = l[i];
    for (let j = i - period + 1; j < i; j++) if (l[j] < m) m = l[j];
    return m;
  }

  /**
   * Mean and population standard deviation of the volume over the `period` bars ending at bar
   * `i` (two passes over the window), NaN when fewer exist.
   */
  volumeWindow(period: number, i: number): { mean: number; sd: number } {
    if (i - period + 1 < 0) return { mean: Number.NaN, sd: Number.NaN };
    const v = this.candles.volume;
    let s = 0;
    for (let j = i - period + 1; j <= i; j++) s += v[j];
    const mean = s / period;
    let m2 = 0;
    for (let j = i - period + 1; j <= i; j++) {
      const d = v[j] - mean;
      m2 += d * d;
    }
    return { mean, sd: Math.sqrt(m2 / period) };
  }

  /**
   * Close-to-close log returns `ln(close[i] / close[i-1])`; 0 at bar 0 and where a close is
   * not positive.
   */
  logReturns(): Float64Array {
    return this.memo('logret', () => {
      const c = this.candles.close;
      const out = new Float64Array(this.length);
      for (let i = 1; i < this.length; i++) {
        const a = c[i - 1];
        const b = c[i];
        if (a > 0 && b > 0) out[i] = Math.log(b / a);
      }
      return out;
    });
  }

  /**
   * Realised volatility: the population standard deviation of the last `period` log returns
   * (bars `i-period+1..i`, so `period + 1` closes), by the `stdDev` kernel; NaN before bar `period`.
   */
  volatility(period: number): Float64Array {
    return this.memo(`vol:${period}`, () => {
      const n = this.length;
      const out = nanArray(n);
      if (n > 1) windowStdDevInto(this.logReturns().subarray(1), n - 1, period, out.subarray(1));
      return out;
    });
  }
}

/**
 * Builds the {@link IndicatorContext} of a candle series: validates the six columns once and
 * returns a context whose indicator columns are computed lazily, each at most once.
 * @throws InputError when a column is missing, empty, non-finite or of a different length.
 */
export function computeContext(candles: Candles): IndicatorContext {
  if (candles instanceof IndicatorContext) {
    throw new InputError('invalid_option', 'computeContext takes candles, not a context');
  }
  const n = checkColumns(candles, FIELDS);
  return new IndicatorContext(candles, n);
}

/** A context, or candles to build one from. */
export type ContextInput = Candles | IndicatorContext;

/** Returns `input` when it is a context, else a new context over the candles. @internal */
export function contextOf(input: ContextInput): IndicatorContext {
  return input instanceof IndicatorContext ? input : computeContext(input);
}

/**
 * Resolves the as-of index of an analysis: `asOf` when given (validated), else the last bar.
 * @internal
 */
export function asOfIndex(ctx: IndicatorContext, asOf: number | undefined): number {
  if (asOf === undefined) return ctx.length - 1;
  if (!Number.isInteger(asOf) || asOf < 0 || asOf >= ctx.length) {
    throw new InputError(
      'invalid_option',
      `asOf must be an integer in 0..${ctx.length - 1}, got ${String(asOf)}`,
      'asOf',
    );
  }
  return asOf;
}

/** True when `x` is a finite number (not NaN, not an infinity). @internal */
export function ok(x: number): boolean {
  return x - x === 0;
}

/** `x` clamped into `[lo, hi]`. @internal */
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), hi);
}

/** `x` when finite (with -0 read as 0), else `null`: the wire form of a number. @internal */
export function orNull(x: number): number | null {
  return x - x === 0 ? x + 0 : null;
}
