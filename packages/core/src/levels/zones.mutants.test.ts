// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// supportResistance recomputed step by step from its documentation (swings, clusters, bands,
// strength, the strongest kept), over the public swing, zigzag, ATR and profile functions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { atr } from '../indicators/atr.js';
import { candleSeries, toColumns } from '../testing/props.js';
import type { Candle, Candles } from '../types.js';
import { findSwings, zigzag } from './swings.js';
import { volumeProfile } from './volume-profile.js';
import { zoneContext } from './zone-context.js';
import {
  supportResistance as anySupportResistance,
  type SupportResistance,
  type SupportResistanceOptions,
  type Zone,
} from './zones.js';

/**
 * These tests describe the strongest-zones mode (`bySide: false`, the levels before issue 38); the
 * by-side levels, the default since, are tested in zones-by-side.test.ts and levels-real.test.ts.
 */
const supportResistance = (c: Candles, o: SupportResistanceOptions = {}): SupportResistance =>
  anySupportResistance(c, { bySide: false, ...o });

interface Opts {
  window: number;
  fractalSpan: number;
  atrPeriod: number;
  zigzagAtr: number;
  clusterAtr: number;
  maxWidthAtr: number;
  minWidthAtr: number;
  halfLife: number;
  maxZones: number;
  profileBins: number;
  valueArea: number;
}

const DEFAULTS: Opts = {
  window: 500,
  fractalSpan: 2,
  atrPeriod: 14,
  zigzagAtr: 2,
  clusterAtr: 0.5,
  maxWidthAtr: 1,
  minWidthAtr: 0.2,
  halfLife: 100,
  maxZones: 12,
  profileBins: 24,
  valueArea: 0.7,
};

interface Point {
  price: number;
  index: number;
  weight: number;
}

/** Splits price-sorted points into runs at gaps wider than `tol`, then splits wide runs at their widest gaps. */
function cluster(points: Point[], tol: number, maxWidth: number): Point[][] {
  const runs: Point[][] = [];
  let run: Point[] = [];
  for (const p of points) {
    if (run.length > 0 && p.price - run[run.length - 1].price > tol) {
      runs.push(run);
      run = [];
    }
    run.push(p);
  }
  if (run.length > 0) runs.push(run);
  const split = (r: Point[]): Point[][] => {
    if (r[r.length - 1].price - r[0].price <= maxWidth) return [r];
    const gaps = r.slice(1).map((p, k) => p.price - r[k].price);
    const widest = Math.max(...gaps);
    const out: Point[][] = [];
    let from = 0;
    gaps.forEach((g, k) => {
      if (g === widest) {
        out.push(...split(r.slice(from, k + 1)));
        from = k + 1;
      }
    });
    out.push(...split(r.slice(from)));
    return out;
  };
  return runs.flatMap(split);
}

/** supportResistance as its documentation describes it, as of the last candle. */
function reference(rows: readonly Candle[], o: Opts) {
  const c = toColumns(rows);
  const end = rows.length - 1;
  const start = Math.max(0, end - o.window + 1);
  const len = end - start + 1;
  const atrCol = atr(c, { period: o.atrPeriod });
  const atrEnd = Number.isFinite(atrCol[end]) && atrCol[end] > 0 ? atrCol[end] : null;
  const windowRows = rows.slice(start);
  // during the ATR warm-up the scale is the mean high-low range of the window
  const unit = atrEnd ?? windowRows.reduce((s, r) => s + (r.high - r.low), 0) / len;
  const w = toColumns(windowRows);

  // 1. minor swings weigh 1, zigzag pivots 2 (a fractal at a pivot counts once, as major)
  const byKey = new Map<string, Point>();
  for (const s of findSwings(w, { left: o.fractalSpan, right: o.fractalSpan })) {
    byKey.set(`${s.kind}${s.index}`, { price: s.price, index: s.index + start, weight: 1 });
  }
  for (const s of zigzag(w, { atr: atrCol.subarray(start), atrMultiple: o.zigzagAtr })) {
    byKey.set(`${s.kind}${s.index}`, { price: s.price, index: s.index + start, weight: 2 });
  }
  const points = [...byKey.values()].sort((a, b) => a.price - b.price || a.index - b.index);

  // 2. clusters; 3. bands and strength
  const profile = volumeProfile(c, { bins: o.profileBins, valueArea: o.valueArea, window: o.window });
  const clusters = points.length === 0 ? [] : cluster(points, o.clusterAtr * unit, o.maxWidthAtr * unit);
  const range = profile.bins[profile.bins.length - 1].high - profile.bins[0].low;
  const weight = profile.basis === 'time' ? len : profile.total_volume;
  const density = range > 0 ? weight / range : 0;
  const minWidth = o.minWidthAtr * unit;
  const all: Zone[] = clusters.map((cl, k) => {
    let lo = cl[0].price;
    let hi = cl[cl.length - 1].price;
    const pad = (minWidth - (hi - lo)) / 2;
    if (pad > 0) {
      const prev = clusters[k - 1];
      const next = clusters[k + 1];
      lo = Math.max(lo - pad, prev ? (prev[prev.length - 1].price + cl[0].price) / 2 : Number.NEGATIVE_INFINITY);
      hi = Math.min(hi + pad, next ? (cl[cl.length - 1].price + next[0].price) / 2 : Number.POSITIVE_INFINITY);
    }
    let volume = 0;
    for (const bin of profile.bins) {
      const width = bin.high - bin.low;
      const overlap = Math.min(hi, bin.high) - Math.max(lo, bin.low);
      if (width > 0 && overlap > 0) volume += (bin.volume * overlap) / width;
      // A row without width (a window of one price) counts whole where its price is in the band.
      if (width === 0 && bin.low >= lo && bin.low <= hi) volume += bin.volume;
    }
    const ratio = hi > lo && density > 0 ? Math.min(4, Math.max(0.25, volume / (hi - lo) / density)) : 1;
    const score = cl.reduce((s, p) => s + p.weight * Math.exp(-(Math.LN2 / o.halfLife) * (end - p.index)), 0);
    const last = Math.max(...cl.map((p) => p.index));
    const mid = (lo + hi) / 2;
    return {
      kind: mid <= c.close[end] ? 'support' : 'resistance',
      low: lo,
      high: hi,
      mid,
      strength: 1 - Math.exp(-(score * Math.sqrt(ratio)) / 3),
      touches: cl.length,
      last_touch_index: last,
      last_touch_time: c.time[last],
      volume,
      sources: ['swing'],
      timeframe: null,
    };
  });

  // 4. the strongest (ties: later touch, nearer the mark, lower price), in price order
  const mark = c.close[end];
  const kept = all
    .map((z, k) => ({ z, k }))
    .sort(
      (a, b) =>
        b.z.strength - a.z.strength ||
        b.z.last_touch_index - a.z.last_touch_index ||
        Math.abs(a.z.mid - mark) - Math.abs(b.z.mid - mark) ||
        a.k - b.k,
    )
    .slice(0, o.maxZones)
    .sort((a, b) => a.k - b.k)
    .map(({ z }) => z);
  return { atr: atrEnd, mark, zones: kept, profile };
}

function expectZonesClose(got: Zone[], want: Zone[]): void {
  expect(got.map((z) => [z.kind, z.touches, z.last_touch_index, z.last_touch_time])).toEqual(
    want.map((z) => [z.kind, z.touches, z.last_touch_index, z.last_touch_time]),
  );
  got.forEach((z, k) => {
    for (const key of ['low', 'high', 'mid', 'strength', 'volume'] as const) {
      const tol = 1e-9 * Math.max(1, Math.abs(want[k][key]));
      expect(Math.abs(z[key] - want[k][key]), `${key} of zone ${k}`).toBeLessThanOrEqual(tol);
    }
  });
}

const options: fc.Arbitrary<Opts> = fc.record({
  window: fc.integer({ min: 3, max: 150 }),
  fractalSpan: fc.integer({ min: 1, max: 3 }),
  atrPeriod: fc.integer({ min: 2, max: 20 }),
  zigzagAtr: fc.double({ min: 0.3, max: 3, noNaN: true }),
  clusterAtr: fc.double({ min: 0, max: 1.5, noNaN: true }),
  maxWidthAtr: fc.double({ min: 0, max: 2, noNaN: true }),
  minWidthAtr: fc.double({ min: 0, max: 1.5, noNaN: true }),
  halfLife: fc.double({ min: 1, max: 200, noNaN: true }),
  maxZones: fc.integer({ min: 1, max: 8 }),
  profileBins: fc.integer({ min: 1, max: 30 }),
  valueArea: fc.double({ min: 0.1, max: 1, noNaN: true }),
});

describe('supportResistance against its documented steps', () => {
  it('matches the steps on generated candles and options', () => {
    fc.assert(
      fc.property(candleSeries(1, 160), options, (rows, o) => {
        const got = supportResistance(toColumns(rows), o);
        const want = reference(rows, o);
        expect(got.as_of_index).toBe(rows.length - 1);
        expect(got.as_of_time).toBe(rows[rows.length - 1].time);
        expect(got.mark).toBe(want.mark);
        expect(got.atr).toBe(want.atr);
        expectZonesClose(got.zones, want.zones);
        expect(got.volume_profile).toEqual(want.profile);
        const where = zoneContext(got.zones, got.mark, got.atr);
        expect([got.inside, got.nearest_support, got.nearest_resistance]).toEqual([
          where.inside,
          where.below,
          where.above,
        ]);
      }),
      { numRuns: 25 },
    );
  });

  it('matches the steps with the default options, on a window shorter than the series', () => {
    fc.assert(
      fc.property(candleSeries(40, 220), fc.integer({ min: 3, max: 120 }), (rows, window) => {
        const got = supportResistance(toColumns(rows), { window });
        expectZonesClose(got.zones, reference(rows, { ...DEFAULTS, window }).zones);
      }),
      { numRuns: 25 },
    );
  });

  it('reads a market without volume by time: each candle weighs 1 in the zone volume', () => {
    fc.assert(
      fc.property(candleSeries(30, 120), options, (rows, o) => {
        const silent = rows.map((r) => ({ ...r, volume: 0 }));
        const got = supportResistance(toColumns(silent), o);
        expect(got.volume_profile.basis).toBe('time');
        expectZonesClose(got.zones, reference(silent, o).zones);
      }),
      { numRuns: 15 },
    );
  });

  it('has no zones without swings, and still reports the mark, the ATR and the profile', () => {
    // the same candle again and again: no fractal (strict on the left), and the zigzag's first
    // candle holds both extremes, so it waits
    const rows: Candle[] = Array.from({ length: 40 }, (_, i) => ({
      time: i * 60_000,
      open: 100,
      high: 101,
      low: 99,
      close: 100,
      volume: 10,
    }));
    const r = supportResistance(toColumns(rows));
    expect(r.zones).toEqual([]);
    expect([r.inside, r.nearest_support, r.nearest_resistance]).toEqual([null, null, null]);
    expect(r.mark).toBe(100);
    expect(r.atr).toBeCloseTo(2, 12);
    expect(r.volume_profile.total_volume).toBe(400);
  });

  it('names the option in every option error', () => {
    const c = toColumns(
      Array.from({ length: 10 }, (_, i) => ({ time: i, open: 1, high: 2, low: 0.5, close: 1, volume: 1 })),
    );
    const bad: [keyof SupportResistanceOptions, number][] = [
      ['window', 2],
      ['fractalSpan', 0],
      ['atrPeriod', 0],
      ['zigzagAtr', 0],
      ['clusterAtr', -1],
      ['maxWidthAtr', -1],
      ['minWidthAtr', -1],
      ['halfLife', 0],
      ['maxZones', 0],
      ['profileBins', 0],
      ['valueArea', 1.5],
    ];
    for (const [name, value] of bad) {
      let caught: unknown;
      try {
        supportResistance(c, { [name]: value });
      } catch (e) {
        caught = e;
      }
      expect(caught, name).toBeInstanceOf(InputError);
      expect((caught as InputError).field).toBe(name);
    }
  });
});
