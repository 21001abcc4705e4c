import type { Candles } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitClosed } from './closed.js';
import { TIMEFRAME_MS, TIMEFRAMES } from './ports.js';

function candles(times: readonly number[]): Candles {
  const col = (f: (i: number) => number) => Float64Array.from(times, (_, i) => f(i));
  return {
    time: Float64Array.from(times),
    open: col((i) => 100 + i),
    high: col((i) => 101 + i),
    low: col((i) => 99 + i),
    close: col((i) => 100.5 + i),
    volume: col(() => 10),
  };
}

const H = 3_600_000;

describe('splitClosed', () => {
  it('leaves the candle still forming out and reports it as live', () => {
    const c = candles([0, H, 2 * H, 3 * H]);
    const { closed, live } = splitClosed(c, 'h1', 3 * H + 60_000);
    expect(Array.from(closed.time)).toEqual([0, H, 2 * H]);
    expect(live).toEqual({ time: 3 * H, price: 103.5 });
  });

  it('counts a candle closed the moment its period ends, and keeps the newest `keep`', () => {
    const c = candles([0, H, 2 * H, 3 * H]);
    const { closed, live } = splitClosed(c, 'h1', 4 * H, 2);
    expect(Array.from(closed.time)).toEqual([2 * H, 3 * H]);
    expect(Array.from(closed.close)).toEqual([102.5, 103.5]);
    expect(live).toBeNull();
  });

  it('splits any series into closed candles and at most the candles after them, as views', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIMEFRAMES),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 400 }),
        (tf, n, open, keep) => {
          const step = TIMEFRAME_MS[tf];
          const times = Array.from({ length: n }, (_, i) => i * step);
          // the candle at n - open is forming at `now` (any after it are not closed either)
          const now = (n - open) * step + Math.floor(step / 2);
          const c = candles(times);
          const { closed, live } = splitClosed(c, tf, now, keep);
          for (const t of closed.time) expect(t + step).toBeLessThanOrEqual(now);
          const closedCount = Math.max(0, n - open);
          expect(closed.time.length).toBe(Math.min(keep, closedCount));
          expect(live === null).toBe(closedCount === n);
          if (live !== null) expect(live.time).toBe(times[n - 1]);
          expect(closed.time.buffer).toBe(c.time.buffer);
        },
      ),
      { numRuns: 300 },
    );
  });
});
