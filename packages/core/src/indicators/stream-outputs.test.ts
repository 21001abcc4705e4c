import { describe, expect, it } from 'vitest';
import type { Candle } from '../types.js';
import { Aroon } from './aroon.js';
import { BBands } from './bbands.js';
import { DMI } from './dmi.js';
import { Donchian } from './donchian.js';
import { Keltner } from './keltner.js';
import { MACD } from './macd.js';
import { Stoch } from './stoch.js';
import { StochRSI } from './stoch-rsi.js';
import type { Stream } from './stream.js';
import { SuperTrend } from './supertrend.js';

// A streaming indicator with a record output hands the caller its own object from `update`,
// `replace` and `value`: editing it must not change what the indicator reports afterwards.

function candles(n: number): Candle[] {
  const out: Candle[] = [];
  let price = 100;
  for (let i = 0; i < n; i++) {
    const open = price;
    price += Math.sin(i * 0.7) * 2 + Math.cos(i * 0.31);
    const high = Math.max(open, price) + 1 + (i % 3) * 0.25;
    const low = Math.min(open, price) - 1 - (i % 5) * 0.2;
    out.push({ time: 1_700_000_000_000 + i * 60_000, open, high, low, close: price, volume: 10 + (i % 7) });
  }
  return out;
}

type RecordStream<In> = Stream<In, Record<string, number>>;

function scribble(r: Record<string, number>): void {
  for (const k of Object.keys(r)) r[k] = 123_456;
}

function expectOwnCopies<In>(s: RecordStream<In>, inputs: readonly In[]): void {
  for (const [i, x] of inputs.entries()) {
    const before = s.count;
    const updated = s.update(x);
    const kept = { ...s.value };
    expect(updated).toEqual(kept);
    scribble(updated);
    expect(s.value).toEqual(kept);
    scribble(s.value);
    expect(s.value).toEqual(kept);
    expect(s.count).toBe(before + 1);
    if (i % 3 === 0) {
      const replaced = s.replace(x);
      expect(replaced).toEqual(kept);
      scribble(replaced);
      expect(s.value).toEqual(kept);
    }
  }
  // Some outputs past the lookback, so the check above saw defined values too.
  expect(Object.values(s.value).some(Number.isFinite)).toBe(true);
}

describe('streaming record outputs are the caller’s own objects', () => {
  const bars = candles(80);
  const closes = bars.map((c) => c.close);
  const onCandles: [string, () => RecordStream<Candle>][] = [
    ['Donchian', () => new Donchian({ period: 5 }) as unknown as RecordStream<Candle>],
    ['Keltner', () => new Keltner({ period: 5, atrPeriod: 5 }) as unknown as RecordStream<Candle>],
    ['SuperTrend', () => new SuperTrend({ period: 5 }) as unknown as RecordStream<Candle>],
    ['Aroon', () => new Aroon({ period: 5 }) as unknown as RecordStream<Candle>],
    ['DMI', () => new DMI({ period: 5 }) as unknown as RecordStream<Candle>],
    ['Stoch', () => new Stoch() as unknown as RecordStream<Candle>],
  ];
  const onValues: [string, () => RecordStream<number>][] = [
    ['BBands', () => new BBands({ period: 5 }) as unknown as RecordStream<number>],
    ['MACD', () => new MACD({ fast: 3, slow: 6, signal: 4 }) as unknown as RecordStream<number>],
    ['StochRSI', () => new StochRSI({ rsiPeriod: 5, stochPeriod: 5 }) as unknown as RecordStream<number>],
  ];
  for (const [name, make] of onCandles) {
    it(name, () => expectOwnCopies(make(), bars));
  }
  for (const [name, make] of onValues) {
    it(name, () => expectOwnCopies(make(), closes));
  }
});
