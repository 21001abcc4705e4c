import type { Candle } from '../types.js';

/** 25 quiet bars around 100 (high 101, low 99, volume 100), then one bar closing at `close`. */
export function quietThenBar(close: number, volume: number): Candle[] {
  const rows: Candle[] = Array.from({ length: 25 }, (_, i) => ({
    time: i * 60_000,
    open: 100,
    high: 101,
    low: 99,
    close: 100,
    volume: 100,
  }));
  rows.push({
    time: 25 * 60_000,
    open: 100,
    high: Math.max(100, close) + 1,
    low: Math.min(100, close) - 1,
    close,
    volume,
  });
  return rows;
}
