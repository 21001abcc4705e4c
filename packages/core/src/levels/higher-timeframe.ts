import type { Candles } from '../types.js';
import type { Swing } from './swings.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-05, a Monday: weeks start on Monday 00:00 UTC. */
const MONDAY = 4 * DAY;

/** Timeframe names by candle spacing (the wire's names). */
const NAMES: readonly [number, string][] = [
  [MINUTE, 'm1'],
  [5 * MINUTE, 'm5'],
  [15 * MINUTE, 'm15'],
  [30 * MINUTE, 'm30'],
  [HOUR, 'h1'],
  [4 * HOUR, 'h4'],
  [DAY, 'd1'],
  [WEEK, 'w1'],
];

/**
 * The timeframe of candles `0..end`, from the median spacing of the last (at most) 20 candles:
 * the name whose length is within 10% of it (a daily stock series, whose weekends make some
 * spacings three days, has a median of one day), else null. @internal
 */
export function timeframeOf(time: ArrayLike<number>, end: number): string | null {
  const k = Math.min(20, end);
  if (k < 1) return null;
  const gaps: number[] = [];
  for (let j = end - k + 1; j <= end; j++) gaps.push(time[j] - time[j - 1]);
  gaps.sort((a, b) => a - b);
  const median = gaps[gaps.length >> 1];
  for (const [ms, name] of NAMES) if (Math.abs(median - ms) <= 0.1 * ms) return name;
  return null;
}

/** The next higher timeframe whose levels take part: weekly for daily, daily for intraday. @internal */
export function higherTimeframeOf(base: string | null): string | null {
  if (base === null || base === 'w1') return null;
  return base === 'd1' ? 'w1' : 'd1';
}

/**
 * Swing highs and lows of the higher timeframe (`'w1'`: weeks from Monday 00:00 UTC; `'d1'`:
 * UTC days) built from candles `0..end`, pushed onto `out`. Only closed buckets are read: the
 * bucket holding candle `end` may still grow, so it and anything after it is left out. A bucket's
 * swing is a Williams fractal of `span` buckets each side (strictly above the left ones, at or
 * above the right ones; lows mirrored); it is reported at the base candle that made the extreme
 * (its first such candle), and confirmed at the first candle after the `span` buckets on its
 * right closed. Linear in `end`. @internal
 */
export function higherSwingsInto(candles: Candles, end: number, higher: string, span: number, out: Swing[]): void {
  const { time, high, low } = candles;
  const size = higher === 'w1' ? WEEK : DAY;
  const offset = higher === 'w1' ? MONDAY : 0;
  const key = (t: number): number => Math.floor((t - offset) / size);
  const current = key(time[end]);
  const hi: number[] = [];
  const lo: number[] = [];
  const hiAt: number[] = [];
  const loAt: number[] = [];
  const first: number[] = [];
  let last = Number.NaN;
  for (let i = 0; i <= end; i++) {
    const b = key(time[i]);
    if (b >= current) {
      first.push(i); // where the bucket after the last closed one starts
      break;
    }
    if (b !== last) {
      last = b;
      first.push(i);
      hi.push(high[i]);
      lo.push(low[i]);
      hiAt.push(i);
      loAt.push(i);
      continue;
    }
    const k = hi.length - 1;
    if (high[i] > hi[k]) {
      hi[k] = high[i];
      hiAt[k] = i;
    }
    if (low[i] < lo[k]) {
      lo[k] = low[i];
      loAt[k] = i;
    }
  }
  const n = hi.length;
  for (let b = span; b + span < n; b++) {
    let isHigh = true;
    let isLow = true;
    for (let k = 1; k <= span && (isHigh || isLow); k++) {
      if (!(hi[b] > hi[b - k])) isHigh = false;
      if (!(lo[b] < lo[b - k])) isLow = false;
      if (!(hi[b] >= hi[b + k])) isHigh = false;
      if (!(lo[b] <= lo[b + k])) isLow = false;
    }
    const confirmed = first[b + span + 1];
    if (isHigh)
      out.push({ kind: 'high', index: hiAt[b], time: time[hiAt[b]], price: hi[b], confirmed_index: confirmed });
    if (isLow) out.push({ kind: 'low', index: loAt[b], time: time[loAt[b]], price: lo[b], confirmed_index: confirmed });
  }
}
