import type { Candles } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CandleScan, createCandleCache } from './candle-cache.js';

const STEP = 10;
const START = 1000;

/** Whether series `key` has a candle in the bucket opened at `open`: `dense` always, `gappy` two buckets in three. */
function traded(key: string, open: number): boolean {
  return key === 'dense' || Math.floor(open / STEP) % 3 !== 1;
}

function candleAt(key: string, open: number): number[] {
  const k = key === 'dense' ? 1 : 2;
  return [open, open * k + 0.1, open * k + 0.7, open * k - 0.3, open * k + 0.2, open / 7];
}

function fromRows(rows: number[][]): Candles {
  const col = (j: number): Float64Array => Float64Array.from(rows, (r) => r[j]);
  return { time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
}

/** A scan over the synthetic series that counts the buckets it builds. */
function counted(key: string): { scan: CandleScan; built: () => number } {
  let built = 0;
  const scan: CandleScan = (from, to, limit) => {
    const rows: number[][] = [];
    let open = to - STEP;
    for (; open >= from && rows.length < limit; open -= STEP) {
      built++;
      if (traded(key, open)) rows.unshift(candleAt(key, open));
    }
    return { candles: fromRows(rows), scannedFrom: open + STEP };
  };
  return { scan, built: () => built };
}

/** The newest `limit` candles opened before `before`, built from nothing. */
function expected(key: string, before: number, limit: number): Candles {
  const rows: number[][] = [];
  for (let open = before - STEP; open >= START && rows.length < limit; open -= STEP) {
    if (traded(key, open)) rows.unshift(candleAt(key, open));
  }
  return fromRows(rows);
}

const read = fc.record({
  key: fc.constantFrom('dense', 'gappy', 'other'),
  before: fc.integer({ min: 90, max: 260 }).map((k) => k * STEP),
  limit: fc.integer({ min: 0, max: 60 }),
});

describe('candle cache', () => {
  it('serves what a scan from nothing gives, over any reads, within its bounds', () => {
    fc.assert(
      fc.property(
        fc.array(read, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 150 }),
        (reads, maxPerSeries, maxCandles) => {
          const cache = createCandleCache({ start: START, maxPerSeries, maxCandles });
          for (const r of reads) {
            const got = cache.read(r.key, r.before, r.limit, counted(r.key).scan);
            expect(got).toEqual(expected(r.key, r.before, r.limit));
            expect(cache.size()).toBeLessThanOrEqual(maxCandles);
          }
        },
      ),
    );
  });

  it('builds only the candles outside the last window: again, one deeper, one later', () => {
    const cache = createCandleCache({ start: START, maxPerSeries: 500, maxCandles: 1000 });
    const { scan, built } = counted('dense');
    cache.read('dense', 2000, 50, scan);
    expect(built()).toBe(50);
    cache.read('dense', 2000, 50, scan);
    expect(built()).toBe(50);
    cache.read('dense', 2000, 51, scan);
    expect(built()).toBe(51);
    expect(cache.read('dense', 2000 + STEP, 51, scan)).toEqual(expected('dense', 2000 + STEP, 51));
    expect(built()).toBe(52);
    // Inside the window: nothing to build.
    expect(cache.read('dense', 1900, 20, scan)).toEqual(expected('dense', 1900, 20));
    expect(built()).toBe(52);
  });

  it('rebuilds rather than extends a window far behind the read', () => {
    const cache = createCandleCache({ start: START, maxPerSeries: 500, maxCandles: 1000 });
    const { scan, built } = counted('dense');
    cache.read('dense', 2000, 10, scan);
    expect(cache.read('dense', 2000 + 100 * STEP, 10, scan)).toEqual(expected('dense', 2000 + 100 * STEP, 10));
    expect(built()).toBe(20);
  });

  it('stops at the start of the series', () => {
    const cache = createCandleCache({ start: START, maxPerSeries: 500, maxCandles: 1000 });
    const { scan, built } = counted('gappy');
    const all = cache.read('gappy', START + 30 * STEP, 100, scan);
    expect(all).toEqual(expected('gappy', START + 30 * STEP, 100));
    expect(all.time.length).toBe(20);
    cache.read('gappy', START + 30 * STEP, 100, scan);
    expect(built()).toBe(30);
  });

  it('hands out copies: a caller writing to what it got changes no later read', () => {
    const cache = createCandleCache({ start: START, maxPerSeries: 500, maxCandles: 1000 });
    const { scan } = counted('gappy');
    for (let i = 0; i < 3; i++) {
      const got = cache.read('gappy', 2000, 40, scan);
      expect(got).toEqual(expected('gappy', 2000, 40));
      for (const col of Object.values(got)) col.fill(Number.NaN);
    }
  });

  it('drops the series read least recently to stay within its budget', () => {
    const cache = createCandleCache({ start: START, maxPerSeries: 100, maxCandles: 150 });
    const dense = counted('dense');
    const other = counted('other');
    cache.read('dense', 2000, 100, dense.scan);
    expect(cache.size()).toBe(100);
    // 166 candles: `dense`, read least recently, is dropped.
    cache.read('other', 2000, 100, other.scan);
    expect(cache.size()).toBe(66);
    cache.read('gappy', 2000, 100, counted('gappy').scan);
    expect(cache.size()).toBe(132);
    cache.read('other', 2000, 100, other.scan);
    expect(other.built()).toBe(100);
    cache.read('dense', 2000, 100, dense.scan);
    expect(dense.built()).toBe(200);
    // 232 candles: `gappy`, then `other` are dropped.
    expect(cache.size()).toBe(100);
  });

  it('keeps at most the per-series bound however deep the reads', () => {
    const cache = createCandleCache({ start: START, maxPerSeries: 40, maxCandles: 1000 });
    const { scan } = counted('dense');
    expect(cache.read('dense', 2500, 120, scan)).toEqual(expected('dense', 2500, 120));
    expect(cache.size()).toBe(40);
    expect(cache.read('dense', 2500, 120, scan)).toEqual(expected('dense', 2500, 120));
    expect(cache.size()).toBe(40);
  });
});
