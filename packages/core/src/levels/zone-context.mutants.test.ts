// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the edges of zoneContext's contract (ties, unusable ATRs and edges, a zero price).
import { describe, expect, it } from 'vitest';
import { zoneContext } from './zone-context.js';

describe('zoneContext at its edges', () => {
  it('picks, among zones holding the price at the same distance from their middles, the lower', () => {
    const narrow = { low: 9, high: 11 };
    const wide = { low: 8, high: 12 };
    expect(zoneContext([narrow, wide], 10, 1).inside).toBe(wide);
    expect(zoneContext([wide, narrow], 10, 1).inside).toBe(wide);
    // a nearer middle wins over a lower zone
    const low = { low: 7, high: 10.5 };
    expect(zoneContext([narrow, low], 10, 1).inside).toBe(narrow);
    expect(zoneContext([low, narrow], 10, 1).inside).toBe(narrow);
  });

  it('has no ATR distance unless the ATR is a finite positive number', () => {
    const zones = [
      { low: 1, high: 2 },
      { low: 8, high: 9 },
    ];
    for (const atr of [null, undefined, 0, -2, Number.NaN, Number.POSITIVE_INFINITY]) {
      const r = zoneContext(zones, 5, atr);
      expect(r.below?.distance_atr, String(atr)).toBeNull();
      expect(r.above?.distance_atr, String(atr)).toBeNull();
    }
    const r = zoneContext(zones, 5, 2);
    expect(r.below?.distance_atr).toBe(-1.5);
    expect(r.above?.distance_atr).toBe(1.5);
    expect(r.below?.distance_pct).toBe(-60);
    expect(r.above?.distance_pct).toBe(60);
  });

  it('ignores a zone with any non-finite edge', () => {
    for (const z of [
      { low: Number.NaN, high: 4 },
      { low: 3, high: Number.NaN },
      { low: Number.NEGATIVE_INFINITY, high: 4 },
      { low: 3, high: Number.POSITIVE_INFINITY },
    ]) {
      expect(zoneContext([z], 10, 1)).toEqual({ inside: null, below: null, above: null });
      expect(zoneContext([z], 1, 1)).toEqual({ inside: null, below: null, above: null });
    }
  });

  it('measures no percentage from a zero price', () => {
    const r = zoneContext([{ low: 1, high: 2 }], 0, 1);
    expect(r.above?.distance_pct).toBe(0);
    expect(r.above?.distance_atr).toBe(1);
  });
});
