/**
 * The caller check against its documented rules, on a route of its own: which credential wins
 * (a bearer token is refused first, a session goes before an API key), what each kind of
 * operation refuses and with which code, that public operations ignore credentials, that a
 * credential sent but invalid is refused even where anonymous access is allowed, and how an API
 * key is metered (by the effective tier, as free when the subscription cannot be read, only once
 * the rate limit admitted the request). The clock is injected. Written against the survivors of
 * `MUTATION_MODULES=auth pnpm mutation:server` (docs/testing.md).
 */
import { randomUUID } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../keys/api-keys.js';
import { type AppDeps, type AppEnv, type Caller, DEFAULT_CONFIG } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { errorHandler } from '../platform/errors/handler.js';
import { platform } from '../platform/pipeline.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { Storage, Tier, UserRecord } from '../storage/types.js';
import {
  type AuthSpec,
  authorize,
  OPTIONAL_SESSION_OR_API_KEY,
  PUBLIC,
  requireUser,
  SESSION_ONLY,
  SESSION_OR_API_KEY,
} from './authorize.js';
import { API_KEY_DAILY_ALLOWANCE, utcDay } from './tiers.js';
import { openSession } from './users.js';

const T = Date.UTC(2026, 0, 15, 12);
const storage = createSqliteStorage(':memory:');

/** Who the route saw: the caller's kind, user, tier and key, or `unset` when no caller was set. */
function seen(caller: Caller | undefined) {
  if (caller === undefined) return { kind: 'unset' };
  if (caller.kind === 'anonymous') return { kind: 'anonymous' };
  return { kind: caller.kind, user: caller.user.id, tier: caller.tier, api_key_id: caller.api_key_id };
}

/** An app with the platform steps, an optional layer of the test's, and `GET /op` behind `authorize(spec)`. */
function appOf(spec: AuthSpec, deps: Partial<AppDeps> = {}, layer?: MiddlewareHandler<AppEnv>) {
  const app = new Hono<AppEnv>();
  app.use(
    platform({
      storage,
      config: { ...DEFAULT_CONFIG, rateLimit: { limit: 1e9, windowMs: 60_000 } },
      now: () => T,
      ...deps,
    }),
  );
  if (layer) app.use(layer);
  app.get('/op', authorize(spec), (c) => c.json(seen(c.get('caller'))));
  app.onError(errorHandler(() => {}));
  const call = async (headers: Record<string, string> = {}) => {
    const res = await app.request('/op', { headers }, { incoming: { socket: { remoteAddress: '192.0.2.9' } } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return call;
}

/** A user of base tier `tier` with a live session and an API key. */
async function account(tier: Tier = 'free') {
  const user: UserRecord = {
    id: randomUUID(),
    email: `${randomUUID()}@example.com`,
    password_hash: '',
    tier,
    created_at: T,
  };
  await storage.users.create(user, []);
  const { token } = await openSession(storage, user, T);
  const { key, record } = await createApiKey(storage, user.id, {}, T);
  return { user, token, key, keyId: record.id };
}

const usedToday = (userId: string) => storage.apiUsage.used(userId, utcDay(T));

const refusal = (code: string, message: RegExp) => ({
  status: 401,
  body: expect.objectContaining({ success: false, code, message: expect.stringMatching(message) }),
});

describe('authorize: which credential counts', () => {
  it('refuses a bearer token before anything else, on every kind of operation', async () => {
    const a = await account();
    for (const spec of [PUBLIC, SESSION_ONLY, SESSION_OR_API_KEY, OPTIONAL_SESSION_OR_API_KEY]) {
      const call = appOf(spec);
      expect(await call({ authorization: 'Bearer x', 'x-session-token': a.token, 'x-api-key': a.key })).toEqual(
        refusal('BearerNotAccepted', /\/mcp/),
      );
    }
  });

  it('takes the session when both a session and an API key are sent, and meters nothing', async () => {
    const a = await account('pro');
    const call = appOf(SESSION_OR_API_KEY);
    expect(await call({ 'x-session-token': a.token, 'x-api-key': a.key })).toEqual({
      status: 200,
      body: { kind: 'session', user: a.user.id, tier: 'pro', api_key_id: null },
    });
    expect(await usedToday(a.user.id)).toBe(0);
    // a session sent but invalid is refused, not passed over for the key
    expect(await call({ 'x-session-token': 'mls_unknown', 'x-api-key': a.key })).toEqual(
      refusal('InvalidSession', /invalid or expired/),
    );
  });

  it('serves an API key as its owner, metered once per call', async () => {
    const a = await account();
    const call = appOf(SESSION_OR_API_KEY);
    expect(await call({ 'x-api-key': a.key })).toEqual({
      status: 200,
      body: { kind: 'api_key', user: a.user.id, tier: 'free', api_key_id: a.keyId },
    });
    expect(await usedToday(a.user.id)).toBe(1);
    expect(await call({ 'x-api-key': 'mlk_unknown' })).toEqual(refusal('InvalidApiKey', /API key/));
  });

  it('resolves a session from storage when the app has no session cache', async () => {
    const a = await account('elite');
    expect(await appOf(SESSION_ONLY)({ 'x-session-token': a.token })).toEqual({
      status: 200,
      body: { kind: 'session', user: a.user.id, tier: 'elite', api_key_id: null },
    });
  });
});

describe('authorize: what each kind of operation refuses', () => {
  it('public operations ignore every credential but a bearer token', async () => {
    const a = await account();
    for (const spec of [PUBLIC, { session: false, apiKey: false }]) {
      const call = appOf(spec);
      const credentials: Record<string, string>[] = [
        {},
        { 'x-session-token': a.token },
        { 'x-session-token': 'mls_unknown' },
        { 'x-api-key': a.key },
        { 'x-api-key': 'mlk_unknown' },
      ];
      for (const headers of credentials) {
        expect(await call(headers)).toEqual({ status: 200, body: { kind: 'anonymous' } });
      }
    }
    expect(await usedToday(a.user.id)).toBe(0);
  });

  it('session-only operations refuse an API key, and require a credential', async () => {
    const a = await account();
    const call = appOf(SESSION_ONLY);
    expect(await call({ 'x-api-key': a.key })).toEqual(refusal('ApiKeyNotAccepted', /session/));
    expect(await call({})).toEqual(refusal('Unauthorized', /credential/));
    expect(await call({ 'x-session-token': 'mls_unknown' })).toEqual(refusal('InvalidSession', /invalid or expired/));
  });

  it('an operation open to anonymous callers still refuses a credential that is sent but invalid', async () => {
    const call = appOf(OPTIONAL_SESSION_OR_API_KEY);
    expect(await call({})).toEqual({ status: 200, body: { kind: 'anonymous' } });
    expect(await call({ 'x-session-token': 'mls_unknown' })).toEqual(refusal('InvalidSession', /invalid or expired/));
    expect(await call({ 'x-api-key': 'mlk_unknown' })).toEqual(refusal('InvalidApiKey', /API key/));
  });

  it('an operation without sessions refuses a session token, even where anonymous callers are served', async () => {
    const a = await account();
    for (const spec of [
      { session: false, apiKey: true },
      { session: false, apiKey: true, anonymous: true },
    ]) {
      const call = appOf(spec);
      expect(await call({ 'x-session-token': a.token })).toEqual(refusal('Unauthorized', /session/));
      // with a key as well, the key is the credential
      expect(await call({ 'x-session-token': a.token, 'x-api-key': a.key })).toMatchObject({
        status: 200,
        body: { kind: 'api_key', api_key_id: a.keyId },
      });
    }
  });

  it('refuses the key of an account that no longer exists', async () => {
    const a = await account();
    const gone: Storage = { ...storage, users: { ...storage.users, byId: async () => null } };
    expect(await appOf(SESSION_OR_API_KEY, { storage: gone })({ 'x-api-key': a.key })).toEqual(
      refusal('InvalidApiKey', /API key/),
    );
  });
});

describe('authorize: the daily allowance of an API key', () => {
  const spend = async (userId: string, n: number) => {
    for (let i = 0; i < n; i++) await storage.apiUsage.consume(userId, utcDay(T), Number.MAX_SAFE_INTEGER);
  };

  it("is the effective tier's", async () => {
    const free = await account('free');
    const pro = await account('pro');
    await spend(free.user.id, API_KEY_DAILY_ALLOWANCE.free);
    await spend(pro.user.id, API_KEY_DAILY_ALLOWANCE.free);
    const call = appOf(SESSION_OR_API_KEY);
    expect(await call({ 'x-api-key': pro.key })).toMatchObject({ status: 200, body: { tier: 'pro' } });
    expect(await call({ 'x-api-key': free.key })).toMatchObject({
      status: 429,
      body: { code: 'ApiKeyAllowanceExceeded' },
    });
  });

  it("is a free account's when the subscription cannot be read (tier null)", async () => {
    const a = await account('pro');
    const down: Storage = {
      ...storage,
      grants: {
        ...storage.grants,
        active: async () => {
          throw new Error('subscription store down');
        },
      },
    };
    const call = appOf(SESSION_OR_API_KEY, { storage: down });
    expect(await call({ 'x-api-key': a.key })).toEqual({
      status: 200,
      body: { kind: 'api_key', user: a.user.id, tier: null, api_key_id: a.keyId },
    });
    expect(await call({ 'x-session-token': a.token })).toEqual({
      status: 200,
      body: { kind: 'session', user: a.user.id, tier: null, api_key_id: null },
    });
    await spend(a.user.id, API_KEY_DAILY_ALLOWANCE.free - 1);
    expect(await call({ 'x-api-key': a.key })).toEqual({
      status: 429,
      body: expect.objectContaining({
        code: 'ApiKeyAllowanceExceeded',
        message: expect.stringContaining(`${API_KEY_DAILY_ALLOWANCE.free} calls`),
      }),
    });
  });

  it('is spent only once the rate limit has admitted the request', async () => {
    const a = await account();
    const verdict = (admission: () => Promise<void>): MiddlewareHandler<AppEnv> => {
      return async (c, next) => {
        c.set('admission', admission());
        await next();
      };
    };
    const refused = appOf(
      SESSION_OR_API_KEY,
      {},
      verdict(() => Promise.reject(new AppError('RateLimited', 'budget spent'))),
    );
    expect(await refused({ 'x-api-key': a.key })).toMatchObject({ status: 429, body: { code: 'RateLimited' } });
    expect(await usedToday(a.user.id)).toBe(0);
    const admitted = appOf(
      SESSION_OR_API_KEY,
      {},
      verdict(() => Promise.resolve()),
    );
    expect(await admitted({ 'x-api-key': a.key })).toMatchObject({ status: 200, body: { kind: 'api_key' } });
    expect(await usedToday(a.user.id)).toBe(1);
  });
});

describe('requireUser', () => {
  it('refuses an anonymous caller with 401 Unauthorized, and passes a signed-in one through', async () => {
    const a = await account();
    let refusedWith: unknown;
    try {
      requireUser({ kind: 'anonymous' });
    } catch (err) {
      refusedWith = err;
    }
    expect(refusedWith).toBeInstanceOf(AppError);
    expect(refusedWith).toMatchObject({
      code: 'Unauthorized',
      status: 401,
      message: expect.stringMatching(/credential/),
    });
    const caller: Caller = { kind: 'session', user: a.user, tier: 'free', tier_expires_at: null, api_key_id: null };
    expect(requireUser(caller)).toBe(caller);
  });
});
