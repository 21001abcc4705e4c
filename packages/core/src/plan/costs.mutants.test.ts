// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// roundTripCostPct's errors, field by field, and the inclusive bounds of the venue's figures.
import { describe, expect, it } from 'vitest';
import type { AssetClass } from '../portfolio/asset.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { type RoundTripCostInput, roundTripCostPct } from './costs.js';

describe('roundTripCostPct: errors and bounds', () => {
  it('names the asset classes it knows, and what it got', () => {
    for (const [input, got] of [
      [{ assetClass: 'bonds' }, 'bonds'],
      [{}, 'undefined'],
      [undefined, 'undefined'],
      [null, 'undefined'],
    ] as const) {
      const e = caught(() => roundTripCostPct(input as unknown as RoundTripCostInput));
      expect([e.code, e.field, e.message]).toEqual([
        'invalid_option',
        'assetClass',
        `assetClass must be one of coins, stocks, fx, external, got ${got}`,
      ]);
    }
  });

  it('takes a fee in 0..50 and a spread in 0..100, inclusive, and names the figure out of range', () => {
    const assetClass: AssetClass = 'stocks';
    expect(roundTripCostPct({ assetClass, feePct: 0, spreadPct: 0 })).toBe(0);
    expect(roundTripCostPct({ assetClass, feePct: 50, spreadPct: 100 })).toBe(200);
    for (const [figure, bad, range] of [
      ['feePct', 50.5, '0..50'],
      ['feePct', -1, '0..50'],
      ['spreadPct', 100.5, '0..100'],
      ['spreadPct', -1, '0..100'],
    ] as const) {
      const e = caught(() => roundTripCostPct({ assetClass, [figure]: bad }));
      expect([e.code, e.field, e.message]).toEqual([
        'invalid_option',
        figure,
        `${figure} must be a number in ${range}, got ${bad}`,
      ]);
    }
  });
});
