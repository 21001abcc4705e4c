import type { Candles } from '../types.js';

/** A price gap between two candles that later candles have not filled. @internal */
export interface OpenGap {
  /** `'up'`: the candle's low above the previous high (a support below); `'down'`: mirrored. */
  direction: 'up' | 'down';
  /** The unfilled band: traded neither by the gap's two candles nor by any candle since. */
  low: number;
  high: number;
  /** Index of the candle that opened beyond the previous one. */
  index: number;
}

/**
 * The gaps of candles `start..end` that are still open at `end`, pushed onto `out` newest first.
 * A gap up at `i` is the band `(high[i-1], low[i])`; every later low inside it fills it from the
 * top, so what is left is `(high[i-1], min(low[i], lows after i))`. A gap down mirrors it. A gap
 * (or what is left of it) narrower than `minSize` is not kept. One backward pass keeps the running
 * extremes of the later candles, so the cost is linear. @internal
 */
export function openGapsInto(candles: Candles, start: number, end: number, minSize: number, out: OpenGap[]): void {
  const { high, low } = candles;
  let laterLow = Number.POSITIVE_INFINITY;
  let laterHigh = Number.NEGATIVE_INFINITY;
  for (let i = end; i > start; i--) {
    const hi = high[i];
    const lo = low[i];
    const prevHigh = high[i - 1];
    const prevLow = low[i - 1];
    if (lo > prevHigh) {
      const top = Math.min(lo, laterLow);
      if (top - prevHigh >= minSize && top > prevHigh)
        out.push({ direction: 'up', low: prevHigh, high: top, index: i });
    } else if (hi < prevLow) {
      const bottom = Math.max(hi, laterHigh);
      if (prevLow - bottom >= minSize && prevLow > bottom) {
        out.push({ direction: 'down', low: bottom, high: prevLow, index: i });
      }
    }
    if (lo < laterLow) laterLow = lo;
    if (hi > laterHigh) laterHigh = hi;
  }
}
