import { describe, expect, it } from 'vitest';
import { DAY, seedConnection, seedFills, seedUser } from '../../test/support/promotions.js';
import {
  addExact,
  compareExact,
  EXACT_ZERO,
  exactOf,
  exactText,
  exactToNumber,
  mulExact,
} from '../platform/decimal.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { affiliateThresholdFromEnv, affiliateThresholdUsd } from './config.js';
import { pilotEligible } from './eligibility.js';
import { affiliateExchangeIds, readVolumeStanding, usdQuoted, volumeFigures } from './volume.js';

const NOW = Date.UTC(2026, 0, 15, 12);

describe('exact decimals', () => {
  it('reads doubles by their shortest form and sums exactly', () => {
    expect(exactText(exactOf(0.1))).toBe('0.1');
    expect(exactText(exactOf(1e-7))).toBe('0.0000001');
    expect(exactText(exactOf(1.5e21))).toBe('1500000000000000000000');
    expect(exactText(exactOf(-2.5))).toBe('-2.5');
    // 0.1 * 3 + 0.2 * 3 is 0.9000000000000001 in doubles.
    const sum = addExact(mulExact(exactOf(0.1), exactOf(3)), mulExact(exactOf(0.2), exactOf(3)));
    expect(exactToNumber(sum)).toBe(0.9);
    expect(compareExact(sum, exactOf(0.9))).toBe(0);
    expect(compareExact(EXACT_ZERO, exactOf(-0.1))).toBe(1);
    expect(() => exactOf(Number.NaN)).toThrow(RangeError);
  });
});

describe('which fills count', () => {
  it.each([
    ['BTCUSDT', 'bybit', 'spot', true],
    ['BTC-USDT-SWAP', 'okx', 'derivatives', true],
    ['BTC/USDC', 'coinbase', 'spot', true],
    ['BTC-USD', 'coinbase', 'spot', true],
    ['BTC', 'hyperliquid', 'derivatives', true],
    ['BTC', 'hyperliquid', 'spot', false],
    ['ETHBTC', 'binance', 'spot', false],
    ['BTC-EUR', 'coinbase', 'spot', false],
  ] as const)('%s on %s (%s): %s', (pair, venue, market_type, counted) => {
    expect(usdQuoted({ pair, venue, market_type })).toBe(counted);
  });

  it('affiliate exchanges are the catalog venues with a referral link', () => {
    const ids = affiliateExchangeIds();
    expect(ids.has('bybit')).toBe(true);
    expect(ids.has('kraken')).toBe(false);
    expect(ids.has('marketlens-sim')).toBe(false);
  });
});

describe('volume figures', () => {
  it('sums 30 days of USD-quoted fills per affiliate exchange, exactly', async () => {
    const storage = createSqliteStorage(':memory:');
    const user = await seedUser(storage, 'v@example.com', NOW);
    const other = await seedUser(storage, 'o@example.com', NOW);
    const bybit1 = await seedConnection(storage, user, 'bybit', NOW);
    const bybit2 = await seedConnection(storage, user, 'bybit', NOW);
    const okx = await seedConnection(storage, user, 'okx', NOW);
    const kraken = await seedConnection(storage, user, 'kraken', NOW);
    const otherBybit = await seedConnection(storage, other, 'bybit', NOW);
    await seedFills(
      storage,
      user,
      bybit1,
      'bybit',
      [
        ['BTCUSDT', 0.1, 3, NOW - DAY],
        ['BTCUSDT', 0.2, 3, NOW - 30 * DAY], // the window's first instant: counted
        ['BTCUSDT', 1000, 1, NOW - 30 * DAY - 1], // just before: not
        ['ETHBTC', 0.05, 10, NOW - DAY], // not USD-quoted: uncounted
      ],
      NOW,
    );
    await seedFills(storage, user, bybit2, 'bybit', [['ETHUSDC', 2000, 0.5, NOW - 2 * DAY]], NOW);
    await seedFills(storage, user, okx, 'okx', [['BTC-USDT-SWAP', 50_000, 0.01, NOW]], NOW);
    await seedFills(storage, user, kraken, 'kraken', [['XBTUSD', 50_000, 10, NOW - DAY]], NOW);
    await seedFills(storage, other, otherBybit, 'bybit', [['BTCUSDT', 50_000, 10, NOW - DAY]], NOW);

    const f = await volumeFigures(storage, user, NOW, 1500.9);
    expect(f.per_exchange).toEqual([
      {
        connection_id: 'bybit',
        name: 'Bybit',
        accounts: 2,
        volume_30d_usd: 1000.9,
        counted_fills: 3,
        uncounted_fills: 1,
      },
      { connection_id: 'okx', name: 'OKX', accounts: 1, volume_30d_usd: 500, counted_fills: 1, uncounted_fills: 0 },
    ]);
    expect(f.total_30d_usd).toBe(1500.9);
    expect(f.threshold_usd).toBe(1500.9);
    // Exactly at the threshold qualifies (>=).
    expect(f.qualifies).toBe(true);
    expect((await volumeFigures(storage, user, NOW, 1500.91)).qualifies).toBe(false);
    expect(await pilotEligible(storage, user, NOW, { thresholdUsd: 1500.9 })).toBe(true);
    expect(await pilotEligible(storage, user, NOW)).toBe(false);
  });

  it('an affiliate connection without fills reports zero; no connection: an empty list', async () => {
    const storage = createSqliteStorage(':memory:');
    const user = await seedUser(storage, 'z@example.com', NOW);
    expect(await readVolumeStanding(storage, user, NOW, 10_000)).toEqual({
      per_exchange: [],
      total_30d_usd: 0,
      threshold_usd: 10_000,
      qualifies: false,
      granted_via_promotion: false,
      promotion_expires_at: null,
    });
    await seedConnection(storage, user, 'binance', NOW);
    const f = await volumeFigures(storage, user, NOW, 0);
    expect(f.per_exchange).toEqual([
      {
        connection_id: 'binance',
        name: 'Binance',
        accounts: 1,
        volume_30d_usd: 0,
        counted_fills: 0,
        uncounted_fills: 0,
      },
    ]);
    // A threshold of 0 with an affiliate connection qualifies; without one nothing does.
    expect(f.qualifies).toBe(true);
  });
});

describe('threshold config', () => {
  it('defaults to 10,000 USD and reads the environment strictly', () => {
    expect(affiliateThresholdUsd({})).toBe(10_000);
    expect(affiliateThresholdUsd({ affiliateVolumeThresholdUsd: 250 })).toBe(250);
    expect(affiliateThresholdFromEnv({})).toBe(10_000);
    expect(affiliateThresholdFromEnv({ MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD: ' 25000.5 ' })).toBe(25_000.5);
    for (const bad of ['-1', 'x', '1e5', 'Infinity'])
      expect(() => affiliateThresholdFromEnv({ MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD: bad })).toThrow(/must be/);
  });
});
