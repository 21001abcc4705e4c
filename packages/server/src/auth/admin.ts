/**
 * Admin use cases of accounts (the `marketlens admin user` commands): find a user by email or id,
 * set the base tier, grant a tier for some days, disable and enable an account; and the operator's
 * operations over them (`admin.*` of the registry, {@link authAdminUseCases}).
 */
import type { AdminUser } from '@marketlens/contract';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { GrantSource, Storage, Tier, TierGrantRecord, UserRecord } from '../storage/types.js';
import { forgetUser } from './session-cache.js';
import { grantTier, tierStanding } from './tiers.js';
import { normalizeEmail } from './users.js';

/** The user an admin names by email or id; throws `NotFound` when there is none. */
export async function userOf(storage: Storage, emailOrId: string): Promise<UserRecord> {
  const user = (await storage.users.byEmail(normalizeEmail(emailOrId))) ?? (await storage.users.byId(emailOrId));
  if (!user) throw new AppError('NotFound', `No user ${emailOrId}`);
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

/** A user as the operator sees it at `now`: base and effective tier, the grant in force; never the password hash. */
export async function adminUserView(storage: Storage, user: UserRecord, now: number): Promise<AdminUser> {
  const standing = await tierStanding(storage, user.id, user.tier, now);
  return {
    id: user.id,
    email: user.email,
    tier: user.tier,
    effective_tier: standing.tier,
    grant:
      standing.grant === null
        ? null
        : { tier: standing.grant.tier, source: standing.grant.source, expires_at: standing.grant.expires_at },
    created_at: user.created_at,
    disabled_at: user.disabled_at ?? null,
  };
}

/** Users are read a page at a time so a large table never sits in one statement's result. */
const USER_PAGE = 500;

/** A user named by email or id, as the operator's operations take one. */
export interface UserRef {
  user: string;
}

/**
 * The operator's operations on accounts (`admin.user`, `admin.users`, `admin.setTier`,
 * `admin.grantTier`, `admin.revokeSessions`, `admin.deleteUser`, `admin.disableUser`,
 * `admin.enableUser`), run only for the operator (`marketlens admin ...`). An unknown user is
 * `NotFound`.
 */
export function authAdminUseCases(deps: AppDeps) {
  const { storage } = deps;
  return {
    async user(input: UserRef): Promise<AdminUser> {
      return adminUserView(storage, await userOf(storage, input.user), deps.now());
    },
    async users(): Promise<AdminUser[]> {
      const now = deps.now();
      const all: AdminUser[] = [];
      for (let offset = 0; ; offset += USER_PAGE) {
        const page = await storage.users.list({ limit: USER_PAGE, offset });
        for (const u of page) all.push(await adminUserView(storage, u, now));
        if (page.length < USER_PAGE) return all;
      }
    },
    async setTier(input: UserRef & { tier: Tier }): Promise<AdminUser> {
      return adminUserView(storage, await setUserTier(storage, input.user, input.tier), deps.now());
    },
    async grantTier(input: UserRef & { tier: Tier; days: number; source: GrantSource }): Promise<AdminUser> {
      const user = await userOf(storage, input.user);
      const now = deps.now();
      await grantUserTier(storage, user.id, input.tier, input.days, input.source, now);
      return adminUserView(storage, user, now);
    },
    async revokeSessions(input: UserRef) {
      const user = await userOf(storage, input.user);
      return { user_id: user.id, email: user.email, sessions: await storage.sessions.deleteByUser(user.id) };
    },
    async deleteUser(input: UserRef) {
      const user = await userOf(storage, input.user);
      if (!(await storage.users.erase(user.id, deps.now()))) throw new AppError('NotFound', `No user ${input.user}`);
      return { user_id: user.id, email: user.email };
    },
    async disableUser(input: UserRef) {
      return statusView(await disableUser(storage, input.user, deps.now()));
    },
    async enableUser(input: UserRef) {
      return statusView(await enableUser(storage, input.user));
    },
  };
}

function statusView(done: UserStatusChange) {
  return {
    user_id: done.user.id,
    email: done.user.email,
    disabled_at: done.user.disabled_at ?? null,
    changed: done.changed,
    sessions: done.sessions,
    oauth_tokens: done.oauth_tokens,
  };
}
