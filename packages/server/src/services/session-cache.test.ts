import { describe, expect, it } from 'vitest';
import { grantUserTier, setUserTier } from '../admin.js';
import { harness } from '../testing/harness.js';
import { SessionCache } from './session-cache.js';

describe('session cache', () => {
  const credits = async (h: ReturnType<typeof harness>, token: string) => {
    const r = await h.request('/v1/users/api_keys/credits', { headers: { 'x-session-token': token } });
    return { status: r.status, body: (await r.json()) as { code: number | string; data: { tier: string } } };
  };

  it('serves a resolved session for the TTL without storage, then asks storage again', async () => {
    const h = harness();
    const { token } = await h.signup();
    expect((await credits(h, token)).status).toBe(200);
    // Behind the platform's back (no invalidation): the cached session is believed briefly.
    h.storage.db.prepare('DELETE FROM sessions').run();
    expect((await credits(h, token)).status).toBe(200);
    h.clock.now += 1000;
    const r = await credits(h, token);
    expect([r.status, r.body.code]).toEqual([401, 'InvalidSession']);
  });

  it('refuses the token immediately after logout', async () => {
    const h = harness();
    const { token } = await h.signup();
    expect((await credits(h, token)).status).toBe(200);
    const out = await h.request('/v1/auth/logout', { method: 'POST', headers: { 'x-session-token': token } });
    expect(out.status).toBe(200);
    const r = await credits(h, token);
    expect([r.status, r.body.code]).toEqual([401, 'InvalidSession']);
  });

  it('shows a tier change and a grant on the next request', async () => {
    const h = harness();
    const { token, userId } = await h.signup();
    expect((await credits(h, token)).body.data.tier).toBe('free');
    await setUserTier(h.storage, userId, 'pro');
    expect((await credits(h, token)).body.data.tier).toBe('pro');
    await grantUserTier(h.storage, userId, 'elite', 30, 'admin', h.clock.now);
    expect((await credits(h, token)).body.data.tier).toBe('elite');
  });

  it('does not outlive the grant that lifts the tier', async () => {
    const h = harness();
    const { token, userId } = await h.signup();
    await grantUserTier(h.storage, userId, 'pro', 1, 'promotion', h.clock.now - 86_400_000 + 500);
    expect((await credits(h, token)).body.data.tier).toBe('pro');
    h.clock.now += 500;
    expect((await credits(h, token)).body.data.tier).toBe('free');
  });

  it('evicts the least recently used and drops resolutions that raced an invalidation', () => {
    const c = new SessionCache(1000, 2);
    const caller = (id: string) =>
      ({
        kind: 'session',
        user: { id, email: `${id}@x`, password_hash: '', tier: 'free', created_at: 0 },
        tier: 'free',
        tier_expires_at: null,
        api_key_id: null,
      }) as const;
    c.set('a', caller('u1'), 10_000, 0, c.epoch);
    c.set('b', caller('u2'), 10_000, 0, c.epoch);
    expect(c.get('a', 1)).toBeDefined();
    c.set('c', caller('u3'), 10_000, 1, c.epoch);
    expect(c.get('b', 2)).toBeUndefined();
    expect(c.get('a', 2)?.user.id).toBe('u1');
    const epoch = c.epoch;
    c.deleteUser('u3');
    c.set('d', caller('u4'), 10_000, 3, epoch);
    expect(c.get('d', 3)).toBeUndefined();
    expect(c.get('c', 3)).toBeUndefined();
  });
});
