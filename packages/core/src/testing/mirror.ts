import fc from 'fast-check';
import type { Candle, Candles } from '../types.js';

/**
 * Candles on an integer price grid (a random walk between about 1,000 and 9,000 with ranges of
 * 0..40 ticks), so that mirroring with an integer `K` is exact in floating point.
 */
export function gridCandleSeries(minLength = 0, maxLength = 300): fc.Arbitrary<Candle[]> {
  return fc
    .record({
      start: fc.integer({ min: 3_000, max: 7_000 }),
      drift: fc.integer({ min: -3, max: 3 }),
      bars: fc.array(
        fc.record({
          step: fc.integer({ min: -40, max: 40 }),
          up: fc.integer({ min: 0, max: 25 }),
          down: fc.integer({ min: 0, max: 25 }),
          volume: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })),
        }),
        { minLength, maxLength, size: 'max' },
      ),
    })
    .map(({ start, drift, bars }) => {
      const out: Candle[] = [];
      let p = start;
      for (let i = 0; i < bars.length; i++) {
        const b = bars[i];
        const open = p;
        const close = Math.min(9_000, Math.max(1_000, p + b.step + drift));
        out.push({
          time: 1_600_000_000_000 + i * 3_600_000,
          open,
          close,
          high: Math.max(open, close) + b.up,
          low: Math.min(open, close) - b.down,
          volume: b.volume,
        });
        p = close;
      }
      return out;
    });
}

/** The price series mirrored as `p -> k - p`: highs become lows, an uptrend a downtrend. */
export function mirrorCandles(c: Candles, k: number): Candles {
  const n = c.close.length;
  const m: Candles = {
    time: c.time.slice(),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: c.volume.slice(),
  };
  for (let i = 0; i < n; i++) {
    m.open[i] = k - c.open[i];
    m.high[i] = k - c.low[i];
    m.low[i] = k - c.high[i];
    m.close[i] = k - c.close[i];
  }
  return m;
}
