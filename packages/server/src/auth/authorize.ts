import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv, Caller } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { AuthSpec } from '../platform/operation.js';
import { admitted, asMiddleware, type Step } from '../platform/pipeline.js';
import { requestHeader } from '../platform/request-header.js';
import type { Storage, UserRecord } from '../storage/types.js';
import { checkSameOrigin, clearingCookieOn, cookieSessionToken } from './cookie-session.js';
import type { LoadedSession } from './session-cache.js';
import { apiKeyRecord, consumeAllowance, usageOf } from './tiers.js';
import { accountDisabled, authenticated, isDisabled, liveSession } from './users.js';

export { type AuthSpec, securityOf } from '../platform/operation.js';

export const SESSION_ONLY: AuthSpec = { session: true, apiKey: false };
export const SESSION_OR_API_KEY: AuthSpec = { session: true, apiKey: true };
export const PUBLIC: AuthSpec = { session: false, apiKey: false, anonymous: true };
export const OPTIONAL_SESSION_OR_API_KEY: AuthSpec = { session: true, apiKey: true, anonymous: true };

async function withTier(
  storage: Storage,
  user: UserRecord,
  now: number,
  kind: 'session' | 'api_key',
  keyId: string | null,
) {
  try {
    const a = await authenticated(storage, user, now);
    return { kind, user, tier: a.tier, tier_expires_at: a.tier_expires_at, api_key_id: keyId } satisfies Caller;
  } catch {
    // The subscription could not be read: callers see `unavailable`, and are served as free.
    return { kind, user, tier: null, tier_expires_at: null, api_key_id: keyId } satisfies Caller;
  }
}

const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/** A session token's caller, from storage (the session cache's loader). */
async function loadSession(token: string, now: number, deps: AppDeps): Promise<LoadedSession> {
  const live = await liveSession(deps.storage, token, now);
  if (!live) throw new AppError('InvalidSession', 'Session token is invalid or expired');
  const caller = await withTier(deps.storage, live.user, now, 'session', null);
  return { caller, sessionExpiresAt: live.session.expires_at };
}

/** The caller of an API key (metered against the daily allowance). */
async function apiKeyCaller(deps: AppDeps, key: string): Promise<Caller> {
  const { storage } = deps;
  const now = deps.now();
  const record = await apiKeyRecord(storage, key, now);
  const user = record ? await storage.users.byId(record.user_id) : null;
  if (!record || !user) throw new AppError('InvalidApiKey', 'API key is invalid, expired or revoked');
  // Kept, not revoked: the keys work again when the operator enables the account.
  if (isDisabled(user)) throw accountDisabled();
  const caller = await withTier(storage, user, now, 'api_key', record.id);
  await consumeAllowance(usageOf(deps), user.id, caller.tier ?? 'free', now);
  await storage.apiKeys.touch(record.id, now);
  return caller;
}

/**
 * Resolves the caller for one operation and refuses what the operation does not accept.
 * A credential that is sent but invalid is refused even where anonymous access is allowed,
 * so a client learns its token has expired. API-key calls are metered against the daily allowance.
 * Synchronous when nothing has to be read from storage (anonymous, session cache hit).
 * Needs the platform steps to have run (`deps`).
 */
export function authStep(spec: AuthSpec): Step {
  const { session, apiKey, anonymous } = spec;
  const setCaller = (c: Context<AppEnv>) => (caller: Caller) => {
    c.set('caller', caller);
  };
  return (c) => {
    if (requestHeader(c, 'authorization')) {
      throw new AppError('BearerNotAccepted', 'Bearer tokens are accepted on /mcp only');
    }
    if (!session && !apiKey) {
      // Public operations (signup, login) ignore credentials.
      c.set('caller', ANONYMOUS);
      return undefined;
    }
    const header = requestHeader(c, 'x-session-token');
    const key = requestHeader(c, 'x-api-key');
    // The web app's cookie carries a session only where no credential is sent in a header, so
    // header clients are served exactly as before.
    const cookie = header === undefined && key === undefined ? cookieSessionToken(c) : undefined;
    const token = header ?? cookie;
    if (token !== undefined && session) {
      if (cookie !== undefined) checkSameOrigin(c);
      const deps = c.get('deps');
      const now = deps.now();
      const cache = deps.sessionCache;
      let caller: Caller | Promise<Caller>;
      try {
        caller = cache
          ? cache.resolve(token, now, loadSession, deps)
          : loadSession(token, now, deps).then((s) => s.caller);
      } catch (err) {
        throw cookie === undefined ? err : clearingCookieOn(c, err);
      }
      if (!(caller instanceof Promise)) {
        c.set('caller', caller);
        return undefined;
      }
      const resolved = caller.then(setCaller(c));
      return cookie === undefined
        ? resolved
        : resolved.catch((err: unknown) => {
            throw clearingCookieOn(c, err);
          });
    }
    if (key !== undefined) {
      if (!apiKey) throw new AppError('ApiKeyNotAccepted', 'API keys do not reach this operation; use a session');
      // The allowance is spent only by a request the rate limit admitted.
      const admission = admitted(c);
      const caller = () => apiKeyCaller(c.get('deps'), key).then(setCaller(c));
      return admission === undefined ? caller() : admission.then(caller);
    }
    if (header !== undefined) throw new AppError('Unauthorized', 'This operation does not accept a session');
    if (!anonymous) throw new AppError('Unauthorized', 'A valid credential is required');
    c.set('caller', ANONYMOUS);
    return undefined;
  };
}

/** `authStep` as a middleware layer (after the platform steps). */
export function authorize(spec: AuthSpec): MiddlewareHandler<AppEnv> {
  return asMiddleware(authStep(spec));
}

/** The signed-in user of an operation that requires one (narrowing helper for handlers). */
export function requireUser(caller: Caller): Extract<Caller, { kind: 'session' | 'api_key' }> {
  if (caller.kind === 'anonymous') throw new AppError('Unauthorized', 'A valid credential is required');
  return caller;
}
