/**
 * Admin use cases of accounts (the `marketlens admin user` commands): find a user by email or id,
 * set the base tier, grant a tier for some days, disable and enable an account.
 */
import type { GrantSource, Storage, Tier, TierGrantRecord, UserRecord } from '../storage/types.js';
import { forgetUser } from './session-cache.js';
import { grantTier } from './tiers.js';
import { normalizeEmail } from './users.js';

/** The user an admin names by email or id; throws when there is none. */
export async function userOf(storage: Storage, emailOrId: string): Promise<UserRecord> {
  const user = (await storage.users.byEmail(normalizeEmail(emailOrId))) ?? (await storage.users.byId(emailOrId));
  if (!user) throw new Error(`No user ${emailOrId}`);
  return user;
}

/** Admin: sets a user's base tier by email or id. Throws when no such user exists. */
export async function setUserTier(storage: Storage, emailOrId: string, tier: Tier): Promise<UserRecord> {
  const user = await userOf(storage, emailOrId);
  await storage.users.setTier(user.id, tier);
  forgetUser(user.id);
  return { ...user, tier };
}

/** Admin: grants `tier` for `days` days (a promotion's 30 days of Pro, affiliate Elite, a courtesy grant). */
export async function grantUserTier(
  storage: Storage,
  emailOrId: string,
  tier: Tier,
  days: number,
  source: GrantSource = 'admin',
  now: number = Date.now(),
): Promise<TierGrantRecord> {
  const user = await userOf(storage, emailOrId);
  return grantTier(storage, user.id, tier, source, days, now);
}

/** What disabling or enabling a user did. */
export interface UserStatusChange {
  user: UserRecord;
  /** Sessions ended (disable only; enabling restores none). */
  sessions: number;
  /** OAuth tokens revoked (disable only). */
  oauth_tokens: number;
  /** False when the account already was in the state asked for (nothing changed). */
  changed: boolean;
}

/**
 * Admin: disables a user by email or id. The account cannot sign in (403 `AccountDisabled`), every
 * session and OAuth token of it ends now, its API keys are refused while it is disabled (kept, not
 * revoked), and its scheduled work (connection syncs, alerts, pushes) is skipped. Disabling again
 * keeps the first time and ends whatever session appeared since. Throws when no such user exists.
 */
export async function disableUser(
  storage: Storage,
  emailOrId: string,
  now: number = Date.now(),
): Promise<UserStatusChange> {
  const user = await userOf(storage, emailOrId);
  // Flagged first: a sign-in racing with this is refused by the flag once its session is read.
  await storage.users.setDisabled(user.id, now);
  const sessions = await storage.sessions.deleteByUser(user.id);
  const oauth_tokens = await storage.oauth.revokeUserTokens(user.id, now);
  forgetUser(user.id);
  const after = (await storage.users.byId(user.id)) ?? { ...user, disabled_at: now };
  return { user: after, sessions, oauth_tokens, changed: (user.disabled_at ?? null) === null };
}

/**
 * Admin: enables a disabled user again: sign-in works and the API keys that were active work again
 * (sessions and OAuth tokens ended by the disable stay ended); syncs and alerts due meanwhile run at
 * their next tick. Throws when no such user exists.
 */
export async function enableUser(storage: Storage, emailOrId: string): Promise<UserStatusChange> {
  const user = await userOf(storage, emailOrId);
  await storage.users.setDisabled(user.id, null);
  forgetUser(user.id);
  const after = (await storage.users.byId(user.id)) ?? { ...user, disabled_at: null };
  return { user: after, sessions: 0, oauth_tokens: 0, changed: (user.disabled_at ?? null) !== null };
}
