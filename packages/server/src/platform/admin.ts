import { forgetUser } from '../auth/session-cache.js';
import { grantTier } from '../auth/tiers.js';
import { normalizeEmail, openSession, type SessionGrant, signup } from '../auth/users.js';
import { createApiKey } from '../keys/api-keys.js';
import type { PilotAccessRecord } from '../storage/plans-types.js';
import type { GrantSource, Storage, Tier, TierGrantRecord, UserRecord } from '../storage/types.js';
import { AppError } from './errors/app-error.js';

/** The user an admin names by email or id; throws when there is none. */
async function userOf(storage: Storage, emailOrId: string): Promise<UserRecord> {
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

/** Longest pilot grant an operator may give. */
export const PILOT_GRANT_MAX_DAYS = 3650;
const DAY_MS = 86_400_000;

/**
 * Admin: lets a user spectate the pilot for `days` days whatever their affiliate volume (an
 * operator, a partner, the demo). Granting again replaces the earlier grant. Throws when no such user exists.
 */
export async function grantPilotAccess(
  storage: Storage,
  emailOrId: string,
  days: number,
  now: number = Date.now(),
): Promise<PilotAccessRecord & { email: string }> {
  if (!Number.isInteger(days) || days < 1 || days > PILOT_GRANT_MAX_DAYS) {
    throw new Error(`days must be an integer 1..${PILOT_GRANT_MAX_DAYS}`);
  }
  const user = await userOf(storage, emailOrId);
  const access = { user_id: user.id, granted_at: now, expires_at: now + days * DAY_MS };
  await storage.pilot.grantAccess(access);
  return { ...access, email: user.email };
}

/** Admin: ends a user's pilot grant (their affiliate volume may still qualify them); false when none was in force. */
export async function revokePilotAccess(storage: Storage, emailOrId: string): Promise<boolean> {
  const user = await userOf(storage, emailOrId);
  return storage.pilot.revokeAccess(user.id);
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

export const DEMO_EMAIL = 'demo@marketlens.local';
/** Days of pilot access the demo user gets at every start of the embedded default. */
export const DEMO_PILOT_DAYS = 30;

export interface DemoCredentials {
  email: string;
  password: string;
  session_token: string;
  api_key: string;
}

/**
 * Ensures the demo user exists and returns a fresh session token and API key for it.
 * The password is random per data folder run; the printed token is how one signs in.
 */
export async function seedDemo(storage: Storage, now: number = Date.now()): Promise<DemoCredentials> {
  const password = `demo-${Math.random().toString(36).slice(2)}-${now.toString(36)}`;
  let grant: SessionGrant;
  try {
    grant = await signup(storage, DEMO_EMAIL, password, now);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'EmailAlreadyRegistered') throw err;
    // Existing demo user: its earlier demo sessions end (one live demo session, not one per
    // start), then a session opens directly (its password is not kept).
    const user = await storage.users.byEmail(DEMO_EMAIL);
    if (!user) throw err;
    await storage.sessions.deleteByUser(user.id);
    grant = await openSession(storage, user, now);
  }
  // The demo address is ours: it counts as verified, should verification be turned on.
  await storage.users.markVerified(grant.user.id, now);
  // The demo can spectate the pilot (no affiliate volume needed), as an operator's grant allows.
  await grantPilotAccess(storage, grant.user.id, DEMO_PILOT_DAYS, now);
  const keys = await storage.apiKeys.listByUser(grant.user.id);
  for (const k of keys)
    if (k.name === 'demo' && k.revoked_at === null) await storage.apiKeys.revoke(grant.user.id, k.id, now);
  const { key } = await createApiKey(storage, grant.user.id, { name: 'demo' }, now);
  return { email: DEMO_EMAIL, password, session_token: grant.token, api_key: key };
}
