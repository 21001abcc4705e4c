import { z } from '@hono/zod-openapi';
import {
  AccountDeletedSchema,
  CredentialsSchema,
  DeleteAccountSchema,
  EmailAddressSchema,
  EmailVerifiedSchema,
  envelopeOf,
  ok,
  PasswordResetConfirmSchema,
  PasswordResetDoneSchema,
  PasswordResetRequestedSchema,
  PendingVerificationSchema,
  type Session,
  SessionSchema,
  VerifyEmailQuery,
} from '@marketlens/contract';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import { json, operation, type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import {
  checkSameOrigin,
  clearedSessionCookie,
  cookieSessionToken,
  sessionCookie,
  wantsSessionCookie,
} from '../cookie-session.js';
import { RESET_PATH } from '../recovery.js';
import { VERIFY_PATH } from '../verification/verification.js';

const PendingEnvelope = envelopeOf(PendingVerificationSchema, 'PendingVerificationEnvelope');

const body = { body: { content: { 'application/json': { schema: CredentialsSchema } }, required: true } };

const signupRoute = operation(
  'auth.signup',
  {
    method: 'post',
    path: '/v1/auth/signup',
    operationId: 'signup',
    tags: ['Auth'],
    summary: 'Create an account (and a session, unless verification is required)',
    description:
      'New accounts start on the free tier with the favorites bitcoin, ethereum and solana. Where email verification is required (production by default) the answer is 202 for every address, taken or not, a link is mailed, and no session is opened: sign in once the address is verified. Otherwise the answer is 200 with a session, and 422 `EmailAlreadyRegistered` for a taken address.',
    request: body,
    responses: {
      200: json(envelopeOf(SessionSchema, 'SessionEnvelope'), 'Account created, session opened'),
      202: json(PendingEnvelope, 'Verification required: a link was mailed; the same answer for a taken address'),
    },
  },
  [422],
);

const verifyRoute = operation('auth.verifyEmail', {
  method: 'get',
  path: VERIFY_PATH,
  operationId: 'verifyEmail',
  tags: ['Auth'],
  summary: 'Verify an email address (the mailed link)',
  description:
    'The link mailed at sign-up or on resend. It works once, for 24 hours; a newer link does not void an older one until either is used. 400 `InvalidVerificationToken` for an unknown, altered, used or expired token.',
  request: { query: VerifyEmailQuery },
  responses: { 200: json(envelopeOf(EmailVerifiedSchema, 'EmailVerifiedEnvelope'), 'The address is verified') },
});

const resendRoute = operation('auth.resendVerification', {
  method: 'post',
  path: `${VERIFY_PATH}/resend`,
  operationId: 'resendVerification',
  tags: ['Auth'],
  summary: 'Mail a new verification link',
  description:
    'Mails a new link when the address has an unverified account; the answer is the same for every address. One account is mailed at most once a minute and five times a day; past that nothing is sent, silently.',
  request: {
    body: {
      content: {
        'application/json': {
          schema: EmailAddressSchema,
        },
      },
      required: true,
    },
  },
  responses: {
    202: json(PendingEnvelope, 'A link is mailed if the address needs one'),
  },
});

const loginRoute = operation('auth.login', {
  method: 'post',
  path: '/v1/auth/login',
  operationId: 'login',
  tags: ['Auth'],
  summary: 'Open a session',
  description:
    'Where email verification is required, an account whose address is not verified is refused like a wrong password (401 `InvalidCredentials`). An account the operator disabled is refused with 403 `AccountDisabled` once the password is right (its API keys are refused alike until it is enabled again).',
  request: body,
  responses: { 200: json(envelopeOf(SessionSchema), 'Session opened') },
});

const logoutRoute = operation('auth.logout', {
  method: 'post',
  path: '/v1/auth/logout',
  operationId: 'logout',
  tags: ['Auth'],
  summary: 'End the current session',
  description: 'The session token stops working at once; API keys and other sessions of the account are untouched.',
  responses: { 200: json(envelopeOf(z.null()), 'Session ended') },
});

const route = routesOf('Auth');

const meRoute = route('auth.me', {
  method: 'get',
  path: '/v1/auth/me',
  operationId: 'getMe',
  summary: 'The account of the current session',
  description:
    'The user, their tier and when a paid tier ends (null when it does not). Never cached (`private, no-store`).',
  ok: ['The signed-in account', 'MeEnvelope'],
});

/**
 * The session as answered: in the body for header clients; for a client that sent
 * `x-session-cookie: 1` (the web app) in an HttpOnly cookie instead, its token left out of the body
 * (empty) so no script ever holds it.
 */
function deliver(c: Context<AppEnv>, session: Session): Session {
  if (!wantsSessionCookie(c)) return session;
  c.header('set-cookie', sessionCookie(c, session.session_token, Date.parse(session.expires_at)), { append: true });
  return { ...session, session_token: '' };
}

const resetRequestRoute = operation('auth.requestPasswordReset', {
  method: 'post',
  path: RESET_PATH,
  operationId: 'requestPasswordReset',
  tags: ['Auth'],
  summary: 'Mail a password reset link',
  description:
    'When the address has an account, mails it a single-use token (in a link), valid 30 minutes; the answer is the same for every address. One account is sent at most one reset a minute and five a day; past that nothing is sent, silently. The token is never logged.',
  request: { body: { content: { 'application/json': { schema: EmailAddressSchema } }, required: true } },
  responses: {
    202: json(
      envelopeOf(PasswordResetRequestedSchema, 'PasswordResetRequestedEnvelope'),
      'A link is mailed if the address has an account',
    ),
  },
});

const resetConfirmRoute = operation('auth.confirmPasswordReset', {
  method: 'post',
  path: `${RESET_PATH}/confirm`,
  operationId: 'confirmPasswordReset',
  tags: ['Auth'],
  summary: 'Set a new password with a mailed reset token',
  description:
    'Uses the token once and sets the password. Every session and OAuth token of the account ends (sign in again); the address counts as verified. 400 `InvalidResetToken` for an unknown, used or expired token; any reset token of the account mailed earlier stops working too.',
  request: { body: { content: { 'application/json': { schema: PasswordResetConfirmSchema } }, required: true } },
  responses: { 200: json(envelopeOf(PasswordResetDoneSchema, 'PasswordResetDoneEnvelope'), 'The new password holds') },
});

const deleteMeRoute = operation(
  'auth.deleteAccount',
  {
    method: 'delete',
    path: '/v1/users/me',
    operationId: 'deleteAccount',
    tags: ['Auth'],
    summary: 'Delete the account (irreversible)',
    description:
      'Erases the signed-in account once its password is given again: the user, sessions, API keys, exchange connections and their credentials, positions, fills, alerts, devices, webhooks, OAuth grants, favorites and mails. Only the audit record of its API keys (id, name, prefix, created and revoked times) is kept. REST only (no MCP tool). 403 `PasswordMismatch` for a wrong password, and nothing changes.',
    request: { body: { content: { 'application/json': { schema: DeleteAccountSchema } }, required: true } },
    responses: { 200: json(envelopeOf(AccountDeletedSchema, 'AccountDeletedEnvelope'), 'The account is erased') },
  },
  [403],
);

/**
 * The session token of a sign-out: the `x-session-token` header, else the session cookie (which
 * the answer then clears).
 */
function signedOutToken(c: Context<AppEnv>): { token: string; cookie: boolean } {
  const header = c.req.header('x-session-token');
  if (header !== undefined) return { token: header, cookie: false };
  const cookie = cookieSessionToken(c);
  return { token: cookie ?? '', cookie: cookie !== undefined };
}

export function registerAuthRoutes(serve: Serve, run: RunOperation): void {
  serve(resetRequestRoute, async (c) => {
    const answer = await run(c, 'auth.requestPasswordReset', c.req.valid('json'));
    c.header('cache-control', 'no-store');
    return c.json(ok(answer), 202);
  });
  serve(resetConfirmRoute, async (c) => {
    const done = await run(c, 'auth.confirmPasswordReset', c.req.valid('json'));
    c.header('cache-control', 'no-store');
    return c.json(ok(done), 200);
  });
  serve(deleteMeRoute, async (c) => {
    const deleted = await run(c, 'auth.deleteAccount', c.req.valid('json'));
    c.header('cache-control', 'no-store');
    return c.json(ok(deleted), 200);
  });
  serve(meRoute, async (c) => {
    const account = await run(c, 'auth.me', {});
    c.header('cache-control', 'private, no-store');
    return c.json(ok(account), 200);
  });
  serve(signupRoute, async (c) => {
    c.header('cache-control', 'no-store');
    if (wantsSessionCookie(c)) checkSameOrigin(c);
    const result = await run(c, 'auth.signup', c.req.valid('json'));
    return 'session_token' in result ? c.json(ok(deliver(c, result)), 200) : c.json(ok(result), 202);
  });
  serve(loginRoute, async (c) => {
    if (wantsSessionCookie(c)) checkSameOrigin(c);
    const session = await run(c, 'auth.login', c.req.valid('json'));
    c.header('cache-control', 'no-store');
    return c.json(ok(deliver(c, session)), 200);
  });
  serve(verifyRoute, async (c) => {
    const verified = await run(c, 'auth.verifyEmail', c.req.valid('query'));
    c.header('cache-control', 'no-store');
    // The token is in this page's URL: it must not leave in a Referer.
    c.header('referrer-policy', 'no-referrer');
    return c.json(ok(verified), 200);
  });
  serve(resendRoute, async (c) => {
    const pending = await run(c, 'auth.resendVerification', c.req.valid('json'));
    c.header('cache-control', 'no-store');
    return c.json(ok(pending), 202);
  });
  serve(logoutRoute, async (c) => {
    const { token, cookie } = signedOutToken(c);
    await run(c, 'auth.logout', { session_token: token });
    if (cookie) c.header('set-cookie', clearedSessionCookie(c));
    return c.json(ok(null), 200);
  });
}
