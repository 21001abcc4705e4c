import { describe, expect, it } from 'vitest';
import { DAY, seedBybitPromotion, seedConnection, seedFills, seedUser } from '../../test/support/promotions.js';
import { tierStanding } from '../auth/tiers.js';
import { AppError } from '../platform/errors/app-error.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { Storage } from '../storage/types.js';
import { signUp, signUpShown } from './signup.js';
import { readVolumeStanding } from './volume.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const THRESHOLD = 10_000;

/**
 * A promotion not yet claimed: every precondition the sign-up (POST) checks, with the state
 * before and after. `other` prepares another account (a UID used elsewhere).
 */
interface ClaimCase {
  name: string;
  invited: boolean;
  claimedBefore: boolean;
  uidUsedByOther: boolean;
  expect: { status: 200 } | { status: 422; code: string };
}

const CLAIM_CASES: ClaimCase[] = [
  {
    name: 'invited, not claimed, UID unused: claimed',
    invited: true,
    claimedBefore: false,
    uidUsedByOther: false,
    expect: { status: 200 },
  },
  {
    name: 'not invited: unchanged, 422',
    invited: false,
    claimedBefore: false,
    uidUsedByOther: false,
    expect: { status: 422, code: 'PromotionNotInvited' },
  },
  {
    name: 'already claimed: unchanged, 422',
    invited: true,
    claimedBefore: true,
    uidUsedByOther: false,
    expect: { status: 422, code: 'PromotionClaimed' },
  },
  {
    name: 'UID used by another account: unchanged, 422',
    invited: true,
    claimedBefore: false,
    uidUsedByOther: true,
    expect: { status: 422, code: 'PromotionUidUsed' },
  },
  {
    name: 'not invited and UID used: not invited wins',
    invited: false,
    claimedBefore: false,
    uidUsedByOther: true,
    expect: { status: 422, code: 'PromotionNotInvited' },
  },
  {
    name: 'claimed and UID used: already claimed wins',
    invited: true,
    claimedBefore: true,
    uidUsedByOther: true,
    expect: { status: 422, code: 'PromotionClaimed' },
  },
];

const UID = '123456789';

async function claimState(storage: Storage, promotionId: string, userId: string) {
  const claim = await storage.promotions.claimOf(promotionId, userId);
  const tier = (await tierStanding(storage, userId, 'free', NOW + 1)).tier;
  const grants = await storage.grants.active(userId, NOW + 1);
  return { claimed: claim !== null, tier, grants: grants.length };
}

describe('promotion unclaimed -> claimed | unchanged (POST sign-up check)', () => {
  it.each(CLAIM_CASES)('$name', async (c) => {
    const storage = createSqliteStorage(':memory:');
    const promotion = await seedBybitPromotion(storage, NOW);
    const user = await seedUser(storage, 'me@example.com', NOW);
    const other = await seedUser(storage, 'other@example.com', NOW);
    await storage.promotions.invite({ promotion_id: promotion.id, user_id: other, invited_at: NOW });
    if (c.uidUsedByOther) await signUp(storage, other, 'bybit', UID, NOW);
    if (c.invited) await storage.promotions.invite({ promotion_id: promotion.id, user_id: user, invited_at: NOW });
    if (c.claimedBefore) await signUp(storage, user, 'bybit', '555555555', NOW);
    const before = await claimState(storage, promotion.id, user);

    const attempt = signUp(storage, user, 'bybit', UID, NOW);
    if (c.expect.status === 200) {
      const result = await attempt;
      expect(result).toMatchObject({ verified: true, connection_id: 'bybit', uid: UID, tier: 'pro' });
      expect(Date.parse(result.expires_at) - Date.parse(result.granted_at)).toBe(30 * DAY);
      expect(before).toEqual({ claimed: false, tier: 'free', grants: 0 });
      expect(await claimState(storage, promotion.id, user)).toEqual({ claimed: true, tier: 'pro', grants: 1 });
      expect(await signUpShown(storage, user, 'bybit')).toBe(false);
      // 30 days of Pro: in force one ms before the end, gone at the end.
      expect((await tierStanding(storage, user, 'free', NOW + 30 * DAY - 1)).tier).toBe('pro');
      expect((await tierStanding(storage, user, 'free', NOW + 30 * DAY)).tier).toBe('free');
    } else {
      const err = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect([(err as AppError).status, (err as AppError).code]).toEqual([c.expect.status, c.expect.code]);
      expect(await claimState(storage, promotion.id, user)).toEqual(before);
    }
  });
});

/** The affiliate-earned Elite grant: granted when the 30-day affiliate volume qualifies, and the cases around it the standing implies. */
interface GrantCase {
  name: string;
  /** Connection venue, or null for none. */
  venue: string | null;
  /** Notional of one USDT fill inside the window. */
  notional: number;
  heldBefore: boolean;
  expect: { qualifies: boolean; granted: boolean; newGrant: boolean };
}

const GRANT_CASES: GrantCase[] = [
  {
    name: 'absent, qualifies: grant held',
    venue: 'bybit',
    notional: 10_000,
    heldBefore: false,
    expect: { qualifies: true, granted: true, newGrant: true },
  },
  {
    name: 'absent, below threshold: still absent',
    venue: 'bybit',
    notional: 9_999.99,
    heldBefore: false,
    expect: { qualifies: false, granted: false, newGrant: false },
  },
  {
    name: 'absent, no affiliate connection: still absent',
    venue: 'kraken',
    notional: 50_000,
    heldBefore: false,
    expect: { qualifies: false, granted: false, newGrant: false },
  },
  {
    name: 'absent, no connection at all: still absent',
    venue: null,
    notional: 0,
    heldBefore: false,
    expect: { qualifies: false, granted: false, newGrant: false },
  },
  {
    name: 'held, qualifies: unchanged (no second grant)',
    venue: 'okx',
    notional: 20_000,
    heldBefore: true,
    expect: { qualifies: true, granted: true, newGrant: false },
  },
  {
    name: 'held, no longer qualifies: kept until it expires',
    venue: 'bybit',
    notional: 10,
    heldBefore: true,
    expect: { qualifies: false, granted: true, newGrant: false },
  },
];

describe('affiliate-earned Elite grant absent -> held (volume standing)', () => {
  it.each(GRANT_CASES)('$name', async (c) => {
    const storage = createSqliteStorage(':memory:');
    const user = await seedUser(storage, 'trader@example.com', NOW);
    if (c.venue !== null) {
      const conn = await seedConnection(storage, user, c.venue, NOW);
      const pair = c.venue === 'okx' ? 'BTC-USDT-SWAP' : 'BTCUSDT';
      await seedFills(storage, user, conn, c.venue, [[pair, c.notional / 2, 2, NOW - DAY]], NOW);
    }
    let earlier: number | null = null;
    if (c.heldBefore) {
      const g = await storage.affiliateGrants.grantIfAbsent(
        {
          id: 'g0',
          user_id: user,
          tier: 'elite',
          source: 'affiliate',
          granted_at: NOW - 5 * DAY,
          expires_at: NOW + 25 * DAY,
        },
        NOW - 5 * DAY,
      );
      earlier = g.expires_at;
    }
    const standing = await readVolumeStanding(storage, user, NOW, THRESHOLD);
    expect(standing.qualifies).toBe(c.expect.qualifies);
    expect(standing.granted_via_promotion).toBe(c.expect.granted);
    const grants = (await storage.grants.active(user, NOW)).filter((g) => g.source === 'affiliate');
    expect(grants).toHaveLength(c.expect.granted ? 1 : 0);
    if (!c.expect.granted) expect(standing.promotion_expires_at).toBeNull();
    else if (c.expect.newGrant) {
      expect(standing.promotion_expires_at).toBe(new Date(NOW + 30 * DAY).toISOString());
      expect((await tierStanding(storage, user, 'free', NOW)).tier).toBe('elite');
    } else expect(standing.promotion_expires_at).toBe(new Date(earlier ?? 0).toISOString());
    // Idempotent: reading again grants nothing more.
    await readVolumeStanding(storage, user, NOW + 1000, THRESHOLD);
    expect((await storage.grants.active(user, NOW)).filter((g) => g.source === 'affiliate')).toHaveLength(
      grants.length,
    );
  });

  it('an expired affiliate grant is absent again: a qualifying read grants a new one', async () => {
    const storage = createSqliteStorage(':memory:');
    const user = await seedUser(storage, 'again@example.com', NOW);
    const conn = await seedConnection(storage, user, 'bybit', NOW);
    await seedFills(storage, user, conn, 'bybit', [['BTCUSDT', 50_000, 1, NOW - DAY]], NOW);
    const first = await readVolumeStanding(storage, user, NOW, THRESHOLD);
    const later = NOW + 30 * DAY;
    await seedFills(storage, user, conn, 'bybit', [['BTCUSDT', 50_000, 1, later - DAY]], later);
    const second = await readVolumeStanding(storage, user, later, THRESHOLD);
    expect(first.promotion_expires_at).toBe(new Date(later).toISOString());
    expect(second.promotion_expires_at).toBe(new Date(later + 30 * DAY).toISOString());
  });
});
