import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASSET_SORTS, type AssetRow, sortRows } from './assets.js';

const row = (id: string, v: number | null): AssetRow => ({
  id,
  symbol: id.toUpperCase(),
  name: id,
  icon: '',
  asset_class: 'coins',
  is_stablecoin: false,
  price: v,
  change_1h_pct: v,
  change_24h_pct: v,
  change_7d_pct: v,
  volume_24h_usd: v,
  market_type: v === null ? null : 'spot',
  pair: null,
  venue: null,
});

describe('sortRows', () => {
  it('orders by the key in the direction asked, rows without a value last, ties by id', () => {
    const rows = fc.uniqueArray(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 6 }),
        v: fc.option(fc.double({ noNaN: true, min: -1e6, max: 1e6 })),
      }),
      { selector: (r) => r.id, maxLength: 30 },
    );
    const numericSorts = ASSET_SORTS.filter((s) => s !== 'name');
    fc.assert(
      fc.property(
        rows,
        fc.constantFrom(...numericSorts),
        fc.constantFrom('asc' as const, 'desc' as const),
        (rs, sort, dir) => {
          const out = sortRows(
            rs.map((r) => row(r.id, r.v)),
            sort,
            dir,
          );
          const firstNull = out.findIndex((r) => r.price === null);
          if (firstNull >= 0) expect(out.slice(firstNull).every((r) => r.price === null)).toBe(true);
          for (let i = 1; i < out.length; i++) {
            const a = out[i - 1].price;
            const b = out[i].price;
            if (a === null || b === null) continue;
            expect(dir === 'asc' ? a <= b : a >= b).toBe(true);
            if (a === b) expect(out[i - 1].id < out[i].id).toBe(true);
          }
        },
      ),
    );
  });
});
