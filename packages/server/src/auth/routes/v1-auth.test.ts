import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';

describe('auth routes', () => {
  it('signs up, logs in and out', async () => {
    const h = harness();
    const r = await h.json('/v1/auth/signup', { email: 'Ada@Example.com', password: 'password-123' });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const b = (await r.json()) as {
      code: number;
      success: boolean;
      data: { session_token: string; user: { id: string; email: string } };
    };
    expect(b).toMatchObject({ code: 0, success: true, data: { user: { email: 'ada@example.com' } } });
    expect(await h.storage.favorites.list(b.data.user.id)).toEqual(['bitcoin', 'ethereum', 'solana']);
    expect(h.storage.db.prepare('SELECT token_hash FROM sessions').all()).not.toContainEqual({
      token_hash: b.data.session_token,
    });
    const stored = await h.storage.users.byId(b.data.user.id);
    expect(stored?.password_hash.startsWith('scrypt$')).toBe(true);

    const dup = await h.json('/v1/auth/signup', { email: 'ada@example.com', password: 'password-456' });
    expect([dup.status, ((await dup.json()) as { code: string }).code]).toEqual([422, 'EmailAlreadyRegistered']);

    const bad = await h.json('/v1/auth/login', { email: 'ada@example.com', password: 'wrong-password' });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([401, 'InvalidCredentials']);

    const login = await h.json('/v1/auth/login', { email: 'ada@example.com', password: 'password-123' });
    const token = ((await login.json()) as { data: { session_token: string } }).data.session_token;
    const who = async () => (await h.request('/v1/users/api_keys', { headers: { 'x-session-token': token } })).status;
    expect(await who()).toBe(200);
    const out = await h.request('/v1/auth/logout', { method: 'POST', headers: { 'x-session-token': token } });
    expect(out.status).toBe(200);
    expect(await who()).toBe(401);
  });

  it('tells a session who it is, and refuses keys and anonymous callers', async () => {
    const h = harness();
    const { token, userId } = await h.signup('grace@example.com');
    const me = await h.request('/v1/auth/me', { headers: { 'x-session-token': token } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: unknown }).data).toMatchObject({
      user: { id: userId, email: 'grace@example.com' },
      tier: 'free',
      tier_expires_at: null,
    });
    const key = await h.apiKey(token);
    expect((await h.request('/v1/auth/me', { headers: { 'x-api-key': key } })).status).toBe(401);
    expect((await h.request('/v1/auth/me')).status).toBe(401);
  });

  it('expires sessions', async () => {
    const h = harness();
    const { token } = await h.signup();
    h.clock.now += 31 * 86_400_000;
    const r = await h.request('/v1/users/api_keys', { headers: { 'x-session-token': token } });
    expect([r.status, ((await r.json()) as { code: string }).code]).toEqual([401, 'InvalidSession']);
  });
});
