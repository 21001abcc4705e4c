/**
 * Account recovery and erasure: a password reset by mail (a single-use link token, 30 minutes,
 * whose use ends every session and OAuth token of the account) and the deletion of an account by
 * its owner, with the password.
 */
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { MailLimits, UserRecord } from '../storage/types.js';
import { hashPassword, newSecret, secretHash, verifyPassword } from './secrets.js';
import { forgetUser } from './session-cache.js';
import { normalizeEmail } from './users.js';
import { dispatchMail } from './verification/verification.js';

/** How long a reset link works. */
export const RESET_TTL_MS = 30 * 60_000;
/** How often one account may be sent a reset link: once a minute, five times a day (silently past that). */
export const RESET_MAIL_LIMITS: MailLimits = { gapMs: 60_000, perDay: 5 };
/** The path of the page a reset link opens (`?token=`), which posts the token and the new password. */
export const RESET_PATH = '/v1/auth/password/reset';

/**
 * `POST /v1/auth/password/reset`: mails the account of `email`, if there is one, a link to set a
 * new password (within {@link RESET_MAIL_LIMITS}); the answer is the same for every address.
 * The token is never written anywhere but the mail: the link is not logged.
 */
export async function requestPasswordReset(deps: AppDeps, email: string, baseUrl: string): Promise<{ email: string }> {
  const normalized = normalizeEmail(email);
  const user = await deps.storage.users.byEmail(normalized);
  if (user === null) return { email: normalized };
  const token = newSecret('mlr_');
  const now = deps.now();
  const stored = await deps.storage.passwordResets.recordIfBelow(
    { token_hash: secretHash(token), user_id: user.id, created_at: now, expires_at: now + RESET_TTL_MS },
    RESET_MAIL_LIMITS,
  );
  if (!stored) return { email: normalized };
  dispatchMail(deps, {
    to: user.email,
    subject: 'Reset your marketlens password',
    text: [
      'Someone asked to reset the password of the marketlens account of this address.',
      'To choose a new one, send this token with the new password (POST /v1/auth/password/reset/confirm),',
      'or open the link in the app that asked for it:',
      '',
      `${baseUrl}${RESET_PATH}?token=${token}`,
      '',
      'It works once, for 30 minutes. Using it signs out every session and app of the account.',
      'If you did not ask for it, ignore this mail: your password stays.',
    ].join('\n'),
  });
  return { email: normalized };
}

/**
 * `POST /v1/auth/password/reset/confirm`: uses a reset token once and sets the new password. Every
 * session and OAuth token of the account ends; the address counts as verified (the mail reached
 * its owner), so a pending sign-up no longer lapses. An unknown, used or expired token is 400
 * `InvalidResetToken`.
 */
export async function confirmPasswordReset(deps: AppDeps, token: string, password: string): Promise<UserRecord> {
  const now = deps.now();
  // Hashed first: the answer takes as long for a bad token as for a good one.
  const hash = await hashPassword(password);
  const userId = await deps.storage.passwordResets.redeem(secretHash(token), now);
  const user = userId === null ? null : await deps.storage.users.byId(userId);
  if (user === null) {
    throw new AppError(
      'InvalidResetToken',
      'This reset token is unknown, already used or expired; ask for a new one (POST /v1/auth/password/reset)',
    );
  }
  await deps.storage.users.setPassword(user.id, hash);
  await deps.storage.users.markVerified(user.id, now);
  await deps.storage.sessions.deleteByUser(user.id);
  await deps.storage.oauth.revokeUserTokens(user.id, now);
  forgetUser(user.id);
  return { ...user, password_hash: hash, email_verified_at: user.email_verified_at ?? now, signup_expires_at: null };
}

/**
 * `DELETE /v1/users/me`: erases the signed-in account once its password is given again: the user,
 * sessions, API keys (their audit record is kept), connections and their credentials, positions,
 * fills, alerts, devices, webhooks, OAuth codes and tokens, favorites and mails. Irreversible; a
 * wrong password is 403 `PasswordMismatch` (the session itself is valid) and changes nothing.
 */
export async function deleteAccount(deps: AppDeps, user: UserRecord, password: string): Promise<void> {
  if (!(await verifyPassword(password, user.password_hash))) {
    throw new AppError('PasswordMismatch', 'The password is wrong; the account is unchanged');
  }
  await deps.storage.users.erase(user.id, deps.now());
  forgetUser(user.id);
}
