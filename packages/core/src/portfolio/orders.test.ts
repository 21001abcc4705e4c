import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectInputError } from '../testing/bad-input.js';
import { reach } from '../testing/reach.js';
import { type FillInput, ordersFromFills, tradesFromFills } from './orders.js';

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

describe('ordersFromFills', () => {
  it('aggregates an order: side, size-weighted price, summed size, fee and pnl, and its fills', () => {
    const orders = ordersFromFills([
      fill({ external_id: 'f2', price: 3_010, size: 0.2, fee: 0.1, pnl: 1.5, executed_at: T0 + 1_000 }),
      fill({ pnl: 0.7 }),
      fill({ external_id: 'f3', order_id: 'o2', side: 'sell', price: 3_100, size: 0.3, executed_at: T0 + 5_000 }),
    ]);
    expect(orders.map((o) => o.id)).toEqual(['o2', 'o1']); // newest first
    const o1 = orders[1];
    expect(o1).toMatchObject({
      id: 'o1',
      order_id: 'o1',
      side: 'buy',
      size: 0.3, // exact: 0.1 + 0.2
      price: 3006.6666666666665, // 902 / 0.3 correctly rounded; the float expression gives ...667
      fee: 0.4, // exact: 0.3 + 0.1
      fee_currency: 'USDT',
      pnl: 2.2,
      asset_id: 'ethereum',
      coin_id: 'ethereum',
      fills_count: 2,
      first_fill_at: '2025-01-10T00:00:00.000Z',
      last_fill_at: '2025-01-10T00:00:01.000Z',
    });
    expect(o1.price).toBe(new Decimal('902').div('0.3').toNumber());
    expect(o1.fills.map((f) => f.external_id)).toEqual(['f1', 'f2']);
    expect(orders[0].pnl).toBeNull(); // a fill does not report pnl
  });

  const nullRules: [string, FillInput[], Record<string, unknown>][] = [
    [
      'a fill without a fee: fee null',
      [fill(), fill({ external_id: 'f2', fee: null })],
      { fee: null, fee_currency: 'USDT' },
    ],
    [
      'fee currencies differ: fee and currency null',
      [fill(), fill({ external_id: 'f2', fee_currency: 'BNB' })],
      { fee: null, fee_currency: null },
    ],
    ['a fill without pnl: pnl null', [fill({ pnl: 1 }), fill({ external_id: 'f2' })], { pnl: null }],
    ['no asset: asset_id and coin_id null', [fill({ asset_id: null })], { asset_id: null, coin_id: null }],
    [
      'no order id: the fill is its own order',
      [fill({ order_id: null })],
      { id: 'f1', order_id: null, fills_count: 1 },
    ],
  ];
  it.each(nullRules)('%s', (_, fills, expected) => {
    const orders = ordersFromFills(fills);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject(expected);
  });

  it('splits fills of one order id that disagree on the side, and keeps connections apart', () => {
    const orders = ordersFromFills([
      fill(),
      fill({ external_id: 'f2', side: 'sell' }),
      fill({ external_id: 'f1', user_connection_id: 'uc2' }),
    ]);
    expect(orders.map((o) => [o.user_connection_id, o.side, o.fills_count])).toEqual([
      ['uc1', 'buy', 1],
      ['uc1', 'sell', 1],
      ['uc2', 'buy', 1],
    ]);
  });

  it('dedupes on (external_id, user_connection_id): the later copy wins', () => {
    const trades = tradesFromFills([fill(), fill({ fee: 0.25 }), fill({ external_id: 'f2', executed_at: T0 + 1 })]);
    expect(trades.map((t) => [t.external_id, t.fee])).toEqual([
      ['f2', 0.3],
      ['f1', 0.25],
    ]);
    expect(trades[0]).toMatchObject({
      coin_id: 'ethereum',
      fee_currency: 'USDT',
      executed_at: '2025-01-10T00:00:00.001Z',
    });
  });

  const fillArb = fc.record({
    external_id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
    user_connection_id: fc.constantFrom('uc1', 'uc2'),
    order_id: fc.option(fc.constantFrom('o1', 'o2', 'o3'), { nil: null }),
    side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
    price: fc.double({ min: 0.0001, max: 1e5, noNaN: true }),
    size: fc.double({ min: 1e-6, max: 1e3, noNaN: true }),
    fee: fc.option(fc.double({ min: -1, max: 10, noNaN: true }), { nil: null }),
    pnl: fc.option(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { nil: null }),
    executed_at: fc.integer({ min: T0, max: T0 + 10_000 }),
  });
  /** Fills with unique keys (so that re-reads are identical copies). */
  const uniqueFills = fc.uniqueArray(fillArb, {
    selector: (f) => `${f.user_connection_id}/${f.external_id}`,
    minLength: 6,
    maxLength: 16,
    size: 'max',
  });

  it('re-reading the same fills (twice, in any order) never changes the orders', () => {
    const reread = reach('an order of two or more fills');
    reread.assert(
      fc.property(uniqueFills, fc.integer({ min: 0, max: 1_000 }), (rows, seed) => {
        const fills = rows.map((r) => fill(r));
        const once = ordersFromFills(fills);
        reread.hitIf(once.some((o) => o.fills_count >= 2));
        const shuffled = [...fills].sort((a, b) => ((a.price * 7919 + seed) % 13) - ((b.price * 7919 + seed) % 13));
        expect(ordersFromFills([...fills, ...shuffled])).toEqual(once);
        expect(ordersFromFills(shuffled)).toEqual(once);
        expect(tradesFromFills([...shuffled, ...fills])).toEqual(tradesFromFills(fills));
      }),
      { numRuns: 300 },
    );
  });

  it('sums are exact decimal sums and the average lies within the fill prices', () => {
    const summed = reach('an order of two or more fills');
    summed.assert(
      fc.property(uniqueFills, (rows) => {
        const orders = ordersFromFills(rows.map((r) => fill(r)));
        summed.hitIf(orders.some((o) => o.fills_count >= 2));
        const D = Decimal.clone({ precision: 200 });
        let count = 0;
        for (const o of orders) {
          count += o.fills_count;
          const size = o.fills.reduce((acc, f) => acc.plus(f.size), new D(0));
          const notional = o.fills.reduce((acc, f) => acc.plus(new D(f.price).times(f.size)), new D(0));
          expect(o.size).toBe(size.toNumber());
          expect(o.price).toBe(notional.div(size).toNumber());
          const prices = o.fills.map((f) => f.price);
          expect(o.price).toBeGreaterThanOrEqual(Math.min(...prices));
          expect(o.price).toBeLessThanOrEqual(Math.max(...prices));
          if (o.fee !== null)
            expect(o.fee).toBe(o.fills.reduce((acc, f) => acc.plus(f.fee ?? 0), new D(0)).toNumber() || 0);
          expect(JSON.stringify(o)).not.toMatch(/NaN|Infinity/);
        }
        expect(count).toBe(rows.length);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects malformed fills with a typed error', () => {
    expectInputError(() => ordersFromFills([fill({ size: 0 })]), 'invalid_option');
    expectInputError(() => ordersFromFills([fill({ price: -1 })]), 'invalid_option');
    expectInputError(() => ordersFromFills([fill({ side: 'long' as 'buy' })]), 'invalid_option');
    expectInputError(() => ordersFromFills([fill({ fee: Number.POSITIVE_INFINITY })]), 'non_finite');
    expectInputError(() => ordersFromFills([fill({ external_id: '' })]), 'invalid_option');
    expectInputError(() => tradesFromFills([fill({ executed_at: Number.NaN })]), 'non_finite');
  });
});
