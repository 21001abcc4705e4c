import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candleSeries, toColumns } from '../testing/props.js';
import { type PriceBand, zoneContext } from './zone-context.js';
import { supportResistance } from './zones.js';

const Z = [
  { low: 90, high: 92 },
  { low: 99, high: 101 },
  { low: 108, high: 110 },
];

describe('zoneContext', () => {
  it('puts a price inside a zone, not at distance 0 from a support and a resistance', () => {
    const at = zoneContext(Z, 100, 2);
    expect(at.inside).toEqual({ low: 99, high: 101 });
    expect(at.below).toEqual({ low: 90, high: 92, distance_pct: -8, distance_atr: -4 });
    expect(at.above).toEqual({ low: 108, high: 110, distance_pct: 8, distance_atr: 4 });
  });

  it('measures to the near edge, and counts an edge as inside', () => {
    const between = zoneContext(Z, 104, 2);
    expect(between.inside).toBeNull();
    expect(between.below?.high).toBe(101);
    expect(between.below?.distance_atr).toBe(-1.5);
    expect(between.above?.low).toBe(108);
    expect(between.above?.distance_atr).toBe(2);
    expect(zoneContext(Z, 101, 2).inside?.high).toBe(101);
    expect(zoneContext(Z, 99, 2).inside?.low).toBe(99);
  });

  it('has nothing below the lowest zone nor above the highest, and no ATR distance without an ATR', () => {
    expect(zoneContext(Z, 80, 1)).toMatchObject({ inside: null, below: null, above: { low: 90 } });
    expect(zoneContext(Z, 120, 1)).toMatchObject({ inside: null, below: { high: 110 }, above: null });
    expect(zoneContext(Z, 104, null).below?.distance_atr).toBeNull();
    expect(zoneContext(Z, 104, 0).below?.distance_atr).toBeNull();
    expect(zoneContext(Z, 104, Number.NaN).above?.distance_atr).toBeNull();
    expect(zoneContext([], 100, 1)).toEqual({ inside: null, below: null, above: null });
    expect(zoneContext(Z, Number.NaN, 1)).toEqual({ inside: null, below: null, above: null });
  });

  it('picks the zone whose middle is nearest when supplied zones overlap', () => {
    const overlapping = [
      { low: 95, high: 105 },
      { low: 99, high: 102 },
    ];
    expect(zoneContext(overlapping, 101, 1).inside).toEqual({ low: 99, high: 102 });
    expect(zoneContext([...overlapping].reverse(), 101, 1).inside).toEqual({ low: 99, high: 102 });
  });

  it('partitions any zones: the holding zone holds the price, nothing lies between the price and its neighbours', () => {
    const band = fc
      .tuple(fc.double({ min: 1, max: 200, noNaN: true }), fc.double({ min: 0, max: 20, noNaN: true }))
      .map(([low, w]): PriceBand => ({ low, high: low + w }));
    fc.assert(
      fc.property(fc.array(band, { maxLength: 12 }), fc.double({ min: 1, max: 220, noNaN: true }), (zones, price) => {
        const { inside, below, above } = zoneContext(zones, price, 1);
        const holding = zones.filter((z) => z.low <= price && price <= z.high);
        expect(inside === null).toBe(holding.length === 0);
        if (inside) expect(holding).toContain(inside);
        const under = zones.filter((z) => z.high < price);
        const over = zones.filter((z) => z.low > price);
        expect(below?.high ?? null).toBe(under.length ? Math.max(...under.map((z) => z.high)) : null);
        expect(above?.low ?? null).toBe(over.length ? Math.min(...over.map((z) => z.low)) : null);
        if (below) expect(below.distance_pct).toBeLessThan(0);
        if (above) expect(above.distance_pct).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('is what supportResistance reports for long generated series (most draws find zones)', () => {
    let reached = 0;
    let runs = 0;
    fc.assert(
      fc.property(candleSeries(260, 400), (rows) => {
        runs++;
        const sr = supportResistance(toColumns(rows));
        if (sr.zones.length === 0) return;
        reached++;
        const where = zoneContext(sr.zones, sr.mark, sr.atr);
        expect(sr.inside).toBe(where.inside);
        expect(sr.nearest_support).toEqual(where.below);
        expect(sr.nearest_resistance).toEqual(where.above);
        // a zone holding the mark is never also the nearest support or resistance
        if (sr.inside) {
          expect(sr.nearest_support?.low).not.toBe(sr.inside.low);
          expect(sr.nearest_resistance?.low).not.toBe(sr.inside.low);
        }
      }),
      { numRuns: 60 },
    );
    expect(reached / runs).toBeGreaterThanOrEqual(0.8);
  });
});
