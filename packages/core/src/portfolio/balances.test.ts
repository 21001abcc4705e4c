import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectInputError } from '../testing/bad-input.js';
import { reach } from '../testing/reach.js';
import type { AssetRef } from './asset.js';
import { type BalanceInput, normalizeBalances } from './balances.js';

const BTC: AssetRef = { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: null, asset_class: 'coins' };

function bal(over: Partial<BalanceInput> = {}): BalanceInput {
  return {
    user_connection_id: 'uc1',
    connection_id: 'binance',
    account: 'spot',
    symbol: 'btc',
    asset: BTC,
    total: 0.5,
    available: 0.4,
    frozen: null,
    usd_price: 60_000,
    ...over,
  };
}

describe('normalizeBalances', () => {
  it('uppercases symbols, derives the missing half and shares the total over priced balances', () => {
    const sheet = normalizeBalances([
      bal(),
      bal({ symbol: 'usdt', asset: null, total: 10_000, available: null, frozen: 2_500, usd_price: 1 }),
      bal({ symbol: 'XYZ', asset: null, total: 1_000, available: null, frozen: null, usd_price: null }),
    ]);
    expect(sheet.total_usd).toBe(40_000);
    expect(sheet.priced_count).toBe(2);
    expect(sheet.unpriced_count).toBe(1);
    expect(sheet.balances).toEqual([
      {
        user_connection_id: 'uc1',
        connection_id: 'binance',
        account: 'spot',
        symbol: 'BTC',
        asset: BTC,
        balance: 0.5,
        available: 0.4,
        frozen: 0.1, // exact: 0.5 - 0.4
        usd_price: 60_000,
        balance_usd: 30_000,
        available_usd: 24_000,
        frozen_usd: 6_000,
        percentage_of_total: 75,
      },
      {
        user_connection_id: 'uc1',
        connection_id: 'binance',
        account: 'spot',
        symbol: 'USDT',
        asset: null,
        balance: 10_000,
        available: 7_500,
        frozen: 2_500,
        usd_price: 1,
        balance_usd: 10_000,
        available_usd: 7_500,
        frozen_usd: 2_500,
        percentage_of_total: 25,
      },
      {
        user_connection_id: 'uc1',
        connection_id: 'binance',
        account: 'spot',
        symbol: 'XYZ',
        asset: null,
        balance: 1_000,
        available: null,
        frozen: null,
        usd_price: null,
        balance_usd: null,
        available_usd: null,
        frozen_usd: null,
        percentage_of_total: null,
      },
    ]);
  });

  it('keys on (connection, symbol, account) with case-normalized symbols: a re-read replaces', () => {
    const sheet = normalizeBalances([
      bal({ total: 1 }),
      bal({ symbol: 'BTC', account: 'futures', total: 2 }),
      bal({ symbol: 'BTC', user_connection_id: 'uc2', total: 3 }),
      bal({ symbol: ' Btc ', total: 4 }),
    ]);
    expect(sheet.balances.map((b) => [b.user_connection_id, b.symbol, b.account, b.balance])).toEqual([
      ['uc1', 'BTC', 'spot', 4],
      ['uc1', 'BTC', 'futures', 2],
      ['uc2', 'BTC', 'spot', 3],
    ]);
  });

  const nullRules: [string, BalanceInput[], number | null, (number | null)[]][] = [
    ['unpriced (null price): figures null, never 0', [bal({ usd_price: null })], null, [null]],
    ['unpriced (0 price) reads as null', [bal({ usd_price: 0 })], null, [null]],
    ['priced total of zero: percentage null', [bal({ total: 0, available: 0 })], 0, [null]],
    ['no balances: total 0', [], 0, []],
  ];
  it.each(nullRules)('%s', (_, rows, total, pct) => {
    const sheet = normalizeBalances(rows);
    expect(sheet.total_usd).toBe(total);
    expect(sheet.balances.map((b) => b.percentage_of_total)).toEqual(pct);
    for (const b of sheet.balances) {
      if (b.usd_price === null) {
        expect(b.balance_usd).toBeNull();
        expect(b.available_usd).toBeNull();
        expect(b.frozen_usd).toBeNull();
      }
    }
  });

  it('percentages of priced balances sum to 100 and the total is the exact sum', () => {
    const row = fc.record({
      symbol: fc.constantFrom('btc', 'BTC', 'eth', 'Usdt', 'sol', 'xyz'),
      account: fc.constantFrom('spot', 'futures'),
      total: fc.double({ min: 0, max: 1e6, noNaN: true }),
      usd_price: fc.option(fc.double({ min: 0.0001, max: 1e5, noNaN: true }), { nil: null }),
    });
    const summed = reach('a sheet of two or more priced balances');
    summed.assert(
      fc.property(fc.array(row, { minLength: 3, maxLength: 15, size: 'max' }), (rows) => {
        const sheet = normalizeBalances(rows.map((r) => bal({ ...r, available: null })));
        summed.hitIf(sheet.priced_count >= 2);
        const D = Decimal.clone({ precision: 200 });
        let sum = new D(0);
        let pct = 0;
        for (const b of sheet.balances) {
          expect(b.symbol).toBe(b.symbol.toUpperCase());
          if (b.balance_usd !== null) sum = sum.plus(b.balance_usd);
          if (b.percentage_of_total !== null) pct += b.percentage_of_total;
          for (const x of [b.balance_usd, b.percentage_of_total]) expect(x === null || Number.isFinite(x)).toBe(true);
        }
        if (sheet.priced_count > 0) expect(sheet.total_usd).toBe(sum.toNumber());
        if (sheet.total_usd !== null && sheet.total_usd > 0) expect(pct).toBeCloseTo(100, 6);
        const keys = new Set(sheet.balances.map((b) => `${b.symbol}/${b.account}`));
        expect(keys.size).toBe(sheet.balances.length);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects malformed records with a typed error', () => {
    expectInputError(() => normalizeBalances([bal({ symbol: '  ' })]), 'invalid_option');
    expectInputError(() => normalizeBalances([bal({ total: Number.NaN })]), 'non_finite');
    expectInputError(() => normalizeBalances([bal({ account: undefined as unknown as string })]), 'invalid_option');
    expectInputError(() => normalizeBalances([bal({ asset: 'bitcoin' as unknown as AssetRef })]), 'invalid_option');
  });
});
