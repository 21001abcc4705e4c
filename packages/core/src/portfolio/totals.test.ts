import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectInputError } from '../testing/bad-input.js';
import { reach } from '../testing/reach.js';
import { normalizePosition, type PositionExtended } from './positions.js';
import { positionInput } from './test-fixtures.js';
import { portfolioTotals } from './totals.js';

describe('portfolioTotals', () => {
  it('counts unpriced positions and excludes them from the money totals', () => {
    const positions = [
      normalizePosition(positionInput({ id: 'a' })),
      normalizePosition(positionInput({ id: 'b', side: 'short', mark_price: null })),
      normalizePosition(positionInput({ id: 'c', side: 'short', size: 1, entry_price: 63_000 })),
    ];
    expect(portfolioTotals(positions)).toEqual({
      open_positions_count: 3,
      open_long_positions_count: 1,
      open_short_positions_count: 2,
      priced_positions_count: 2,
      unpriced_positions_count: 1,
      total_market_value_usd: 31_000 + 62_000,
      total_unrealized_pnl_usd: 1_000 + 1_000,
      total_daily_pnl_usd: 500 - 1_000,
      total_weekly_pnl_usd: 2_000 - 4_000,
      total_margin_usd: 6_000, // the unpriced position's margin is excluded too
    });
  });

  it('sums exactly in decimal: 0.1 + 0.2 is 0.3', () => {
    const a = normalizePosition(positionInput({ size: 1, entry_price: 1, mark_price: 1.1 }));
    const b = normalizePosition(positionInput({ size: 1, entry_price: 1, mark_price: 1.2 }));
    expect(a.unrealized_pnl_usd).toBe(0.1);
    expect(b.unrealized_pnl_usd).toBe(0.2);
    expect(portfolioTotals([a, b]).total_unrealized_pnl_usd).toBe(0.3);
  });

  const nullRules: [string, PositionExtended[], number | null][] = [
    ['empty portfolio: totals are 0', [], 0],
    ['only unpriced positions: totals are null', [normalizePosition(positionInput({ mark_price: null }))], null],
    ['priced but no USD rate: null', [normalizePosition(positionInput({ usd_rate: null }))], null],
  ];
  it.each(nullRules)('%s', (_, positions, expected) => {
    const t = portfolioTotals(positions);
    expect(t.total_market_value_usd).toBe(expected);
    expect(t.total_unrealized_pnl_usd).toBe(expected);
    expect(t.open_positions_count).toBe(positions.length);
  });

  it('money totals equal the exact sums of the priced figures', () => {
    const row = fc.record({
      side: fc.constantFrom<'long' | 'short'>('long', 'short'),
      size: fc.double({ min: 1e-4, max: 1e4, noNaN: true }),
      entry_price: fc.double({ min: 0.01, max: 1e5, noNaN: true }),
      mark_price: fc.option(fc.double({ min: 0.01, max: 1e5, noNaN: true }), { nil: null }),
      usd_rate: fc.option(fc.double({ min: 0.5, max: 2, noNaN: true }), { nil: null }),
    });
    const summed = reach('two or more priced positions');
    summed.assert(
      fc.property(fc.array(row, { minLength: 3, maxLength: 12, size: 'max' }), (rows) => {
        const positions = rows.map((r) => normalizePosition(positionInput(r)));
        const t = portfolioTotals(positions);
        summed.hitIf(t.priced_positions_count >= 2);
        const D = Decimal.clone({ precision: 200 });
        let sum = new D(0);
        let any = false;
        for (const p of positions) {
          if (p.current_price !== null && p.unrealized_pnl_usd !== null) {
            sum = sum.plus(p.unrealized_pnl_usd);
            any = true;
          }
        }
        expect(t.total_unrealized_pnl_usd).toBe(positions.length > 0 && !any ? null : sum.toNumber() || 0);
        expect(t.open_positions_count).toBe(t.priced_positions_count + t.unpriced_positions_count);
        expect(t.open_long_positions_count + t.open_short_positions_count).toBe(positions.length);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a non-array', () => {
    expectInputError(() => portfolioTotals(null as unknown as PositionExtended[]), 'invalid_option');
  });
});
