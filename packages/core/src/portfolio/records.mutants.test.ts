// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the rules of the position, fill and balance normalizers that their other tests left open.
import { describe, expect, it } from 'vitest';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { type BalanceInput, normalizeBalances } from './balances.js';
import { type FillInput, ordersFromFills, tradesFromFills } from './orders.js';
import { normalizePosition, type PositionInput } from './positions.js';
import { H, positionInput, T } from './test-fixtures.js';
import { portfolioTotals } from './totals.js';

const DAY = 24 * H;

describe('normalizePosition', () => {
  it('takes the daily and weekly reference from the entry only when the position opened inside the window', () => {
    // long 0.5 from 60 000, mark 62 000; 24 h ago 61 000, 7 d ago 58 000
    const inside = normalizePosition(positionInput({ opened_at: T - DAY + 1 }));
    expect(inside.daily_pnl).toBe(1_000); // (62 000 - 60 000) * 0.5: from the entry
    expect(inside.weekly_pnl).toBe(1_000);
    const edge = normalizePosition(positionInput({ opened_at: T - DAY }));
    expect(edge.daily_pnl).toBe(500); // opened exactly 24 h before the mark: from the price 24 h ago
    expect(edge.weekly_pnl).toBe(1_000);
    const week = normalizePosition(positionInput({ opened_at: T - 7 * DAY }));
    expect([week.daily_pnl, week.weekly_pnl]).toEqual([500, 2_000]);
    // without an opening time or a mark time, the prices ago
    for (const over of [{ opened_at: null }, { mark_time: null }]) {
      const p = normalizePosition(positionInput({ ...over }));
      expect([p.daily_pnl, p.weekly_pnl]).toEqual([500, 2_000]);
    }
  });

  it('reads a missing side as unknown: no P&L, no distance to liquidation', () => {
    for (const side of [null, undefined]) {
      const p = normalizePosition(positionInput({ side: side as PositionInput['side'] }));
      expect(p.side).toBeNull();
      expect([p.unrealized_pnl, p.daily_pnl, p.distance_to_liquidation]).toEqual([null, null, null]);
      expect(p.market_value).toBe(31_000);
    }
  });

  it('uppercases the settlement currency, and checks the asset', () => {
    expect(normalizePosition(positionInput()).settlement_currency).toBe('USDT');
    expect(normalizePosition(positionInput({ settlement_currency: null })).settlement_currency).toBeNull();
    expect(normalizePosition(positionInput({ asset: undefined as unknown as null })).asset).toBeNull();
    for (const asset of ['bitcoin', { id: 3 }, 7]) {
      const e = caught(() => normalizePosition(positionInput({ asset: asset as unknown as null }), 4));
      expect([e.field, e.index, e.message]).toEqual([
        'asset',
        4,
        'position[4].asset must be an asset object with a string id, or null',
      ]);
    }
  });
});

const T0 = Date.UTC(2025, 0, 10);

function fill(over: Partial<FillInput> = {}): FillInput {
  return {
    external_id: 'f1',
    user_connection_id: 'uc1',
    connection_id: 'binance',
    order_id: 'o1',
    pair: 'ETHUSDT',
    asset_id: 'ethereum',
    side: 'buy',
    price: 3_000,
    size: 0.1,
    fee: 0.3,
    fee_currency: 'usdt',
    pnl: null,
    executed_at: T0,
    ...over,
  };
}

describe('fills and orders', () => {
  it('orders fills of the same time by external id, whatever the input order', () => {
    const a = fill({ external_id: 'a', order_id: null });
    const b = fill({ external_id: 'b', order_id: null });
    expect(tradesFromFills([a, b]).map((t) => t.external_id)).toEqual(['b', 'a']);
    expect(tradesFromFills([b, a]).map((t) => t.external_id)).toEqual(['b', 'a']);
    const c = fill({ external_id: 'x', user_connection_id: 'uc2' });
    const d = fill({ external_id: 'x', user_connection_id: 'uc1' });
    expect(tradesFromFills([c, d]).map((t) => t.user_connection_id)).toEqual(['uc2', 'uc1']);
    expect(tradesFromFills([d, c]).map((t) => t.user_connection_id)).toEqual(['uc2', 'uc1']);
  });

  it('makes each fill without an order id an order of its own', () => {
    const orders = ordersFromFills([
      fill({ external_id: 'a', order_id: null }),
      fill({ external_id: 'b', order_id: null, executed_at: T0 + 1 }),
    ]);
    expect(orders.map((o) => [o.id, o.order_id, o.fills_count])).toEqual([
      ['b', null, 1],
      ['a', null, 1],
    ]);
  });

  it("takes an order's asset from the first fill that names one, and uppercases fee currencies", () => {
    const [order] = ordersFromFills([
      fill({ external_id: 'a', asset_id: null }),
      fill({ external_id: 'b', asset_id: 'ethereum', executed_at: T0 + 1 }),
    ]);
    expect([order.asset_id, order.coin_id]).toEqual(['ethereum', 'ethereum']);
    expect(order.fee_currency).toBe('USDT');
    expect(tradesFromFills([fill({ fee_currency: null })])[0].fee_currency).toBeNull();
  });

  it('rejects a price of zero, naming the fill', () => {
    const e = caught(() => ordersFromFills([fill(), fill({ external_id: 'z', price: 0 })]));
    expect([e.field, e.index, e.message]).toEqual(['price', 1, 'fills[1].price must be positive, got 0']);
  });
});

function bal(over: Partial<BalanceInput> = {}): BalanceInput {
  return {
    user_connection_id: 'uc1',
    connection_id: 'binance',
    account: 'spot',
    symbol: 'btc',
    asset: null,
    total: 10,
    available: null,
    frozen: null,
    usd_price: 2,
    ...over,
  };
}

describe('normalizeBalances', () => {
  it('derives neither half when both are absent, and keeps both when both are given', () => {
    const [none] = normalizeBalances([bal()]).balances;
    expect([none.available, none.frozen, none.available_usd, none.frozen_usd]).toEqual([null, null, null, null]);
    // a venue may report halves that do not add up (a lock it counts elsewhere): both are kept
    const [both] = normalizeBalances([bal({ available: 6, frozen: 3 })]).balances;
    expect([both.available, both.frozen]).toEqual([6, 3]);
  });

  it('checks the asset', () => {
    for (const asset of ['bitcoin', { id: 3 }, 7]) {
      const e = caught(() => normalizeBalances([bal({ asset: asset as unknown as null })]));
      expect([e.field, e.index, e.message]).toEqual([
        'asset',
        0,
        'balances[0].asset must be an asset object with a string id, or null',
      ]);
    }
  });
});

describe('portfolioTotals', () => {
  it('counts a position of unknown side as neither long nor short', () => {
    const t = portfolioTotals([
      normalizePosition(positionInput({ side: null })),
      normalizePosition(positionInput({ side: 'short' })),
    ]);
    expect([t.open_positions_count, t.open_long_positions_count, t.open_short_positions_count]).toEqual([2, 0, 1]);
  });
});
