/**
 * Password reset by mail and account deletion, through the REST routes.
 */
import { CATALOG } from '@marketlens/mcp';
import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import type { ServerConfig } from '../platform/deps.js';
import { RESET_TTL_MS } from './recovery.js';
import { secretHash } from './secrets.js';
import type { MailMessage } from './verification/mailer.js';

interface Body {
  code: number | string;
  message?: string;
  data: Record<string, unknown> | null;
}

function setup(config: Partial<ServerConfig> = {}) {
  const sent: MailMessage[] = [];
  const h = harness(config, undefined, { mailer: { send: async (m) => void sent.push(m) } });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await h.request(path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const tokenOf = (m: MailMessage | undefined): string => {
    const token = /\/v1\/auth\/password\/reset\?token=(\S+)/.exec(m?.text ?? '')?.[1];
    if (token === undefined) throw new Error(`no reset link in ${JSON.stringify(m)}`);
    return token;
  };
  return { h, sent, call, tokenOf };
}

/** A login session, an OAuth client and a live access token of `userId` under that session; returns the token's hash. */
async function oauthToken(s: ReturnType<typeof harness>['storage'], userId: string, now: number): Promise<string> {
  const sessionId = `sess-${userId}`;
  await s.sessions.create({
    id: sessionId,
    user_id: userId,
    token_hash: `th-${userId}`,
    created_at: now,
    expires_at: now + 86_400_000,
  });
  await s.oauth.createClient({
    id: `client-${userId}`,
    secret_hash: null,
    name: 'app',
    redirect_uris: ['http://127.0.0.1/cb'],
    token_endpoint_auth_method: 'none',
    metadata: {},
    created_at: now,
  });
  const hash = secretHash(`access-${userId}`);
  await s.oauth.createTokens([
    {
      token_hash: hash,
      kind: 'access',
      family_id: `fam-${userId}`,
      client_id: `client-${userId}`,
      user_id: userId,
      session_id: sessionId,
      resource: 'http://127.0.0.1/mcp',
      scope: null,
      created_at: now,
      expires_at: now + 3_600_000,
      used_at: null,
      revoked_at: null,
    },
  ]);
  expect(await s.oauth.liveAccessToken(hash, now)).not.toBeNull();
  return hash;
}

describe('password reset', () => {
  it('mails a single-use token; using it sets the password and ends every session and OAuth token', async () => {
    const t = setup();
    const { token: session, userId } = await t.h.signup('ada@example.com');
    const access = await oauthToken(t.h.storage, userId, t.h.clock.now);

    const asked = await t.call('POST', '/v1/auth/password/reset', { email: 'Ada@Example.com' });
    expect(asked.status).toBe(202);
    expect(asked.body.data).toEqual({ email: 'ada@example.com', reset: 'mailed' });
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]?.to).toBe('ada@example.com');
    const token = t.tokenOf(t.sent[0]);

    const done = await t.call('POST', '/v1/auth/password/reset/confirm', { token, password: 'new-password-1' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ user: { id: userId, email: 'ada@example.com' }, sessions_ended: true });
    // The session of before and the OAuth token are dead; the new password signs in, the old one not.
    expect((await t.call('GET', '/v1/auth/me', undefined, { 'x-session-token': session })).status).toBe(401);
    expect(await t.h.storage.oauth.liveAccessToken(access, t.h.clock.now)).toBeNull();
    const login = (password: string) => t.call('POST', '/v1/auth/login', { email: 'ada@example.com', password });
    expect((await login('new-password-1')).status).toBe(200);
    expect((await login('password-123')).status).toBe(401);
    // Single use.
    const again = await t.call('POST', '/v1/auth/password/reset/confirm', { token, password: 'other-password-2' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('InvalidResetToken');
    expect((await login('new-password-1')).status).toBe(200);
  });

  it('works for 30 minutes and not after; an altered token is refused', async () => {
    const t = setup();
    await t.h.signup('ada@example.com');
    await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    const token = t.tokenOf(t.sent[0]);
    const altered = await t.call('POST', '/v1/auth/password/reset/confirm', {
      token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      password: 'new-password-1',
    });
    expect(altered.body.code).toBe('InvalidResetToken');
    t.h.clock.now += RESET_TTL_MS;
    const late = await t.call('POST', '/v1/auth/password/reset/confirm', { token, password: 'new-password-1' });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('InvalidResetToken');
    // Just in time works.
    t.h.clock.now += 60_000;
    await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    const fresh = t.tokenOf(t.sent[1]);
    t.h.clock.now += RESET_TTL_MS - 1;
    expect(
      (await t.call('POST', '/v1/auth/password/reset/confirm', { token: fresh, password: 'new-password-1' })).status,
    ).toBe(200);
  });

  it('answers alike for an unknown address and mails nothing; one account is mailed once a minute, five a day', async () => {
    const t = setup();
    await t.h.signup('ada@example.com');
    const unknown = await t.call('POST', '/v1/auth/password/reset', { email: 'nobody@example.com' });
    const known = await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    expect(unknown.status).toBe(known.status);
    expect({ ...unknown.body, data: null }).toEqual({ ...known.body, data: null });
    expect(t.sent.map((m) => m.to)).toEqual(['ada@example.com']);
    await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    expect(t.sent).toHaveLength(1);
    for (let i = 0; i < 6; i++) {
      t.h.clock.now += 61_000;
      await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    }
    expect(t.sent).toHaveLength(5);
  });

  it('a newer token voids none, but using one voids the others; it verifies a pending sign-up', async () => {
    const t = setup({ emailVerification: true });
    await t.call('POST', '/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    expect(t.sent).toHaveLength(1); // the verification link
    await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    t.h.clock.now += 61_000;
    await t.call('POST', '/v1/auth/password/reset', { email: 'ada@example.com' });
    const [first, second] = [t.tokenOf(t.sent[1]), t.tokenOf(t.sent[2])];
    expect(
      (await t.call('POST', '/v1/auth/password/reset/confirm', { token: first, password: 'new-password-1' })).status,
    ).toBe(200);
    expect(
      (await t.call('POST', '/v1/auth/password/reset/confirm', { token: second, password: 'x-password-2' })).status,
    ).toBe(400);
    const user = await t.h.storage.users.byEmail('ada@example.com');
    expect(user?.email_verified_at).not.toBeNull();
    expect(user?.signup_expires_at).toBeUndefined();
    expect(
      (await t.call('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'new-password-1' })).status,
    ).toBe(200);
  });

  it('never writes the token or the address to the log', async () => {
    const lines: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    try {
      const h = harness();
      await h.signup('ada@example.com');
      // No mailer given: the mail is dropped, and the log says only that.
      const res = await h.json('/v1/auth/password/reset', { email: 'ada@example.com' });
      expect(res.status).toBe(202);
      await new Promise((r) => setTimeout(r, 10));
    } finally {
      console.error = error;
    }
    expect(lines.some((l) => /a mail was not sent/.test(l))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain('ada@example.com');
      expect(line).not.toMatch(/mlr_|token=/);
    }
  });
});

describe('account deletion', () => {
  it('erases the account with its rows once the password is given; a wrong password changes nothing', async () => {
    const t = setup();
    const { token, userId } = await t.h.signup('ada@example.com');
    const auth = { 'x-session-token': token };
    const key = await t.h.apiKey(token, { name: 'ci' });
    const access = await oauthToken(t.h.storage, userId, t.h.clock.now);
    await t.call('POST', '/v2/assets/favorites', { asset_id: 'dogecoin' }, auth);

    const wrong = await t.call('DELETE', '/v1/users/me', { password: 'not-it-123' }, auth);
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('PasswordMismatch');
    expect(await t.h.storage.users.byId(userId)).not.toBeNull();
    expect((await t.call('DELETE', '/v1/users/me', undefined, auth)).status).toBe(400);

    const deleted = await t.call('DELETE', '/v1/users/me', { password: 'password-123' }, auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: userId, deleted: true });

    expect(await t.h.storage.users.byId(userId)).toBeNull();
    expect((await t.call('GET', '/v1/auth/me', undefined, auth)).status).toBe(401);
    expect((await t.h.request('/v2/assets/favorites', { headers: { 'x-api-key': key } })).status).toBe(401);
    expect(await t.h.storage.oauth.liveAccessToken(access, t.h.clock.now)).toBeNull();
    const db = t.h.storage.db;
    for (const table of ['sessions', 'api_keys', 'favorites', 'oauth_tokens', 'notification_preferences']) {
      const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`).get(userId) as { n: number };
      expect(n, table).toBe(0);
    }
    // The API keys' audit record is what stays: no secret, no address.
    const audit = db.prepare('SELECT * FROM deleted_account_keys WHERE user_id = ?').all(userId) as Record<
      string,
      unknown
    >[];
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ name: 'ci', account_deleted_at: t.h.clock.now, revoked_at: t.h.clock.now });
    expect(JSON.stringify(audit)).not.toContain('ada@example.com');
    // The address is free again.
    expect((await t.h.signup('ada@example.com')).userId).not.toBe(userId);
  });

  it('is REST only: no MCP tool deletes an account', () => {
    for (const tool of CATALOG) expect(tool.name).not.toMatch(/delete_(account|user)|erase/);
  });
});
