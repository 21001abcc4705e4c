import { randomUUID } from 'node:crypto';
import { UID_FORMAT } from '@marketlens/contract';
import { forgetUser } from '../auth/session-cache.js';
import { PROMOTION_PRO_DAYS } from '../auth/tiers.js';
import { AppError } from '../platform/errors/app-error.js';
import type { ClaimRejection, PromotionRecord } from '../storage/promotions-types.js';
import type { Storage, TierGrantRecord } from '../storage/types.js';

const DAY_MS = 86_400_000;

/** The claim a verified sign-up produced. */
export interface SignUpResult {
  verified: true;
  connection_id: string;
  uid: string;
  tier: 'pro';
  granted_at: string;
  expires_at: string;
}

const REJECTIONS: Record<
  ClaimRejection,
  { name: 'PromotionNotInvited' | 'PromotionClaimed' | 'PromotionUidUsed'; text: string }
> = {
  not_invited: { name: 'PromotionNotInvited', text: 'This account was not invited to the promotion' },
  already_claimed: { name: 'PromotionClaimed', text: 'This account already claimed the promotion' },
  uid_used: { name: 'PromotionUidUsed', text: 'This UID was already used to claim the promotion' },
};

/** The form a UID is stored and compared in: trimmed; hex addresses lowercased (they are case-insensitive). */
export function normalizeUid(uid: string): string {
  const t = uid.trim();
  return /^0x[0-9a-f]{40}$/i.test(t) ? t.toLowerCase() : t;
}

/** The first validation of the promotion the UID fails, or null when it passes them all. */
export function uidProblem(promotion: PromotionRecord, uid: string): string | null {
  for (const v of promotion.validations) {
    if (v.field !== 'uid') continue;
    if (!new RegExp(`^(?:${v.pattern})$`).test(uid)) return v.message;
  }
  return null;
}

async function promotionOf(storage: Storage, exchangeId: string): Promise<PromotionRecord> {
  const promotion = await storage.promotions.byExchange(exchangeId);
  if (promotion === null) throw new AppError('PromotionNotFound', `No promotion for '${exchangeId}'`);
  return promotion;
}

/**
 * `GET /v1/promotions/{connection_id}/sign_up`: whether to show the sign-up form, i.e. the user is
 * invited and has not claimed. An exchange without a promotion shows nothing (false, not 404).
 */
export async function signUpShown(storage: Storage, userId: string, exchangeId: string): Promise<boolean> {
  const promotion = await storage.promotions.byExchange(exchangeId);
  if (promotion === null) return false;
  const [invitation, claim] = await Promise.all([
    storage.promotions.invitation(promotion.id, userId),
    storage.promotions.claimOf(promotion.id, userId),
  ]);
  return invitation !== null && claim === null;
}

/**
 * `POST /v1/promotions/{connection_id}/sign_up`: an invited account that has not claimed,
 * with a UID nobody used on this exchange, claims the promotion and receives 30 days of Pro; else
 * 422 with the reason's code and nothing changes. A UID failing the promotion's format check is 400.
 */
export async function signUp(
  storage: Storage,
  userId: string,
  exchangeId: string,
  rawUid: string,
  now: number,
): Promise<SignUpResult> {
  const promotion = await promotionOf(storage, exchangeId);
  const uid = normalizeUid(rawUid);
  if (!UID_FORMAT.test(uid)) throw new AppError('PromotionUidInvalid', 'uid must be 1..64 printable characters');
  const problem = uidProblem(promotion, uid);
  if (problem !== null) throw new AppError('PromotionUidInvalid', `Invalid uid: ${problem}`);
  const grant: TierGrantRecord = {
    id: randomUUID(),
    user_id: userId,
    tier: 'pro',
    source: 'promotion',
    granted_at: now,
    expires_at: now + PROMOTION_PRO_DAYS * DAY_MS,
  };
  const outcome = await storage.promotions.claim(
    {
      id: randomUUID(),
      promotion_id: promotion.id,
      connection_id: promotion.connection_id,
      user_id: userId,
      uid,
      claimed_at: now,
      grant_id: grant.id,
    },
    grant,
  );
  if (!outcome.ok) {
    const r = REJECTIONS[outcome.reason];
    throw new AppError(r.name, r.text);
  }
  // The effective tier changed: drop cached sessions of the user so the next call sees Pro.
  forgetUser(userId);
  return {
    verified: true,
    connection_id: promotion.connection_id,
    uid,
    tier: 'pro',
    granted_at: new Date(outcome.grant.granted_at).toISOString(),
    expires_at: new Date(outcome.grant.expires_at).toISOString(),
  };
}
