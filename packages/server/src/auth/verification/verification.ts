/**
 * Email verification and sign-up without account enumeration, where verification is required
 * (production by default): sign-up answers the same for a new and a taken address and mails the
 * address's owner either way; a single-use link, valid 24 hours, proves the address; until then the
 * account cannot sign in, and an unverified account (one made before verification was required)
 * cannot create API keys, exchange connections or alerts.
 */
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AccountMailRecord, MailLimits, UserRecord } from '../../storage/types.js';
import { hashPassword, newSecret, secretHash } from '../secrets.js';
import { DEFAULT_FAVORITES, normalizeEmail } from '../users.js';
import { droppingMailer, type Mailer, type MailMessage, mailFailure } from './mailer.js';

/** How long a verification link works, and how long an unverified sign-up lives before it is erased. */
export const VERIFICATION_TTL_MS = 24 * 3_600_000;

/**
 * How often one account may be mailed (links and notices together): one a minute, five a day.
 * Past it nothing is sent, and the caller is not told: a refusal would say the account exists.
 */
export const ACCOUNT_MAIL_LIMITS: MailLimits = { gapMs: 60_000, perDay: 5 };

/** The path of the verification link (the route `GET /v1/auth/verify`). */
export const VERIFY_PATH = '/v1/auth/verify';

/** With no mailer given (a bare app in tests and scripts), mail is dropped: it is never logged. */
const NO_MAILER = droppingMailer((line) => console.error(`[marketlens] ${line}`));

/** Whether this server requires verified addresses (`MARKETLENS_EMAIL_VERIFICATION`). */
export function verificationRequired(deps: AppDeps): boolean {
  return deps.config.emailVerification === true;
}

function isVerified(user: UserRecord): boolean {
  return user.email_verified_at !== undefined && user.email_verified_at !== null;
}

/**
 * Refuses, with 403 `EmailNotVerified`, a write that needs a proven address (API keys, exchange
 * connections, alerts) when verification is required and the user has not verified. Reads are
 * not gated.
 */
export async function requireVerifiedEmail(deps: AppDeps, userId: string): Promise<void> {
  if (!verificationRequired(deps)) return;
  const user = await deps.storage.users.byId(userId);
  if (user !== null && isVerified(user)) return;
  throw new AppError(
    'EmailNotVerified',
    'Verify your email address first: follow the link mailed to you, or ask for a new one (POST /v1/auth/verify/resend)',
  );
}

/**
 * Hands the message to the mailer without waiting: the answer's timing must not depend on it. A
 * failure is logged without the address, the message or anything of the link.
 */
export function dispatchMail(deps: AppDeps, message: MailMessage): void {
  const mailer: Mailer = deps.mailer ?? NO_MAILER;
  mailer.send(message).catch((err: unknown) => {
    console.error(`[marketlens] a mail was not sent: ${mailFailure(err)}`);
  });
}

async function record(deps: AppDeps, user: UserRecord, kind: AccountMailRecord['kind'], tokenHash: string | null) {
  const now = deps.now();
  return deps.storage.accountMails.recordIfBelow(
    {
      id: randomUUID(),
      user_id: user.id,
      kind,
      token_hash: tokenHash,
      email: user.email,
      created_at: now,
      expires_at: now + VERIFICATION_TTL_MS,
    },
    ACCOUNT_MAIL_LIMITS,
  );
}

/** Mails the user a new verification link under `baseUrl` (unless the account's mail limit is reached). */
export async function sendVerificationLink(deps: AppDeps, user: UserRecord, baseUrl: string): Promise<void> {
  const token = newSecret('mlv_');
  if (!(await record(deps, user, 'verify', secretHash(token)))) return;
  const link = `${baseUrl}${VERIFY_PATH}?token=${token}`;
  dispatchMail(deps, {
    to: user.email,
    subject: 'Verify your marketlens email address',
    text: [
      'Follow this link to verify the address of your marketlens account:',
      '',
      link,
      '',
      'It works once, for 24 hours. If you did not sign up, ignore this mail.',
    ].join('\n'),
  });
}

/** Tells a verified owner that someone tried to sign up with the address (the account is unchanged). */
async function sendSignupAttempt(deps: AppDeps, user: UserRecord): Promise<void> {
  if (!(await record(deps, user, 'signup_attempt', null))) return;
  dispatchMail(deps, {
    to: user.email,
    subject: 'Someone tried to sign up to marketlens with your address',
    text: [
      'Someone tried to create a marketlens account with this email address, which already has one.',
      'Nothing was changed. If it was you, sign in with your password instead.',
    ].join('\n'),
  });
}

/** What a sign-up that waits for verification answers, for a new and a taken address alike. */
export interface PendingSignup {
  email: string;
}

/**
 * Sign-up where verification is required. A new address gets an unverified account, which is
 * erased unless it is verified within {@link VERIFICATION_TTL_MS}, and a link. A taken one gets,
 * at its owner's address, a notice of the attempt when it is verified; when it is a pending
 * sign-up, that sign-up takes the password just given (the last sign-up wins, so whoever signed up
 * first with someone else's address holds nothing once the owner signs up) and lives another
 * {@link VERIFICATION_TTL_MS}, and a new link is mailed; an unverified account made while
 * verification was off gets a link and is not touched. Every path hashes the password, writes or
 * reads a row or two and hands one mail to the mailer without waiting, so the caller learns
 * nothing from the answer or its timing; no session is opened (sign in once verified).
 */
export async function signupPendingVerification(
  deps: AppDeps,
  email: string,
  password: string,
  baseUrl: string,
): Promise<PendingSignup> {
  const normalized = normalizeEmail(email);
  const now = deps.now();
  const user: UserRecord = {
    id: randomUUID(),
    email: normalized,
    password_hash: await hashPassword(password),
    tier: 'free',
    created_at: now,
    email_verified_at: null,
    signup_expires_at: now + VERIFICATION_TTL_MS,
  };
  // Lapsed sign-ups go first, so an address held by one is free again for this one.
  await deps.storage.users.deleteLapsedSignups(now);
  const created = await deps.storage.users.create(user, DEFAULT_FAVORITES);
  if (created !== null) {
    await sendVerificationLink(deps, created, baseUrl);
  } else {
    const owner = await deps.storage.users.byEmail(normalized);
    if (owner !== null) {
      if (isVerified(owner)) await sendSignupAttempt(deps, owner);
      else {
        if (owner.signup_expires_at !== null && owner.signup_expires_at !== undefined) {
          await deps.storage.users.replacePendingSignup(owner.id, user.password_hash, now + VERIFICATION_TTL_MS);
          await deps.storage.sessions.deleteByUser(owner.id);
        }
        await sendVerificationLink(deps, owner, baseUrl);
      }
    }
  }
  return { email: normalized };
}

/** `POST /v1/auth/verify/resend`: a new link for an unverified account; the same answer for any address. */
export async function resendVerification(deps: AppDeps, email: string, baseUrl: string): Promise<PendingSignup> {
  const normalized = normalizeEmail(email);
  const user = await deps.storage.users.byEmail(normalized);
  if (user !== null && !isVerified(user)) await sendVerificationLink(deps, user, baseUrl);
  return { email: normalized };
}

/**
 * `GET /v1/auth/verify`: uses a link once. An unknown, altered, used or expired token is 400
 * `InvalidVerificationToken`; the verified user otherwise.
 */
export async function verifyEmail(deps: AppDeps, token: string): Promise<UserRecord> {
  const user = await deps.storage.accountMails.redeem(secretHash(token), deps.now());
  if (user === null) {
    throw new AppError(
      'InvalidVerificationToken',
      'This verification link is unknown, already used or expired; ask for a new one (POST /v1/auth/verify/resend)',
    );
  }
  return user;
}
