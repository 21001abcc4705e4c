import { expect, it } from 'vitest';
import { describeEngines } from '../../../test/support/storage/engines.js';
import type { ApiKeyRecord } from '../types.js';
import { MIGRATIONS } from './migrations.js';

const user = (id: string, email: string) => ({ id, email, password_hash: 'x', tier: 'free' as const, created_at: 1 });
const key = (id: string, userId: string, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id,
  user_id: userId,
  name: null,
  prefix: 'mlk_',
  key_hash: `h-${id}`,
  created_at: 1,
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  ...extra,
});

describeEngines('users, sessions, keys, usage and favorites', (engine) => {
  it('drops every session of a user at once', async () => {
    const s = await engine.open();
    await s.users.create(user('u1', 'a@example.com'), []);
    await s.users.create(user('u2', 'b@example.com'), []);
    const session = (id: string, userId: string) => ({
      id,
      user_id: userId,
      token_hash: `h-${id}`,
      created_at: 1,
      expires_at: 10,
    });
    for (const x of [session('s1', 'u1'), session('s2', 'u1'), session('s3', 'u2')]) await s.sessions.create(x);
    expect(await s.sessions.byTokenHash('h-s1')).toEqual(session('s1', 'u1'));
    expect(await s.sessions.deleteByUser('u1')).toBe(2);
    expect(await s.sessions.byTokenHash('h-s1')).toBeNull();
    expect(await s.sessions.byTokenHash('h-s3')).not.toBeNull();
    expect(await s.sessions.deleteExpired(10)).toBe(1);
    expect(await s.sessions.deleteByTokenHash('h-s3')).toBe(false);
  });

  it('deletes a user with its sessions, keys and favorites, and nothing of another user', async () => {
    const s = await engine.open();
    await s.users.create(user('u1', 'a@example.com'), ['bitcoin']);
    await s.users.create(user('u2', 'b@example.com'), ['bitcoin']);
    for (const [id, userId] of [
      ['s1', 'u1'],
      ['s2', 'u2'],
    ]) {
      await s.sessions.create({ id, user_id: userId, token_hash: `h-${id}`, created_at: 1, expires_at: 10 });
    }
    expect(await s.apiKeys.createIfBelow(key('k1', 'u1'), 5, 1)).toBe(true);
    expect(await s.apiKeys.createIfBelow(key('k2', 'u2'), 5, 1)).toBe(true);
    expect(await s.users.erase('u1', 5)).toBe(true);
    expect(await s.users.byId('u1')).toBeNull();
    expect(await s.sessions.byTokenHash('h-s1')).toBeNull();
    expect(await s.apiKeys.byHash('h-k1')).toBeNull();
    expect(await s.favorites.list('u1')).toEqual([]);
    expect(await s.users.byId('u2')).not.toBeNull();
    expect(await s.sessions.byTokenHash('h-s2')).not.toBeNull();
    expect(await s.apiKeys.byHash('h-k2')).not.toBeNull();
    expect(await s.favorites.list('u2')).toEqual(['bitcoin']);
    expect(await s.users.erase('u1', 5)).toBe(false);
  });

  it('counts favorites per asset for popularity, most first, ties by id', async () => {
    const s = await engine.open();
    await s.users.create(user('u1', 'a@x.io'), ['bitcoin', 'ethereum']);
    await s.users.create(user('u2', 'b@x.io'), ['ethereum', 'solana']);
    await s.favorites.add('u2', 'ethereum', 1);
    expect(await s.favorites.popular(2)).toEqual([
      { asset_id: 'ethereum', count: 2 },
      { asset_id: 'bitcoin', count: 1 },
    ]);
    await s.favorites.remove('u2', 'ethereum');
    expect(await s.favorites.list('u2')).toEqual(['solana']);
    await s.close();
  });

  it('creates users with favorites atomically and refuses a taken email', async () => {
    const s = await engine.open();
    expect(await s.users.create(user('u1', 'a@x.io'), ['bitcoin', 'ethereum'])).toBeTruthy();
    expect(await s.users.create(user('u2', 'a@x.io'), ['solana'])).toBeNull();
    expect(await s.favorites.list('u1')).toEqual(['bitcoin', 'ethereum']);
    expect(await s.users.byId('u2')).toBeNull();
    expect(await s.users.setTier('u1', 'pro')).toBe(true);
    expect((await s.users.byEmail('a@x.io'))?.tier).toBe('pro');
  });

  it('lists users oldest first, ties by id, a page at a time', async () => {
    const s = await engine.open();
    expect(await s.users.list()).toEqual([]);
    await s.users.create({ ...user('u3', 'c@x.io'), created_at: 5 }, []);
    await s.users.create({ ...user('u2', 'b@x.io'), created_at: 2 }, []);
    await s.users.create({ ...user('u1', 'a@x.io'), created_at: 2 }, []);
    await s.users.create({ ...user('u0', 'z@x.io'), created_at: 1 }, []);
    const ids = async (page?: { limit?: number; offset?: number }) => (await s.users.list(page)).map((u) => u.id);
    expect(await ids()).toEqual(['u0', 'u1', 'u2', 'u3']);
    expect(await ids({ limit: 2 })).toEqual(['u0', 'u1']);
    expect(await ids({ limit: 2, offset: 2 })).toEqual(['u2', 'u3']);
    expect(await ids({ offset: 3 })).toEqual(['u3']);
    expect(await ids({ limit: 0 })).toEqual([]);
    expect(await ids({ limit: 5, offset: 4 })).toEqual([]);
    expect((await s.users.list({ limit: 1 }))[0]).toEqual({
      ...user('u0', 'z@x.io'),
      created_at: 1,
      email_verified_at: null,
    });
    await expect(s.users.list({ limit: -1 })).rejects.toThrow(RangeError);
    await expect(s.users.list({ offset: 1.5 })).rejects.toThrow(RangeError);
    await s.close();
  });

  it('caps active keys and keeps revoked keys as audit records', async () => {
    const s = await engine.open();
    await s.users.create(user('u1', 'a@x.io'), []);
    for (let i = 0; i < 3; i++) expect(await s.apiKeys.createIfBelow(key(`k${i}`, 'u1'), 3, 10)).toBe(true);
    expect(await s.apiKeys.createIfBelow(key('k3', 'u1'), 3, 10)).toBe(false);
    expect(await s.apiKeys.revoke('u1', 'k0', 20)).toBe(true);
    expect(await s.apiKeys.revoke('u1', 'k0', 21)).toBe(false);
    expect(await s.apiKeys.createIfBelow(key('k3', 'u1'), 3, 30)).toBe(true);
    const listed = await s.apiKeys.listByUser('u1');
    expect(listed).toHaveLength(4);
    expect(listed.find((k) => k.id === 'k0')?.revoked_at).toBe(20);
    await s.apiKeys.touch('k1', 40);
    expect(await s.apiKeys.byHash('h-k1')).toEqual(key('k1', 'u1', { last_used_at: 40 }));
    // An expired key no longer counts against the cap.
    expect(await s.apiKeys.createIfBelow(key('k4', 'u1', { expires_at: 50 }), 4, 40)).toBe(true);
    expect(await s.apiKeys.createIfBelow(key('k5', 'u1'), 4, 50)).toBe(true);
  });

  it('meters usage up to the limit per day', async () => {
    const s = await engine.open();
    await s.users.create(user('u1', 'a@x.io'), []);
    expect(await s.apiUsage.consume('u1', '2026-01-01', 2)).toBe(1);
    expect(await s.apiUsage.consume('u1', '2026-01-01', 2)).toBe(2);
    expect(await s.apiUsage.consume('u1', '2026-01-01', 2)).toBeNull();
    expect(await s.apiUsage.consume('u1', '2026-01-02', 2)).toBe(1);
    expect(await s.apiUsage.used('u1', '2026-01-01')).toBe(2);
    expect(await s.apiUsage.consume('u1', '2026-01-03', 0)).toBeNull();
  });

  it('keeps times past 2^31 exact (epoch ms) and grants in force by expiry', async () => {
    const s = await engine.open();
    const t = Date.UTC(2040, 0, 1);
    await s.users.create({ ...user('u1', 'a@x.io'), created_at: t }, []);
    expect((await s.users.byId('u1'))?.created_at).toBe(t);
    await s.grants.create({ id: 'g1', user_id: 'u1', tier: 'pro', source: 'admin', granted_at: t, expires_at: t + 10 });
    await s.grants.create({
      id: 'g2',
      user_id: 'u1',
      tier: 'elite',
      source: 'admin',
      granted_at: t,
      expires_at: t + 20,
    });
    expect((await s.grants.active('u1', t + 5)).map((g) => g.id)).toEqual(['g2', 'g1']);
    expect((await s.grants.active('u1', t + 10)).map((g) => g.id)).toEqual(['g2']);
    expect(await s.schemaVersion()).toBe(MIGRATIONS.at(-1)?.version);
  });
});
