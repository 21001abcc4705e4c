import { randomUUID } from 'node:crypto';
import { AppError } from '../platform/errors/app-error.js';
import type { SessionRecord, Storage, Tier, UserRecord } from '../storage/types.js';
import { hashPassword, newSecret, secretHash, verifyPassword } from './secrets.js';
import { forgetSession } from './session-cache.js';
import { tierStanding } from './tiers.js';

/** Favorites every new account starts with. */
export const DEFAULT_FAVORITES = ['bitcoin', 'ethereum', 'solana'] as const;

/** How long a session token stays valid. */
export const SESSION_TTL_MS = 30 * 86_400_000;

export interface SessionGrant {
  user: UserRecord;
  token: string;
  expires_at: number;
}

export interface AuthenticatedUser {
  user: UserRecord;
  tier: Tier;
  tier_expires_at: number | null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function openSession(storage: Storage, user: UserRecord, now: number): Promise<SessionGrant> {
  const token = newSecret('mls_');
  const expires_at = now + SESSION_TTL_MS;
  await storage.sessions.create({
    id: randomUUID(),
    user_id: user.id,
    token_hash: secretHash(token),
    created_at: now,
    expires_at,
  });
  return { user, token, expires_at };
}

export async function signup(storage: Storage, email: string, password: string, now: number): Promise<SessionGrant> {
  const user: UserRecord = {
    id: randomUUID(),
    email: normalizeEmail(email),
    password_hash: await hashPassword(password),
    tier: 'free',
    created_at: now,
  };
  const created = await storage.users.create(user, DEFAULT_FAVORITES);
  if (!created) throw new AppError('EmailAlreadyRegistered', 'An account with this email already exists');
  return openSession(storage, created, now);
}

/**
 * Opens a session for the email and password. With `requireVerified` (email verification
 * required), an account whose address is not verified is refused exactly like a wrong password:
 * otherwise signing up with someone's address and then signing in with the password just chosen
 * would tell whether the address already had an account.
 */
export async function login(
  storage: Storage,
  email: string,
  password: string,
  now: number,
  requireVerified = false,
): Promise<SessionGrant> {
  const user = await storage.users.byEmail(normalizeEmail(email));
  // Verify against a dummy hash when the user is unknown so timing does not reveal accounts.
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  const verified = !requireVerified || (user?.email_verified_at ?? null) !== null;
  if (!user || !ok || !verified) {
    throw new AppError(
      'InvalidCredentials',
      requireVerified
        ? 'Email or password is wrong, or the email address is not verified yet (POST /v1/auth/verify/resend)'
        : 'Email or password is wrong',
    );
  }
  // Said only to whoever knows the password: a disabled account is not revealed to a guess.
  if (isDisabled(user)) throw accountDisabled();
  return openSession(storage, user, now);
}

/** Ends the session; the session caches of this process drop the token at once. */
export async function logout(storage: Storage, token: string): Promise<void> {
  await storage.sessions.deleteByTokenHash(secretHash(token));
  forgetSession(token);
}

/** Whether an operator disabled the account (`marketlens admin user disable`). */
export function isDisabled(user: UserRecord): boolean {
  return (user.disabled_at ?? null) !== null;
}

/** 403 `AccountDisabled`: what a disabled account's sign-in and API keys are answered with. */
export function accountDisabled(): AppError {
  return new AppError(
    'AccountDisabled',
    'This account is disabled by the operator: it cannot sign in and its API keys are refused until it is enabled again',
  );
}

/** The live session of a token and its user, or null (also when the account is disabled). */
export async function liveSession(
  storage: Storage,
  token: string,
  now: number,
): Promise<{ session: SessionRecord; user: UserRecord } | null> {
  const session = await storage.sessions.byTokenHash(secretHash(token));
  if (!session || session.expires_at <= now) return null;
  const user = await storage.users.byId(session.user_id);
  // Disabling ends the sessions; one opened in a race with it is refused here.
  return user && !isDisabled(user) ? { session, user } : null;
}

export async function authenticated(storage: Storage, user: UserRecord, now: number): Promise<AuthenticatedUser> {
  const standing = await tierStanding(storage, user.id, user.tier, now);
  return { user, tier: standing.tier, tier_expires_at: standing.grant?.expires_at ?? null };
}

const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
