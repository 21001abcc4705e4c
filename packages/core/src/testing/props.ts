import fc from 'fast-check';
import { expect } from 'vitest';
import type { Stream } from '../indicators/stream.js';
import type { Candle, Candles } from '../types.js';
import { reach } from './reach.js';

/** Output of a batch indicator: one column or named columns. */
export type BatchOutput = Float64Array | { [key: string]: Float64Array };
/** Output of a streaming indicator: one value or named values. */
export type StreamOutput = number | { [key: string]: number };

/**
 * A positive price random walk, with flat stretches and occasional jumps. Lengths spread over
 * the whole of `minLength..maxLength` (fast-check's default size would cap them near
 * `2 * minLength + 10`, inside most warm-ups).
 */
export function priceSeries(minLength = 0, maxLength = 120): fc.Arbitrary<number[]> {
  return fc
    .record({
      start: fc.double({ min: 0.001, max: 50_000, noNaN: true }),
      steps: fc.array(
        fc.oneof(
          { weight: 6, arbitrary: fc.double({ min: -0.05, max: 0.05, noNaN: true }) },
          { weight: 2, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.double({ min: -0.3, max: 0.3, noNaN: true }) },
        ),
        { minLength, maxLength, size: 'max' },
      ),
    })
    .map(({ start, steps }) => {
      const out: number[] = [];
      let p = start;
      for (const s of steps) {
        p = Math.max(1e-6, p * (1 + s));
        out.push(p);
      }
      return out;
    });
}

/**
 * Valid candles: low <= min(open, close) <= max(open, close) <= high, volume >= 0; lengths spread
 * over the whole of `minLength..maxLength`, as in {@link priceSeries}.
 */
export function candleSeries(minLength = 0, maxLength = 120): fc.Arbitrary<Candle[]> {
  return fc
    .tuple(
      priceSeries(minLength + 1, maxLength + 1),
      fc.array(
        fc.record({
          up: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.04, noNaN: true })),
          down: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.04, noNaN: true })),
          volume: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e6, noNaN: true })),
        }),
        { minLength: maxLength + 1, maxLength: maxLength + 1 },
      ),
    )
    .map(([prices, extras]) => {
      const out: Candle[] = [];
      for (let i = 1; i < prices.length; i++) {
        const open = prices[i - 1];
        const close = prices[i];
        const e = extras[i];
        out.push({
          time: 1_600_000_000_000 + i * 60_000,
          open,
          close,
          high: Math.max(open, close) * (1 + e.up),
          low: Math.min(open, close) * (1 - e.down),
          volume: e.volume,
        });
      }
      return out;
    });
}

/**
 * Draws for a property whose subject warms up over `warmUp` inputs: one in twenty inside the
 * warm-up (lengths `minLength`..warmUp, `minLength` default 0), the others from two past it to
 * `maxLength` (default four warm-ups and 40 past it), so that nearly every draw holds outputs
 * after the warm-up as well as before it. (One in ten would put the share of a 60-draw property
 * below 80% now and then: the reach check needs the margin.)
 */
export function seriesPast<T>(
  series: (minLength: number, maxLength: number) => fc.Arbitrary<T[]>,
  warmUp: number,
  { minLength = 0, maxLength = 4 * warmUp + 40 }: { minLength?: number; maxLength?: number } = {},
): fc.Arbitrary<T[]> {
  return fc.oneof(
    { weight: 19, arbitrary: series(warmUp + 2, Math.max(warmUp + 2, maxLength)) },
    { weight: 1, arbitrary: series(Math.min(minLength, warmUp), warmUp) },
  );
}

/** Prices for an indicator with this lookback: {@link seriesPast} of {@link priceSeries}. */
export function pricesPast(lookback: number): fc.Arbitrary<number[]> {
  return seriesPast(priceSeries, lookback);
}

/** Candles for an indicator with this lookback: {@link seriesPast} of {@link candleSeries}. */
export function candlesPast(lookback: number): fc.Arbitrary<Candle[]> {
  return seriesPast(candleSeries, lookback);
}

/** Candle rows to columns. */
export function toColumns(rows: readonly Candle[]): Candles {
  const n = rows.length;
  const c: Candles = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  rows.forEach((r, i) => {
    c.time[i] = r.time;
    c.open[i] = r.open;
    c.high[i] = r.high;
    c.low[i] = r.low;
    c.close[i] = r.close;
    c.volume[i] = r.volume;
  });
  return c;
}

function columnsOf(out: BatchOutput): Record<string, Float64Array> {
  return out instanceof Float64Array ? { value: out } : out;
}

function valuesOf(out: StreamOutput): Record<string, number> {
  return typeof out === 'number' ? { value: out } : out;
}

function same(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)) || (a === 0 && b === 0);
}

function expectRowEqual(batch: BatchOutput, i: number, got: StreamOutput, what: string): void {
  const cols = columnsOf(batch);
  const vals = valuesOf(got);
  for (const [k, col] of Object.entries(cols)) {
    const want = col[i];
    const have = vals[k];
    if (!same(want, have)) {
      throw new Error(`${what}: output ${k} at index ${i}: stream ${have}, batch ${want}`);
    }
  }
}

/** What the shared property suite needs to know about one indicator. */
export interface IndicatorSpec<In> {
  /**
   * Generates inputs (values or candles), or makes the generator from the lookback (such as
   * {@link pricesPast}), so that most draws reach past it.
   */
  inputs: fc.Arbitrary<In[]> | ((lookback: number) => fc.Arbitrary<In[]>);
  /** The batch function over those inputs. */
  batch: (inputs: In[]) => BatchOutput;
  /** A fresh streaming instance. */
  stream: () => Stream<In, StreamOutput>;
  /** Published lookback. */
  lookback: number;
  /** A constant input and its expected output, for the fixed-point property. */
  constant?: { input: In; expected: Record<string, number> | number };
  /**
   * Outputs that are legitimately NaN after the lookback (for example a fractal column that is
   * NaN on bars that confirm none). Those columns skip the finite-after-lookback property.
   */
  sparse?: readonly string[];
  /** Number of fast-check runs; default 60. */
  numRuns?: number;
}

/**
 * The properties every indicator holds: batch equals streaming exactly; `replace` equals
 * recomputing; appending never changes earlier outputs; finite after the lookback (and NaN
 * before it); a constant series gives the expected fixed point. Each generated property must see
 * outputs past the lookback in most draws (see {@link reach}), so `inputs` should draw lengths
 * well past it ({@link pricesPast}, {@link candlesPast}).
 */
export function checkIndicatorProperties<In>(spec: IndicatorSpec<In>): void {
  const numRuns = spec.numRuns ?? 60;
  const inputs = typeof spec.inputs === 'function' ? spec.inputs(spec.lookback) : spec.inputs;
  const past = `outputs past the lookback (${spec.lookback})`;
  const streamed = reach(past);
  streamed.assert(
    fc.property(inputs, (xs) => {
      if (xs.length === 0) return;
      streamed.hitIf(xs.length > spec.lookback);
      const batch = spec.batch(xs);
      const s = spec.stream();
      for (let i = 0; i < xs.length; i++) {
        const got = s.update(xs[i]);
        expectRowEqual(batch, i, got, 'batch == stream');
        expectRowEqual(batch, i, s.value, 'batch == stream.value');
        expect(s.isStable).toBe(i >= spec.lookback);
        for (const [name, col] of Object.entries(columnsOf(batch))) {
          if (spec.sparse?.includes(name)) continue;
          if (i < spec.lookback) expect(col[i], `NaN before lookback at ${i}`).toBeNaN();
          else expect(Number.isFinite(col[i]), `finite after lookback at ${i}: ${col[i]}`).toBe(true);
        }
      }
    }),
    { numRuns },
  );
  // replace(x) equals recomputing with the last input set to x; repeated replaces too.
  const replaced = reach(`a replace ${past}`);
  replaced.assert(
    fc.property(inputs, inputs, (xs, alt) => {
      if (xs.length < 2) return;
      const last = xs.length - 1;
      replaced.hitIf(last >= spec.lookback);
      const s = spec.stream();
      for (let i = 0; i < last; i++) s.update(xs[i]);
      // replacements from the other draw (from this one when that is empty)
      const others = alt.length > 0 ? alt : xs;
      s.update(others[0]);
      for (const x of others.slice(1, 3)) {
        const got = s.replace(x);
        expectRowEqual(spec.batch([...xs.slice(0, last), x]), last, got, 'replace');
      }
      const got = s.replace(xs[last]);
      expectRowEqual(spec.batch(xs), last, got, 'replace back');
      // and the stream keeps going correctly after a replace
      const next = s.update(xs[0]);
      expectRowEqual(spec.batch([...xs, xs[0]]), xs.length, next, 'update after replace');
    }),
    { numRuns },
  );
  // Appending never changes earlier outputs (no look-ahead). The cut falls past the lookback
  // where the series allows it: a prefix inside the warm-up only compares NaN with NaN.
  const cutPast = reach(`a prefix with ${past}`);
  cutPast.assert(
    fc.property(inputs, fc.nat(), (xs, cut) => {
      if (xs.length < 2) return;
      const from = Math.min(spec.lookback + 1, xs.length - 1);
      const k = from + (cut % (xs.length - from));
      cutPast.hitIf(k > spec.lookback);
      const full = columnsOf(spec.batch(xs));
      const prefix = columnsOf(spec.batch(xs.slice(0, k)));
      for (const [name, col] of Object.entries(prefix)) {
        for (let i = 0; i < k; i++) {
          if (!same(col[i], full[name][i]))
            throw new Error(`look-ahead: ${name}[${i}] changed from ${col[i]} to ${full[name][i]}`);
        }
      }
    }),
    { numRuns },
  );
  if (spec.constant) {
    const c = spec.constant;
    const xs = Array.from({ length: spec.lookback + 40 }, () => c.input);
    const cols = columnsOf(spec.batch(xs));
    const expected = typeof c.expected === 'number' ? { value: c.expected } : c.expected;
    for (const [name, want] of Object.entries(expected)) {
      const col = cols[name];
      for (let i = spec.lookback; i < xs.length; i++) {
        expect(
          Math.abs(col[i] - want),
          `constant fixed point ${name}[${i}] = ${col[i]}, want ${want}`,
        ).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
      }
    }
  }
}

/**
 * Candles of a trending market, `minLength..maxLength` long (default 260..600, past every
 * lookback of the signal and the regime): a noisy walk whose drift changes every 20..80 bars, so
 * draws hold markups, markdowns and ranges. Spaced `spacingMs` apart (default an hour).
 */
export function trendingCandleSeries(minLength = 260, maxLength = 600, spacingMs = 3_600_000): fc.Arbitrary<Candle[]> {
  const bar = fc.record({
    step: fc.double({ min: -0.02, max: 0.02, noNaN: true }),
    up: fc.double({ min: 0, max: 0.01, noNaN: true }),
    down: fc.double({ min: 0, max: 0.01, noNaN: true }),
    volume: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e6, noNaN: true })),
  });
  const leg = fc.record({
    bars: fc.integer({ min: 20, max: 80 }),
    drift: fc.double({ min: -0.012, max: 0.012, noNaN: true }),
  });
  return fc
    .record({
      length: fc.integer({ min: minLength, max: maxLength }),
      start: fc.double({ min: 0.01, max: 50_000, noNaN: true }),
      segments: fc.array(leg, { minLength: Math.ceil(maxLength / 20), maxLength: Math.ceil(maxLength / 20) }),
      bars: fc.array(bar, { minLength: maxLength, maxLength }),
    })
    .map(({ length, start, segments, bars }) => {
      const out: Candle[] = [];
      let p = start;
      let l = 0;
      let left = segments[0].bars;
      for (let i = 0; i < length; i++) {
        if (left === 0) {
          l++;
          left = segments[l].bars;
        }
        left--;
        const b = bars[i];
        const open = p;
        p = Math.max(1e-6, p * (1 + segments[l].drift + b.step));
        out.push({
          time: 1_600_000_000_000 + i * spacingMs,
          open,
          close: p,
          high: Math.max(open, p) * (1 + b.up),
          low: Math.min(open, p) * (1 - b.down),
          volume: b.volume,
        });
      }
      return out;
    });
}
