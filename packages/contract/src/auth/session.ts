/**
 * Wire schemas of sign-up, sign-in and email verification (`/v1/auth/*`): the credentials and address
 * a caller sends, the session it gets, and the answers of the verification flow.
 */
import { z } from 'zod';

/**
 * The addresses the service takes: `local@domain.tld`, the local part of letters, digits and
 * `_ ' + -` in dot-separated runs, the domain of dot-separated labels ending in a top-level label of
 * two letters or more. A subset of RFC 5321 (no quoted local parts, no backtick, no dotless domain),
 * published as the schema's `pattern` so the document says exactly what the server applies.
 */
export const EMAIL_PATTERN: RegExp = z.regexes.email;

const Email = z
  .string()
  .max(254)
  .regex(EMAIL_PATTERN, 'Invalid email address')
  .meta({ example: 'ada@example.com', description: 'An email address (see the pattern: a subset of RFC 5321)' });

const Password = z.string().min(8).max(256).meta({ example: 'correct horse battery' });

/** `POST /v1/auth/signup` and `POST /v1/auth/login` body. */
export const CredentialsSchema = z
  .object({
    email: Email,
    password: Password,
  })
  .meta({ id: 'Credentials' });

/** `POST /v1/auth/verify/resend` body. */
export const EmailAddressSchema = z.object({ email: Email }).meta({ id: 'EmailAddress' });

/**
 * What ending a session takes: its token (REST reads it from `x-session-token` or the session
 * cookie of the request it ends).
 */
export const LogoutInput = z.object({ session_token: z.string().min(1) });

/** The verification link's query. */
export const VerifyEmailQuery = z.object({
  token: z.string().min(1).max(200).meta({ description: 'The token of the mailed link' }),
});

const User = z.object({ id: z.uuid(), email: z.string(), created_at: z.iso.datetime() });

export const SessionSchema = z
  .object({
    user: User,
    session_token: z.string().meta({ description: 'Send as `x-session-token`. Shown only here.' }),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'Session' });
export type Session = z.output<typeof SessionSchema>;

export const PendingVerificationSchema = z
  .object({
    email: z.string(),
    verification: z.literal('pending').meta({
      description:
        'A verification link is on its way to the address (or, if it already has an account, a notice to its owner); follow it, then sign in.',
    }),
  })
  .meta({ id: 'PendingVerification' });

export const EmailVerifiedSchema = z
  .object({ user: User, email_verified_at: z.iso.datetime() })
  .meta({ id: 'EmailVerified' });

/** `POST /v1/auth/password/reset/confirm` body: the mailed token and the new password. */
export const PasswordResetConfirmSchema = z
  .object({
    token: z.string().min(1).max(200).meta({ description: 'The token of the mailed reset link' }),
    password: Password,
  })
  .meta({ id: 'PasswordResetConfirm' });

/** What a reset request answers, for every address alike. */
export const PasswordResetRequestedSchema = z
  .object({
    email: z.string(),
    reset: z.literal('mailed').meta({
      description:
        'If the address has an account, a single-use link valid 30 minutes is on its way to it; the answer is the same for every address.',
    }),
  })
  .meta({ id: 'PasswordResetRequested' });

/** What a used reset token answers. */
export const PasswordResetDoneSchema = z
  .object({
    user: User,
    sessions_ended: z.literal(true).meta({
      description: 'Every session and OAuth token of the account has ended: sign in again with the new password.',
    }),
  })
  .meta({ id: 'PasswordResetDone' });

/** `DELETE /v1/users/me` body: the account's password, given again. */
export const DeleteAccountSchema = z
  .object({ password: z.string().min(1).max(256).meta({ description: 'The password of the account' }) })
  .meta({ id: 'DeleteAccount' });

/** What an erased account answers. */
export const AccountDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) }).meta({ id: 'AccountDeleted' });
