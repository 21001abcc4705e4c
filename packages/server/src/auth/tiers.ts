/**
 * A caller's standing, in one place: tiers and their grants, the API key a request presents, and
 * the daily API-key allowance of each tier with its one counting rule (a call is counted only while
 * the day's count is below the tier's limit; the day is the UTC calendar day). Both engines that
 * count (`storage/sql/users.ts` in SQL, `platform/redis/allowance.ts` in Lua) implement that rule,
 * and `allowance-engines.test.ts` runs one table of cases against both.
 */
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type {
  ApiKeyRecord,
  ApiUsageRepository,
  GrantSource,
  Storage,
  Tier,
  TierGrantRecord,
} from '../storage/types.js';
import { secretHash } from './secrets.js';
import { forgetUser } from './session-cache.js';

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

/** Whether a key is active at `now`: not revoked, not expired. */
export function isKeyActive(k: ApiKeyRecord, now: number): boolean {
  return k.revoked_at === null && (k.expires_at === null || k.expires_at > now);
}

/** The active key record of a presented key, or null. */
export async function apiKeyRecord(storage: Storage, key: string, now: number): Promise<ApiKeyRecord | null> {
  const k = await storage.apiKeys.byHash(secretHash(key));
  return k && isKeyActive(k, now) ? k : null;
}

/**
 * The daily allowance's counting rule, the one both engines implement (`sqlApiUsage` in SQL,
 * `RedisAllowance` in Lua): a call is admitted and counted only while the day's count is below the
 * limit; a refused call is not counted, so the count never passes the limit. Returns the count
 * after the call, or null when it is refused.
 */
export function countCall(used: number, limit: number): number | null {
  return used < limit ? used + 1 : null;
}

/** The UTC calendar day of `now` (the allowance resets at 00:00 UTC). */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

function nextUtcMidnight(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
}

export interface Credits {
  tier: Tier;
  daily_limit: number;
  used_today: number;
  remaining_today: number;
  resets_at: string;
}

/** Where the daily API-key calls are counted: shared by every instance when Redis is configured. */
export function usageOf(deps: Pick<AppDeps, 'storage' | 'shared'>): ApiUsageRepository {
  return deps.shared?.usage ?? deps.storage.apiUsage;
}

/** Meters one API-key call against the owner's daily allowance; 429 with retry-after when spent. */
export async function consumeAllowance(
  usage: ApiUsageRepository,
  userId: string,
  tier: Tier,
  now: number,
): Promise<Credits> {
  const limit = API_KEY_DAILY_ALLOWANCE[tier];
  const used = await usage.consume(userId, utcDay(now), limit);
  const reset = nextUtcMidnight(now);
  if (used === null) {
    throw new AppError('ApiKeyAllowanceExceeded', `Daily API-key allowance of ${limit} calls is used up`, {
      'retry-after': String(Math.ceil((reset - now) / 1000)),
    });
  }
  return {
    tier,
    daily_limit: limit,
    used_today: used,
    remaining_today: limit - used,
    resets_at: new Date(reset).toISOString(),
  };
}

/** The owner's allowance of today: limit, calls counted, what remains and when it resets. */
export async function credits(usage: ApiUsageRepository, userId: string, tier: Tier, now: number): Promise<Credits> {
  const limit = API_KEY_DAILY_ALLOWANCE[tier];
  const used = Math.min(limit, await usage.used(userId, utcDay(now)));
  return {
    tier,
    daily_limit: limit,
    used_today: used,
    remaining_today: limit - used,
    resets_at: new Date(nextUtcMidnight(now)).toISOString(),
  };
}
