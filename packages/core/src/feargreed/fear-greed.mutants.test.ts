// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// each component and the score recomputed from the formulas documented on fearGreed, by plain
// loops over the candle rows, so a changed constant, bound or branch in the module shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { rsi } from '../indicators/rsi.js';
import { candleSeries, toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import {
  FEAR_GREED_WEIGHTS,
  type FearGreed,
  type FearGreedComponentName,
  type FearGreedOptions,
  fearGreed,
  fearGreedZone,
} from './fear-greed.js';

const clamp = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Population standard deviation, two passes; exactly 0 for equal values. */
function popSd(xs: readonly number[]): number {
  if (xs.every((x) => x === xs[0])) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) * (x - m), 0) / xs.length);
}

interface RefComponent {
  value: number;
  inputs: Record<string, number | null>;
}

type RefPart = RefComponent | { reason: string };

/** Standard deviation of the 14 log returns ending at bar k (NaN before bar 14). */
function volatilityAt(close: readonly number[], k: number): number {
  if (k < 14) return Number.NaN;
  const r: number[] = [];
  for (let j = k - 13; j <= k; j++) {
    r.push(close[j - 1] > 0 && close[j] > 0 ? Math.log(close[j] / close[j - 1]) : 0);
  }
  return popSd(r);
}

/** Mean of the volatility over the `count` bars ending at i, NaN when one of them has none. */
function volatilityMean(close: readonly number[], i: number, count: number): number {
  if (i - count + 1 < 14) return Number.NaN;
  let s = 0;
  for (let k = i - count + 1; k <= i; k++) s += volatilityAt(close, k);
  return s / count;
}

/** The components of fearGreed at bar i, from the formulas of its documentation. */
function reference(rows: readonly Candle[], i: number, o: FearGreedOptions = {}): Map<FearGreedComponentName, RefPart> {
  const close = rows.map((r) => r.close);
  const volume = rows.map((r) => r.volume);
  const parts = new Map<FearGreedComponentName, RefPart>();

  const v = volatilityAt(close, i);
  const a30 = volatilityMean(close, i, 30);
  if (Number.isNaN(v) || Number.isNaN(a30)) parts.set('volatility', { reason: 'insufficient_data' });
  else {
    const a90 = volatilityMean(close, i, 90);
    const base = Number.isNaN(a90) ? a30 : (a30 + a90) / 2;
    const ratio = base > 0 ? v / base : 1;
    parts.set('volatility', {
      value: 50 - 50 * clamp(Math.log2(ratio), -1, 1),
      inputs: { volatility: v, average_30: a30, average_90: Number.isNaN(a90) ? null : a90, ratio },
    });
  }

  const r = rsi(close, { period: 14 })[i];
  parts.set('momentum', Number.isNaN(r) ? { reason: 'insufficient_data' } : { value: r, inputs: { rsi_14: r } });

  if (i < 29) parts.set('volume', { reason: 'insufficient_data' });
  else {
    const long = mean(volume.slice(i - 29, i + 1));
    const short = mean(volume.slice(i - 9, i + 1));
    if (!(long > 0)) parts.set('volume', { reason: 'no_volume' });
    else {
      let up = 0;
      let down = 0;
      for (let j = i - 9; j <= i; j++) {
        if (close[j] > close[j - 1]) up += volume[j];
        if (close[j] < close[j - 1]) down += volume[j];
      }
      const share = up + down > 0 ? (100 * up) / (up + down) : 50;
      const rv = short / long;
      parts.set('volume', {
        value: clamp(50 + (share - 50) * Math.min(rv, 2), 0, 100),
        inputs: { up_volume_share: share, relative_volume: rv },
      });
    }
  }

  if (i < 19) parts.set('overextension', { reason: 'insufficient_data' });
  else {
    const w = close.slice(i - 19, i + 1);
    const m = mean(w);
    const sd = popSd(w);
    const z = sd > 0 ? (close[i] - m) / sd : 0;
    parts.set('overextension', { value: clamp(50 + 25 * z, 0, 100), inputs: { sma_20: m, z_score: z } });
  }

  const f = o.funding ?? null;
  parts.set(
    'funding',
    f === null
      ? { reason: 'not_supplied' }
      : { value: clamp(50 + (50 * (f - 0.0001)) / 0.0005, 0, 100), inputs: { funding_rate: f } },
  );
  const b = o.breadth ?? null;
  parts.set('breadth', b === null ? { reason: 'not_supplied' } : { value: 100 * b, inputs: { breadth: b } });
  const d = o.dominanceChange ?? null;
  parts.set(
    'dominance',
    d === null ? { reason: 'not_supplied' } : { value: clamp(50 - 25 * d, 0, 100), inputs: { dominance_change: d } },
  );
  return parts;
}

function close(a: number | null, b: number | null, what: string): void {
  if (a === null || b === null) {
    expect(a, what).toBe(b);
    return;
  }
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(b)));
}

/** Checks `got` against the reference at bar i: components, weights, score and zone. */
function expectMatches(got: FearGreed, rows: readonly Candle[], i: number, o: FearGreedOptions = {}): void {
  const ref = reference(rows, i, o);
  const present = [...ref].filter((e): e is [FearGreedComponentName, RefComponent] => 'value' in e[1]);
  expect(got.components.map((c) => c.name)).toEqual(present.map(([name]) => name));
  expect(got.unavailable).toEqual([...ref].flatMap(([name, p]) => ('reason' in p ? [{ name, reason: p.reason }] : [])));
  if (present.length === 0) {
    expect(got).toEqual({
      score: null,
      zone: null,
      components: [],
      unavailable: got.unavailable,
      reason: 'insufficient_data',
    });
    return;
  }
  const wsum = present.reduce((s, [name]) => s + FEAR_GREED_WEIGHTS[name], 0);
  let acc = 0;
  for (const [k, [name, p]] of present.entries()) {
    const c = got.components[k];
    expect(c.base_weight).toBe(FEAR_GREED_WEIGHTS[name]);
    expect(c.weight).toBeCloseTo(FEAR_GREED_WEIGHTS[name] / wsum, 12);
    // the value is rounded to 0.1
    expect(Math.abs(c.value * 10 - Math.round(c.value * 10))).toBeLessThan(1e-9);
    expect(Math.abs(c.value - p.value), `${name}: ${c.value} vs ${p.value}`).toBeLessThanOrEqual(0.05 + 1e-4);
    expect(Object.keys(c.inputs).sort()).toEqual(Object.keys(p.inputs).sort());
    for (const key of Object.keys(p.inputs)) close(c.inputs[key], p.inputs[key], `${name}.${key}`);
    acc += (FEAR_GREED_WEIGHTS[name] / wsum) * p.value;
  }
  expect(got.score).not.toBeNull();
  expect(Math.abs((got.score ?? Number.NaN) - clamp(acc, 0, 100))).toBeLessThanOrEqual(0.5 + 1e-6);
  expect(got.zone).toBe(fearGreedZone(got.score ?? 0));
  expect(got.reason).toBeUndefined();
}

/** A wavy series of n daily candles with the given step per bar and volume. */
function wave(n: number, step: number, volume: (i: number) => number = (i) => 1000 + (i % 7) * 100): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p *= 1 + step + 0.01 * Math.sin(i * 1.3) + 0.004 * Math.cos(i * 0.37);
    out.push({
      time: i * 86_400_000,
      open: o,
      close: p,
      high: Math.max(o, p) * 1.002,
      low: Math.min(o, p) * 0.998,
      volume: volume(i),
    });
  }
  return out;
}

/**
 * A 20-bar window whose closes differ, but by less than 1e-6 of the price: its deviation, and the
 * z-score over it, are mostly rounding.
 */
function nearlyFlat(close: readonly number[]): boolean {
  for (let i = 19; i < close.length; i++) {
    const w = close.slice(i - 19, i + 1);
    const range = Math.max(...w) - Math.min(...w);
    if (range > 0 && range < 1e-6 * Math.max(...w)) return true;
  }
  return false;
}

function flat(n: number, volume = 500): Candle[] {
  return Array.from({ length: n }, (_, i) => ({ time: i * 60_000, open: 7, high: 7, low: 7, close: 7, volume }));
}

describe('fearGreed against its documented formulas', () => {
  it('matches the formulas on generated series and market inputs', () => {
    fc.assert(
      fc.property(
        candleSeries(1, 140),
        fc.option(fc.double({ min: -0.002, max: 0.002, noNaN: true }), { nil: undefined }),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        fc.option(fc.double({ min: -4, max: 4, noNaN: true }), { nil: undefined }),
        (rows, funding, breadth, dominanceChange) => {
          // a close window flat but for rounding has a deviation that only rounding decides
          fc.pre(!nearlyFlat(rows.map((r) => r.close)));
          const o = { funding, breadth, dominanceChange };
          expectMatches(fearGreed(toColumns(rows), o), rows, rows.length - 1, o);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('matches the formulas at each edge of the warm-ups (14, 19, 29, 43 and 103 bars)', () => {
    const rows = wave(130, 0.001);
    const c = toColumns(rows);
    for (const i of [13, 14, 18, 19, 28, 29, 42, 43, 102, 103, 129]) expectMatches(fearGreed(c, { asOf: i }), rows, i);
    // the 90-bar average joins the volatility base at bar 103, not before
    const vol = (i: number) => fearGreed(c, { asOf: i }).components.find((x) => x.name === 'volatility');
    expect(vol(102)?.inputs.average_90).toBeNull();
    expect(vol(103)?.inputs.average_90).toEqual(expect.any(Number));
    expect(vol(42)).toBeUndefined();
  });

  it('reads heavy buying as greed and heavy selling as fear, scaled by the relative volume', () => {
    // rising closes on rising volume: every up-close volume counts, relative volume above 1
    const up = wave(80, 0.02, (i) => (i < 60 ? 100 : 300));
    const down = wave(80, -0.02, (i) => (i < 60 ? 100 : 300));
    for (const rows of [up, down]) expectMatches(fearGreed(toColumns(rows)), rows, rows.length - 1);
    const volumeOf = (rows: Candle[]) =>
      fearGreed(toColumns(rows)).components.find((x) => x.name === 'volume')?.inputs.relative_volume;
    expect(volumeOf(up)).toBeCloseTo(300 / (100 * (1 / 3) + 300 * (2 / 3)), 12);
  });

  it('reads a flat market as neutral: no volatility change, no overextension, no buying or selling', () => {
    const rows = flat(120);
    const r = fearGreed(toColumns(rows));
    expectMatches(r, rows, 119);
    const by = new Map(r.components.map((x) => [x.name, x]));
    expect(by.get('volatility')?.inputs.ratio).toBe(1);
    expect(by.get('volatility')?.value).toBe(50);
    expect(by.get('overextension')?.inputs.z_score).toBe(0);
    expect(by.get('overextension')?.value).toBe(50);
    expect(by.get('volume')?.inputs.up_volume_share).toBe(50);
    expect(by.get('volume')?.value).toBe(50);
  });

  it('marks the volume component no_volume when the venue reports none', () => {
    const rows = wave(60, 0.001, () => 0);
    const r = fearGreed(toColumns(rows));
    expectMatches(r, rows, 59);
    expect(r.unavailable).toContainEqual({ name: 'volume', reason: 'no_volume' });
  });

  it('has no score before momentum warms up, and lists every component as unavailable', () => {
    const rows = wave(14, 0.001);
    expect(fearGreed(toColumns(rows))).toEqual({
      score: null,
      zone: null,
      components: [],
      unavailable: [
        { name: 'volatility', reason: 'insufficient_data' },
        { name: 'momentum', reason: 'insufficient_data' },
        { name: 'volume', reason: 'insufficient_data' },
        { name: 'overextension', reason: 'insufficient_data' },
        { name: 'funding', reason: 'not_supplied' },
        { name: 'breadth', reason: 'not_supplied' },
        { name: 'dominance', reason: 'not_supplied' },
      ],
      reason: 'insufficient_data',
    });
  });

  it('scores the market inputs alone by their formulas, clamped into 0..100', () => {
    const c = toColumns(wave(10, 0.001));
    const only = (o: FearGreedOptions) => fearGreed(c, o);
    // funding: 0.01% neutral, each further 0.05% one half of the scale
    expect(only({ funding: 0.00035 }).components).toEqual([
      { name: 'funding', value: 75, weight: 1, base_weight: 0.1, inputs: { funding_rate: 0.00035 } },
    ]);
    expect(only({ funding: -0.00015 }).score).toBe(25);
    expect(only({ funding: 0.01 }).score).toBe(100);
    expect(only({ funding: -0.01 }).score).toBe(0);
    // a -0 rate is written as 0
    expect(Object.is(only({ funding: -0 }).components[0].inputs.funding_rate, 0)).toBe(true);
    expect(only({ breadth: 0.3 }).score).toBe(30);
    // a sub-score rounds to 0.1 and is never -0
    expect(Object.is(only({ breadth: -0 }).components[0].value, 0)).toBe(true);
    expect(only({ dominanceChange: 1 }).score).toBe(25);
    expect(only({ dominanceChange: -1 }).score).toBe(75);
    expect(only({ dominanceChange: 3 }).score).toBe(0);
    expect(only({ dominanceChange: -3 }).score).toBe(100);
    expect(Object.is(only({ dominanceChange: -0 }).components[0].inputs.dominance_change, 0)).toBe(true);
    // together: weights 0.1, 0.05, 0.05 renormalised to 0.5, 0.25, 0.25
    const all = only({ funding: 0.00035, breadth: 0.3, dominanceChange: -1 });
    expect(all.components.map((x) => x.weight)).toEqual([0.5, 0.25, 0.25]);
    expect(all.score).toBe(Math.round(0.5 * 75 + 0.25 * 30 + 0.25 * 75));
    // null is absent, like undefined
    expect(only({ funding: null, breadth: null, dominanceChange: null }).score).toBeNull();
  });

  it('accepts the market inputs at the edges of their ranges and rejects them past the edges', () => {
    const c = toColumns(wave(10, 0));
    for (const o of [
      { funding: -1 },
      { funding: 1 },
      { breadth: 0 },
      { breadth: 1 },
      { dominanceChange: -100 },
      { dominanceChange: 100 },
    ]) {
      expect(fearGreed(c, o).score).not.toBeNull();
    }
    for (const [o, field] of [
      [{ funding: 1.01 }, 'funding'],
      [{ funding: -1.01 }, 'funding'],
      [{ breadth: -0.01 }, 'breadth'],
      [{ dominanceChange: -100.5 }, 'dominanceChange'],
    ] as const) {
      let caught: unknown;
      try {
        fearGreed(c, o);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).field).toBe(field);
    }
  });
});

describe('fearGreedZone at its edges', () => {
  it('rounds before choosing the zone and rejects scores outside 0..100 by name', () => {
    expect(fearGreedZone(24.5)).toBe('fear');
    expect(fearGreedZone(44.5)).toBe('neutral');
    expect(fearGreedZone(55.5)).toBe('greed');
    expect(fearGreedZone(75.5)).toBe('extreme_greed');
    expect(fearGreedZone(55.4)).toBe('neutral');
    for (const bad of [-0.1, 100.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      let caught: unknown;
      try {
        fearGreedZone(bad);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).code).toBe('invalid_option');
      expect((caught as InputError).field).toBe('score');
      expect((caught as InputError).message).toContain('0..100');
    }
  });
});
