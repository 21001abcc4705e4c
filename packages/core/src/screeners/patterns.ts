import { CANDLE_PATTERNS, type CandlePatternName } from '@marketlens/contract/words';
import { InputError } from '../errors.js';
import { checkColumns, checkInt } from '../indicators/internal/validate.js';

/** Open, high, low and close columns. */
export interface OHLC {
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
}

/** The candlestick patterns core detects. */
export type CandlePattern = CandlePatternName;

/**
 * Every {@link CandlePattern}, in a fixed order (the order {@link patternsAt} reports them); the
 * contract's words, written once in `@marketlens/contract/words`.
 */
export { CANDLE_PATTERNS };

/** Options of the pattern detectors. */
export interface PatternOptions {
  /**
   * Bars over which the prior move of a hammer or shooting star is measured: a hammer needs
   * `close[i-1] < close[i-1-trendBars]`, a shooting star `close[i-1] > close[i-1-trendBars]`.
   * Default 5.
   */
  trendBars?: number;
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
}

/** Body at most this fraction of the range: a doji. */
const DOJI_BODY = 0.1;
/** Body at most this fraction of the range: the small real body of a hammer or shooting star. */
const SMALL_BODY = 0.35;
/**
 * Candles the analysis needs before it reports patterns, counting the as-of candle: the hammer's
 * and shooting star's prior trend of 5 bars (the default `trendBars`) before the previous candle.
 */
export const PATTERNS_HISTORY = 7;

/** Shadow on the body's side at most this fraction of the range ("little or no" shadow). */
const SHORT_SHADOW = 0.1;

/**
 * Doji: open and close (nearly) equal. Definition: range `high - low > 0` and
 * `|close - open| <= 0.1 * range` (Nison, "Japanese Candlestick Charting Techniques", ch. 8:
 * "the open and close are the same or very close"; the 10% threshold is ours, documented).
 * Reads bar `i` only. @internal unchecked
 */
export function isDojiAt(c: OHLC, i: number): boolean {
  const range = c.high[i] - c.low[i];
  return range > 0 && Math.abs(c.close[i] - c.open[i]) <= DOJI_BODY * range;
}

/**
 * Hammer: after a decline, a small real body at the top of the range with a long lower
 * shadow (Nison, ch. 4). Definition with `body = |close - open|`, `range = high - low`:
 * `range > 0`, `body <= 0.35 * range`, lower shadow `min(open, close) - low >= 2 * body`,
 * upper shadow `high - max(open, close) <= 0.1 * range`, and a prior decline
 * `close[i-1] < close[i-1-trendBars]`. Reads bars `i-1-trendBars..i`. @internal unchecked
 */
export function isHammerAt(c: OHLC, i: number, trendBars: number): boolean {
  return isPinAt(c, i, trendBars, true);
}

/**
 * Shooting star: after a rise, a small real body at the bottom of the range with a long
 * upper shadow (Nison, ch. 4); the mirror image of {@link isHammerAt}: `range > 0`,
 * `body <= 0.35 * range`, upper shadow `>= 2 * body`, lower shadow `<= 0.1 * range`, and a
 * prior rise `close[i-1] > close[i-1-trendBars]`. Reads bars `i-1-trendBars..i`. @internal unchecked
 */
export function isShootingStarAt(c: OHLC, i: number, trendBars: number): boolean {
  return isPinAt(c, i, trendBars, false);
}

/**
 * The hammer (`afterDecline`) or its mirror, the shooting star: a small body, the shadow on the
 * side of the prior move at least twice the body, the other at most a tenth of the range, after
 * that move over `trendBars`.
 */
function isPinAt(c: OHLC, i: number, trendBars: number, afterDecline: boolean): boolean {
  if (i - 1 - trendBars < 0) return false;
  const o = c.open[i];
  const cl = c.close[i];
  const range = c.high[i] - c.low[i];
  if (!(range > 0)) return false;
  const body = Math.abs(cl - o);
  const lower = Math.min(o, cl) - c.low[i];
  const upper = c.high[i] - Math.max(o, cl);
  const prev = c.close[i - 1];
  const before = c.close[i - 1 - trendBars];
  return afterDecline
    ? body <= SMALL_BODY * range && lower >= 2 * body && upper <= SHORT_SHADOW * range && prev < before
    : body <= SMALL_BODY * range && upper >= 2 * body && lower <= SHORT_SHADOW * range && prev > before;
}

/**
 * Bullish engulfing: a falling bar (`close < open`) followed by a rising bar whose real body
 * covers it: `open[i] <= close[i-1]`, `close[i] >= open[i-1]`, and the new body strictly
 * larger (Nison, ch. 4). Reads bars `i-1..i`. @internal unchecked
 */
export function isBullishEngulfingAt(c: OHLC, i: number): boolean {
  if (i < 1) return false;
  const o1 = c.open[i - 1];
  const c1 = c.close[i - 1];
  const o = c.open[i];
  const cl = c.close[i];
  return c1 < o1 && cl > o && o <= c1 && cl >= o1 && cl - o > o1 - c1;
}

/**
 * Bearish engulfing: a rising bar followed by a falling bar whose real body covers it:
 * `open[i] >= close[i-1]`, `close[i] <= open[i-1]`, new body strictly larger (Nison, ch. 4).
 * Reads bars `i-1..i`. @internal unchecked
 */
export function isBearishEngulfingAt(c: OHLC, i: number): boolean {
  if (i < 1) return false;
  const o1 = c.open[i - 1];
  const c1 = c.close[i - 1];
  const o = c.open[i];
  const cl = c.close[i];
  return c1 > o1 && cl < o && o >= c1 && cl <= o1 && o - cl > c1 - o1;
}

/**
 * The patterns of bar `i`, without validation (the caller validated the columns once).
 * @internal
 */
export function patternsAtUnchecked(c: OHLC, i: number, trendBars = 5): CandlePattern[] {
  const out: CandlePattern[] = [];
  if (isBullishEngulfingAt(c, i)) out.push('bullish_engulfing');
  if (isBearishEngulfingAt(c, i)) out.push('bearish_engulfing');
  if (isHammerAt(c, i, trendBars)) out.push('hammer');
  if (isShootingStarAt(c, i, trendBars)) out.push('shooting_star');
  if (isDojiAt(c, i)) out.push('doji');
  return out;
}

/**
 * The candlestick patterns completed by bar `asOf` (default the last bar), in the order of
 * {@link CANDLE_PATTERNS}. A bar can show several (a small-bodied hammer is also a doji).
 *
 * Definitions (Nison, "Japanese Candlestick Charting Techniques", 2nd ed.), with
 * `body = |close - open|`, `range = high - low`:
 * - `doji`: `range > 0` and `body <= 0.1 * range`;
 * - `hammer`: `body <= 0.35 * range`, lower shadow `>= 2 * body`, upper shadow `<= 0.1 * range`,
 *   after a decline (`close[i-1] < close[i-1-trendBars]`);
 * - `shooting_star`: the mirror image (long upper shadow, after a rise);
 * - `bullish_engulfing`: a falling bar, then a rising bar with `open <= close[i-1]`,
 *   `close >= open[i-1]` and a strictly larger body; `bearish_engulfing` the mirror image.
 * Mirroring prices (`p -> K - p`, which swaps high and low) maps hammer to shooting star and
 * bullish to bearish engulfing. Only bars `0..asOf` are read.
 * @throws InputError on bad columns, an index outside the series, or a bad `trendBars`.
 */
export function patternsAt(candles: OHLC, options?: PatternOptions): CandlePattern[] {
  const n = checkColumns(candles, ['open', 'high', 'low', 'close']);
  const trendBars = checkInt('trendBars', options?.trendBars ?? 5, 1, 1000);
  const i = options?.asOf ?? n - 1;
  if (!Number.isInteger(i) || i < 0 || i >= n) {
    throw new InputError('invalid_option', `asOf must be an integer in 0..${n - 1}, got ${String(i)}`, 'asOf');
  }
  return patternsAtUnchecked(candles, i, trendBars);
}
