/**
 * Wire schemas of sign-up, sign-in and email verification (`/v1/auth/*`): the credentials and address
 * a caller sends, the session it gets, and the answers of the verification flow.
 */
import { z } from 'zod';

const Email = z.email().max(254).meta({ example: 'ada@example.com' });

/** `POST /v1/auth/signup` and `POST /v1/auth/login` body. */
export const CredentialsSchema = z
  .object({
    email: Email,
    password: z.string().min(8).max(256).meta({ example: 'correct horse battery' }),
  })
  .meta({ id: 'Credentials' });

/** `POST /v1/auth/verify/resend` body. */
export const EmailAddressSchema = z.object({ email: Email }).meta({ id: 'EmailAddress' });

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
