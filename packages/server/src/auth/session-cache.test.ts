import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { grantUserTier, setUserTier } from './admin.js';
import { type LoadedSession, SessionCache } from './session-cache.js';

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

  describe('resolve', () => {
    const caller = (id: string, tier: 'free' | 'pro' | null = 'free') =>
      ({
        kind: 'session',
        user: { id, email: `${id}@x`, password_hash: '', tier: 'free', created_at: 0 },
        tier,
        tier_expires_at: null,
        api_key_id: null,
      }) as const;
    /** A loader whose loads the test settles by hand, counting them. */
    const manualLoader = () => {
      const pending: { token: string; resolve: (s: LoadedSession) => void; reject: (e: Error) => void }[] = [];
      const load = (token: string) =>
        new Promise<LoadedSession>((resolve, reject) => pending.push({ token, resolve, reject }));
      return { load, pending };
    };

    it('shares one load between concurrent misses and then serves synchronously', async () => {
      const c = new SessionCache(1000);
      const { load, pending } = manualLoader();
      const a = c.resolve('t', 0, load, null);
      const b = c.resolve('t', 1, load, null);
      expect(a).toBeInstanceOf(Promise);
      expect(b).toBe(a);
      expect(pending).toHaveLength(1);
      pending[0].resolve({ caller: caller('u1'), sessionExpiresAt: 1e9 });
      expect((await a).user.id).toBe('u1');
      expect(c.resolve('t', 2, load, null)).toMatchObject({ user: { id: 'u1' } });
      expect(pending).toHaveLength(1);
    });

    it('renews an entry in the background in the second half of its life, never serving it expired', async () => {
      const c = new SessionCache(1000);
      const { load, pending } = manualLoader();
      const first = c.resolve('t', 0, load, null);
      pending[0].resolve({ caller: caller('u1', 'free'), sessionExpiresAt: 1e9 });
      await first;
      c.resolve('t', 499, load, null);
      expect(pending).toHaveLength(1);
      // Past half the TTL: still served at once, and one reload starts (not one per hit).
      expect(c.resolve('t', 500, load, null)).toMatchObject({ tier: 'free' });
      expect(c.resolve('t', 600, load, null)).toMatchObject({ tier: 'free' });
      expect(pending).toHaveLength(2);
      pending[1].resolve({ caller: caller('u1', 'pro'), sessionExpiresAt: 1e9 });
      await new Promise((r) => setImmediate(r));
      // The renewed entry (read at 500) is believed until 1500, the old one would have ended at 1000.
      expect(c.resolve('t', 1200, load, null)).toMatchObject({ tier: 'pro' });
      expect(c.resolve('t', 1500, load, null)).toBeInstanceOf(Promise);
    });

    it('drops the entry when a background reload fails, so storage decides the next request', async () => {
      const c = new SessionCache(1000);
      const { load, pending } = manualLoader();
      const first = c.resolve('t', 0, load, null);
      pending[0].resolve({ caller: caller('u1'), sessionExpiresAt: 1e9 });
      await first;
      expect(c.resolve('t', 700, load, null)).toMatchObject({ user: { id: 'u1' } });
      pending[1].reject(new Error('session gone'));
      await new Promise((r) => setImmediate(r));
      expect(c.resolve('t', 701, load, null)).toBeInstanceOf(Promise);
      expect(pending).toHaveLength(3);
    });

    it('does not let a load begun before an invalidation serve requests after it', async () => {
      const c = new SessionCache(1000);
      const { load, pending } = manualLoader();
      const before = c.resolve('t', 0, load, null);
      c.deleteToken('t'); // logout while the first load is under way
      const after = c.resolve('t', 1, load, null);
      expect(after).not.toBe(before);
      expect(pending).toHaveLength(2);
      pending[0].resolve({ caller: caller('u1'), sessionExpiresAt: 1e9 });
      await before;
      pending[1].reject(new Error('InvalidSession'));
      await expect(after).rejects.toThrow('InvalidSession');
      // Neither load left an entry behind.
      expect(c.resolve('t', 2, load, null)).toBeInstanceOf(Promise);
    });

    it('keeps a session in use over idle ones when full (its renewal moves it to the recent end)', async () => {
      const c = new SessionCache(1000, 2);
      const { load, pending } = manualLoader();
      const settle = async (i: number, id: string, token: string, now: number) => {
        const p = c.resolve(token, now, load, null);
        pending[i].resolve({ caller: caller(id), sessionExpiresAt: 1e9 });
        await p;
      };
      await settle(0, 'u1', 'a', 0);
      await settle(1, 'u2', 'b', 1);
      // 'a' is in use: a hit past half its life renews it behind the answer.
      expect(c.resolve('a', 600, load, null)).toMatchObject({ user: { id: 'u1' } });
      pending[2].resolve({ caller: caller('u1'), sessionExpiresAt: 1e9 });
      await new Promise((r) => setImmediate(r));
      await settle(3, 'u3', 'c', 601); // full: the idle 'b' goes, not 'a'
      expect(c.resolve('a', 602, load, null)).toMatchObject({ user: { id: 'u1' } });
      expect(c.resolve('b', 602, load, null)).toBeInstanceOf(Promise);
    });

    it('does not remember an unreadable subscription (tier null)', async () => {
      const c = new SessionCache(1000);
      const { load, pending } = manualLoader();
      const first = c.resolve('t', 0, load, null);
      pending[0].resolve({ caller: caller('u1', null), sessionExpiresAt: 1e9 });
      expect((await first).tier).toBeNull();
      expect(c.resolve('t', 1, load, null)).toBeInstanceOf(Promise);
    });
  });

  it('answers a busy session from the cache while it renews, and still refuses it right after logout', async () => {
    const h = harness();
    const { token } = await h.signup();
    expect((await credits(h, token)).status).toBe(200);
    h.clock.now += 600; // past half the TTL: served from the cache, renewed behind it
    expect((await credits(h, token)).status).toBe(200);
    const out = await h.request('/v1/auth/logout', { method: 'POST', headers: { 'x-session-token': token } });
    expect(out.status).toBe(200);
    const r = await credits(h, token);
    expect([r.status, r.body.code]).toEqual([401, 'InvalidSession']);
  });
});
