import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectInputError } from '../testing/bad-input.js';
import { reach } from '../testing/reach.js';
import { normalizePosition, normalizePositions, type PositionExtended, type PositionInput } from './positions.js';
import { H, positionInput, T } from './test-fixtures.js';

const UNPRICED_NULL = [
  'current_price',
  'market_value',
  'market_value_usd',
  'unrealized_pnl',
  'unrealized_pnl_usd',
  'daily_pnl',
  'daily_pnl_usd',
  'weekly_pnl',
  'weekly_pnl_usd',
  'margin_ratio',
  'distance_to_liquidation',
  'ticker_last_updated',
] as const;

describe('normalizePosition', () => {
  it('computes every figure of a priced long (worked example)', () => {
    expect(normalizePosition(positionInput())).toEqual({
      id: 'p1',
      user_connection_id: 'uc1',
      connection_id: 'binance',
      asset: { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: null, asset_class: 'coins' },
      pair: 'BTCUSDT',
      side: 'long',
      size: 0.5,
      contract_type: 'linear',
      settlement_currency: 'USDT',
      entry_price: 60_000,
      leverage: 10,
      margin: 3_000,
      maintenance_margin: 150,
      liquidation_price: 54_500,
      opened_at: '2024-12-31T12:00:00.000Z',
      updated_at: '2025-01-10T12:00:00.000Z',
      current_price: 62_000,
      market_value: 31_000,
      market_value_usd: 31_000,
      unrealized_pnl: 1_000,
      unrealized_pnl_usd: 1_000,
      daily_pnl: 500,
      daily_pnl_usd: 500,
      weekly_pnl: 2_000,
      weekly_pnl_usd: 2_000,
      margin_usd: 3_000,
      margin_ratio: 150 / 4_000,
      distance_to_liquidation: ((62_000 - 54_500) / 62_000) * 100,
      ticker_last_updated: '2025-01-10T12:00:00.000Z',
      stop_loss: 57_000,
      take_profit: 66_000,
      protective_levels_synced_at: '2025-01-10T11:00:00.000Z',
      funding_since_open: 12.5,
      notes: 'swing',
      visible: false,
    } satisfies PositionExtended);
  });

  it('is exact in decimal: 3 * (0.3 - 0.1) is 0.6', () => {
    const p = normalizePosition(
      positionInput({ size: 3, entry_price: 0.1, mark_price: 0.3, price_24h_ago: 0.2, usd_rate: 1.1 }),
    );
    expect(p.unrealized_pnl).toBe(0.6);
    expect(p.unrealized_pnl_usd).toBe(0.66);
    expect(p.daily_pnl).toBe(0.3);
    expect(p.market_value).toBe(0.9);
  });

  // Table of null rules: [name, override, fields expected null, fields expected non-null]
  const cases: [string, Partial<PositionInput>, readonly string[], readonly string[]][] = [
    ['no mark: unpriced', { mark_price: null }, UNPRICED_NULL, ['entry_price', 'stop_loss', 'margin_usd']],
    ['mark 0: unpriced, never 0.0', { mark_price: 0 }, UNPRICED_NULL, []],
    ['negative mark: unpriced', { mark_price: -1 }, UNPRICED_NULL, []],
    [
      'no USD rate: *_usd null',
      { usd_rate: null },
      ['market_value_usd', 'unrealized_pnl_usd', 'daily_pnl_usd', 'weekly_pnl_usd', 'margin_usd'],
      ['unrealized_pnl', 'daily_pnl'],
    ],
    ['unset stop (0) is null', { stop_loss: 0 }, ['stop_loss'], ['take_profit']],
    ['unset take-profit is null', { take_profit: undefined }, ['take_profit'], ['stop_loss']],
    [
      'never synced',
      { protective_levels_synced_at: null, stop_loss: null, take_profit: null },
      ['protective_levels_synced_at', 'stop_loss', 'take_profit'],
      [],
    ],
    ['funding not reported stays null', { funding_since_open: null }, ['funding_since_open'], []],
    ['no 24h price: daily null', { price_24h_ago: null }, ['daily_pnl', 'daily_pnl_usd'], ['weekly_pnl']],
    ['no 7d price: weekly null', { price_7d_ago: null }, ['weekly_pnl', 'weekly_pnl_usd'], ['daily_pnl']],
    [
      'side unknown: pnl null',
      { side: null },
      ['unrealized_pnl', 'daily_pnl', 'weekly_pnl', 'margin_ratio', 'distance_to_liquidation'],
      ['current_price', 'market_value'],
    ],
    [
      'entry unknown (0): pnl null',
      { entry_price: 0 },
      ['entry_price', 'unrealized_pnl', 'margin_ratio'],
      ['daily_pnl', 'market_value'],
    ],
    ['no maintenance margin: ratio null', { maintenance_margin: null }, ['margin_ratio'], ['unrealized_pnl']],
    ['equity <= 0: ratio null', { margin: 500, mark_price: 58_000 }, ['margin_ratio'], ['unrealized_pnl']],
    ['no liquidation price (0)', { liquidation_price: 0 }, ['liquidation_price', 'distance_to_liquidation'], []],
    ['no mark time', { mark_time: null }, ['ticker_last_updated'], ['current_price']],
  ];
  it.each(cases)('%s', (_, over, nulls, present) => {
    const p = normalizePosition(positionInput(over)) as unknown as Record<string, unknown>;
    for (const k of nulls) expect(p[k], k).toBeNull();
    for (const k of present) expect(p[k], k).not.toBeNull();
    expect(p.visible).toBe(false);
  });

  it('has no margin ratio when the equity is too close to 0 for the ratio to be a float (Node 24 seed 571205237)', () => {
    const p = normalizePosition(
      positionInput({
        size: 0.000001,
        entry_price: 999999.9999999998,
        mark_price: 999999.9999999998,
        margin: 5e-324,
        maintenance_margin: 8.98846567431158e-16,
      }),
    );
    expect(p.margin_ratio).toBeNull();
    const q = normalizePosition(positionInput({ margin: 100, maintenance_margin: 5 }));
    expect(q.margin_ratio).not.toBeNull();
  });

  it('keeps reported zero funding as 0 and defaults notes to empty', () => {
    const p = normalizePosition(positionInput({ funding_since_open: 0, notes: undefined }));
    expect(p.funding_since_open).toBe(0);
    expect(p.notes).toBe('');
  });

  it('measures the daily and weekly PnL from the entry when the position opened inside the window', () => {
    const p = normalizePosition(positionInput({ opened_at: T - 2 * H }));
    expect(p.daily_pnl).toBe(1_000);
    expect(p.weekly_pnl).toBe(1_000);
    const q = normalizePosition(positionInput({ opened_at: T - 3 * 24 * H }));
    expect(q.daily_pnl).toBe(500);
    expect(q.weekly_pnl).toBe(1_000);
  });

  it('prices an inverse (coin-margined) contract in the base coin', () => {
    const p = normalizePosition(
      positionInput({
        contract_type: 'inverse',
        settlement_currency: 'BTC',
        size: 10_000,
        entry_price: 50_000,
        mark_price: 40_000,
        usd_rate: 40_000,
        side: 'short',
        margin: 0.05,
        maintenance_margin: null,
        liquidation_price: 60_000,
      }),
    );
    expect(p.market_value).toBe(0.25);
    expect(p.unrealized_pnl).toBe(0.05); // 10,000 * (1/40,000 - 1/50,000)
    expect(p.unrealized_pnl_usd).toBe(2_000);
    expect(p.distance_to_liquidation).toBe(50);
  });

  it('rejects malformed records with a typed error naming the row', () => {
    expectInputError(() => normalizePosition(positionInput({ size: 0 })), 'invalid_option');
    expectInputError(() => normalizePosition(positionInput({ side: 'up' as 'long' })), 'invalid_option');
    expectInputError(() => normalizePosition(positionInput({ mark_price: Number.NaN })), 'non_finite');
    expectInputError(() => normalizePosition(positionInput({ opened_at: 1e20 })), 'invalid_option');
    expectInputError(() => normalizePosition(positionInput({ pair: '' })), 'invalid_option');
    expectInputError(() => normalizePositions([positionInput(), null as unknown as PositionInput]), 'invalid_option');
    expectInputError(() => normalizePositions('x' as unknown as PositionInput[]), 'invalid_option');
  });
});

const price = fc.double({ min: 0.0001, max: 1e6, noNaN: true });
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null });
// a zero price reads as unknown: one in five, so that most positions are priced
const priceOrZero = fc.oneof({ weight: 4, arbitrary: price }, { weight: 1, arbitrary: fc.constant(0) });
const positionArb: fc.Arbitrary<PositionInput> = fc
  .record({
    side: fc.constantFrom<'long' | 'short' | null>('long', 'short', null),
    size: fc.double({ min: 1e-6, max: 1e5, noNaN: true }),
    contract_type: fc.constantFrom<'linear' | 'inverse'>('linear', 'inverse'),
    entry_price: maybe(priceOrZero),
    mark_price: maybe(priceOrZero),
    price_24h_ago: maybe(price),
    price_7d_ago: maybe(price),
    usd_rate: maybe(price),
    margin: maybe(fc.double({ min: 0, max: 1e6, noNaN: true })),
    maintenance_margin: maybe(fc.double({ min: 0, max: 1e5, noNaN: true })),
    liquidation_price: maybe(price),
    opened_at: maybe(fc.integer({ min: T - 30 * 24 * H, max: T })),
    stop_loss: maybe(fc.oneof(price, fc.constant(0))),
  })
  .map((r) => positionInput(r));
/** Positions with both prices known: the PnL is defined. */
const pricedArb: fc.Arbitrary<PositionInput> = fc
  .tuple(positionArb, price, price)
  .map(([v, entry_price, mark_price]) => ({ ...v, entry_price, mark_price }));

describe('normalizePosition properties', () => {
  it('never puts NaN or Infinity in the output, and never 0 for an unpriced figure', () => {
    const priced = reach('a priced position');
    priced.assert(
      fc.property(positionArb, (v) => {
        const p = normalizePosition(v);
        priced.hitIf(p.current_price !== null);
        for (const [k, x] of Object.entries(p)) {
          if (typeof x === 'number') expect(Number.isFinite(x), k).toBe(true);
        }
        if (p.current_price === null) for (const k of UNPRICED_NULL) expect(p[k], k).toBeNull();
        expect(p.stop_loss === null || p.stop_loss > 0).toBe(true);
      }),
      // unpriced positions (null or zero prices) are under test too: half the draws are priced
      { numRuns: 500, atLeast: 0.5 },
    );
  });

  it('mirrors: the short of the same data has the negated PnL and the same notional', () => {
    const mirrored = reach('a priced PnL');
    mirrored.assert(
      fc.property(positionArb, (v) => {
        const long = normalizePosition({ ...v, side: 'long' });
        const short = normalizePosition({ ...v, side: 'short' });
        const neg = (x: number | null): number | null => (x === null ? null : -x || 0);
        mirrored.hitIf(long.unrealized_pnl !== null);
        expect(short.unrealized_pnl).toBe(neg(long.unrealized_pnl));
        expect(short.unrealized_pnl_usd).toBe(neg(long.unrealized_pnl_usd));
        expect(short.daily_pnl).toBe(neg(long.daily_pnl));
        expect(short.weekly_pnl_usd).toBe(neg(long.weekly_pnl_usd));
        expect(short.market_value).toBe(long.market_value);
        expect(short.distance_to_liquidation).toBe(neg(long.distance_to_liquidation));
      }),
      // a PnL needs a side and both prices: a quarter of the draws at least
      { numRuns: 300, atLeast: 0.25 },
    );
  });

  it('PnL is the exact decimal product rounded once', () => {
    const exact = reach('a priced PnL');
    exact.assert(
      fc.property(pricedArb, (v) => {
        const p = normalizePosition({ ...v, contract_type: 'linear', side: 'long' });
        if (p.unrealized_pnl === null || p.current_price === null || p.entry_price === null) return;
        exact.hit();
        const D = Decimal.clone({ precision: 100 });
        const ref = new D(p.current_price).minus(p.entry_price).times(v.size).toNumber();
        expect(p.unrealized_pnl).toBe(ref || 0);
      }),
      { numRuns: 300 },
    );
  });
});
