import { iso, isoOrNull, type Session } from '@marketlens/contract';
import type { Actor, AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { UserRecord } from '../storage/types.js';
import { confirmPasswordReset, deleteAccount, requestPasswordReset } from './recovery.js';
import { login, logout, type SessionGrant, signup } from './users.js';
import {
  resendVerification,
  signupPendingVerification,
  verificationRequired,
  verifyEmail,
} from './verification/verification.js';

/** An email and a password, as sign-up and sign-in take them. */
export interface Credentials {
  email: string;
  password: string;
}

const userView = (u: UserRecord) => ({ id: u.id, email: u.email, created_at: iso(u.created_at) });

const pendingView = (email: string) => ({ email, verification: 'pending' as const });

/**
 * The base URL of the links mailed for `actor`: where its request came in (REST), else the
 * configured public URL; neither is 400 `HostNotAllowed`.
 */
function linkBaseOf(deps: AppDeps, actor: Actor): string {
  if (actor.baseUrl !== undefined) return actor.baseUrl();
  const configured = deps.config.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  throw new AppError('HostNotAllowed', 'No address to build the mailed link under; set MARKETLENS_PUBLIC_URL');
}

const sessionView = (g: SessionGrant): Session => ({
  user: userView(g.user),
  session_token: g.token,
  expires_at: iso(g.expires_at),
});

/**
 * Accounts and sessions, as REST (`/v1/auth/*`) and MCP (`get_account_info`) ask for them. Where
 * email verification is required, sign-up opens no session and answers alike for a taken address,
 * and an unverified account cannot sign in.
 */
export function authUseCases(deps: AppDeps) {
  /** The account of a session: the user, the effective tier and when a granted tier ends. */
  function accountOf(actor: Actor) {
    const caller = actor.caller;
    if (caller.kind !== 'session') throw new AppError('Unauthorized', 'A session is required');
    return { user: userView(caller.user), tier: caller.tier, tier_expires_at: isoOrNull(caller.tier_expires_at) };
  }

  return {
    /**
     * Creates an account on the free tier. Where verification is required, mails a link under the
     * actor's base URL (or a notice to a taken address's owner) and opens no session (the pending
     * verification is answered); otherwise opens a session, and a taken address is 422
     * `EmailAlreadyRegistered`.
     */
    async signup(actor: Actor, { email, password }: Credentials): Promise<Session | ReturnType<typeof pendingView>> {
      if (verificationRequired(deps)) {
        // The base URL is asked for only when a link is mailed: a sign-up that mails nothing needs no Host check.
        const pending = await signupPendingVerification(deps, email, password, linkBaseOf(deps, actor));
        return pendingView(pending.email);
      }
      return sessionView(await signup(deps.storage, email, password, deps.now()));
    },

    /** Opens a session; a wrong password, or an unverified address where verification is required, is 401 `InvalidCredentials`. */
    async login(_actor: Actor, { email, password }: Credentials): Promise<Session> {
      return sessionView(await login(deps.storage, email, password, deps.now(), verificationRequired(deps)));
    },

    /** Ends the session of `token` at once; the account's other sessions and API keys stay. */
    async logout(_actor: Actor, token: string): Promise<void> {
      await logout(deps.storage, token);
    },

    /** Redeems a verification link once; an unknown, used or expired token is 400 `InvalidVerificationToken`. */
    async verify(_actor: Actor, token: string) {
      const user = await verifyEmail(deps, token);
      return { user: userView(user), email_verified_at: iso(user.email_verified_at ?? deps.now()) };
    },

    /** Mails a new link under the actor's base URL to an unverified account (within its mail limit); the same answer for any address. */
    async resendVerification(actor: Actor, email: string) {
      return pendingView((await resendVerification(deps, email, linkBaseOf(deps, actor))).email);
    },

    /** Mails a reset link under the actor's base URL to the account of `email`, if any (within its limit); the same answer for any address. */
    async requestPasswordReset(actor: Actor, email: string) {
      const { email: normalized } = await requestPasswordReset(deps, email, linkBaseOf(deps, actor));
      return { email: normalized, reset: 'mailed' as const };
    },

    /** Uses a reset token once: the new password holds, every session and OAuth token of the account ends. */
    async confirmPasswordReset(_actor: Actor, token: string, password: string) {
      const user = await confirmPasswordReset(deps, token, password);
      return { user: userView(user), sessions_ended: true as const };
    },

    /** Erases the signed-in account, the password given again (REST only; irreversible). */
    async deleteAccount(actor: Actor, password: string) {
      const caller = actor.caller;
      if (caller.kind !== 'session') throw new AppError('Unauthorized', 'A session is required');
      const user = await deps.storage.users.byId(caller.user.id);
      if (user === null) throw new AppError('Unauthorized', 'The account no longer exists');
      await deleteAccount(deps, user, password);
      return { id: user.id, deleted: true as const };
    },

    /** `GET /v1/auth/me`: the account of the session; any other caller is 401 `Unauthorized`. */
    me: async (actor: Actor) => accountOf(actor),

    /** The account of the session with its favorite asset ids, in the order the user keeps them. */
    async accountInfo(actor: Actor) {
      const account = accountOf(actor);
      return { ...account, favorites: await deps.storage.favorites.list(account.user.id) };
    },
  };
}

/** The use cases of the auth feature, as the composition root builds them. */
export type AuthUseCases = ReturnType<typeof authUseCases>;
