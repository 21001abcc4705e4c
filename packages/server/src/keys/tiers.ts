import { randomUUID } from 'node:crypto';
import { forgetUser } from '../auth/session-cache.js';
import type { GrantSource, Storage, Tier, TierGrantRecord } from '../storage/types.js';

const RANK: Record<Tier, number> = { free: 0, pro: 1, elite: 2 };
const DAY_MS = 86_400_000;

/** Daily API-key allowance per tier. */
export const API_KEY_DAILY_ALLOWANCE: Readonly<Record<Tier, number>> = { free: 100, pro: 1000, elite: 5000 };

/** Length of the Pro grant a claimed promotion gives. */
export const PROMOTION_PRO_DAYS = 30;

export interface TierStanding {
  tier: Tier;
  /** The grant that lifts the user above the base tier, if any. */
  grant: TierGrantRecord | null;
}

export function isAtLeast(tier: Tier, floor: Tier): boolean {
  return RANK[tier] >= RANK[floor];
}

/** The effective tier: the higher of the base tier and every grant still valid at `now`. */
export async function tierStanding(
  storage: Storage,
  userId: string,
  baseTier: Tier,
  now: number,
): Promise<TierStanding> {
  let tier = baseTier;
  let grant: TierGrantRecord | null = null;
  for (const g of await storage.grants.active(userId, now)) {
    if (RANK[g.tier] > RANK[tier] || (grant && g.tier === tier && g.expires_at > grant.expires_at)) {
      tier = g.tier;
      grant = g;
    }
  }
  return { tier, grant };
}

/** Grants `tier` for `days` days from `now` (e.g. 30 days of Pro from a promotion, affiliate Elite). */
export async function grantTier(
  storage: Storage,
  userId: string,
  tier: Tier,
  source: GrantSource,
  days: number,
  now: number,
): Promise<TierGrantRecord> {
  const grant: TierGrantRecord = {
    id: randomUUID(),
    user_id: userId,
    tier,
    source,
    granted_at: now,
    expires_at: now + days * DAY_MS,
  };
  await storage.grants.create(grant);
  forgetUser(userId);
  return grant;
}
