import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssetClass } from '../portfolio/asset.js';
import { expectInputError } from '../testing/bad-input.js';
import { COST_MODELS, roundTripCostPct } from './costs.js';

describe('roundTripCostPct', () => {
  it('is two taker fees and one spread, per asset class', () => {
    expect(roundTripCostPct({ assetClass: 'coins' })).toBe(0.22);
    expect(roundTripCostPct({ assetClass: 'stocks' })).toBe(0.05);
    expect(roundTripCostPct({ assetClass: 'fx' })).toBe(0.012);
    expect(roundTripCostPct({ assetClass: 'external' })).toBe(0.7);
  });

  it("takes the venue's own figures over the class defaults", () => {
    // a perpetual at a 0.05% taker fee keeps the coins spread
    expect(roundTripCostPct({ assetClass: 'coins', feePct: 0.05 })).toBe(0.12);
    expect(roundTripCostPct({ assetClass: 'stocks', feePct: 0 })).toBe(0.03); // a commission-free broker
    expect(roundTripCostPct({ assetClass: 'fx', feePct: 0, spreadPct: 0.01 })).toBe(0.01);
  });

  it('equals 2 * fee + spread for any figures, to 1e-10', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<AssetClass>('coins', 'stocks', 'fx', 'external'),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (assetClass, feePct, spreadPct) => {
          expect(Math.abs(roundTripCostPct({ assetClass, feePct, spreadPct }) - (2 * feePct + spreadPct))).toBeLessThan(
            1e-9,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('publishes a frozen table', () => {
    expect(Object.isFrozen(COST_MODELS)).toBe(true);
    expect(Object.isFrozen(COST_MODELS.coins)).toBe(true);
  });

  it('rejects an unknown class and bad figures with a typed error', () => {
    expectInputError(() => roundTripCostPct({ assetClass: 'bonds' as AssetClass }), 'invalid_option');
    expectInputError(() => roundTripCostPct({ assetClass: 'toString' as AssetClass }), 'invalid_option');
    expectInputError(() => roundTripCostPct({ assetClass: 'coins', feePct: -0.1 }), 'invalid_option');
    expectInputError(() => roundTripCostPct({ assetClass: 'coins', spreadPct: Number.NaN }), 'invalid_option');
  });
});
