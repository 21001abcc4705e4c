import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { createSqliteStorage, migrate } from './sqlite-storage.js';

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

describe('sqlite storage', () => {
  it('runs in WAL mode on a file and migrates once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-sqlite-'));
    const s = createSqliteStorage(join(dir, 'db.sqlite'));
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(await s.schemaVersion()).toBe(MIGRATIONS.at(-1)?.version);
    expect(migrate(s.db)).toBe(MIGRATIONS.at(-1)?.version);
    const n = s.db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number };
    expect(n.n).toBe(MIGRATIONS.length);
    await s.close();
  });

  it('keeps the database and its WAL and shared-memory files owner-only (0600), also ones left 0644', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-sqlite-'));
    const file = join(dir, 'db.sqlite');
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    const first = createSqliteStorage(file);
    await first.users.create(user('u1', 'a@example.com'), []);
    expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual(['600', '600', '600']);
    await first.close();
    // Files of an earlier version, born 0644: narrowed when opened.
    writeFileSync(`${file}-journal`, '');
    for (const suffix of ['', '-journal']) chmodSync(`${file}${suffix}`, 0o644);
    const again = createSqliteStorage(file);
    expect([mode(file), mode(`${file}-journal`), mode(`${file}-wal`)]).toEqual(['600', '600', '600']);
    expect(await again.users.byId('u1')).toMatchObject({ email: 'a@example.com' });
    await again.close();
  });

  it('drops every session of a user at once', async () => {
    const s = createSqliteStorage(':memory:');
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
    expect(await s.sessions.deleteByUser('u1')).toBe(2);
    expect(await s.sessions.byTokenHash('h-s1')).toBeNull();
    expect(await s.sessions.byTokenHash('h-s3')).not.toBeNull();
  });

  it('applies only migrations newer than the database', () => {
    const db = new Database(':memory:');
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toBe(1);
    expect(migrate(db)).toBe(MIGRATIONS.at(-1)?.version);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'api_keys'").get()).toBeTruthy();
  });

  it('counts favorites per asset for popularity, most first, ties by id', async () => {
    const s = createSqliteStorage(':memory:');
    await s.users.create(user('u1', 'a@x.io'), ['bitcoin', 'ethereum']);
    await s.users.create(user('u2', 'b@x.io'), ['ethereum', 'solana']);
    await s.favorites.add('u2', 'ethereum', 1);
    expect(await s.favorites.popular(2)).toEqual([
      { asset_id: 'ethereum', count: 2 },
      { asset_id: 'bitcoin', count: 1 },
    ]);
    await s.close();
  });

  it('creates users with favorites atomically and refuses a taken email', async () => {
    const s = createSqliteStorage(':memory:');
    expect(await s.users.create(user('u1', 'a@x.io'), ['bitcoin', 'ethereum'])).toBeTruthy();
    expect(await s.users.create(user('u2', 'a@x.io'), ['solana'])).toBeNull();
    expect(await s.favorites.list('u1')).toEqual(['bitcoin', 'ethereum']);
    expect(await s.users.byId('u2')).toBeNull();
    expect(await s.users.setTier('u1', 'pro')).toBe(true);
    expect((await s.users.byEmail('a@x.io'))?.tier).toBe('pro');
  });

  it('lists users oldest first, ties by id, a page at a time', async () => {
    const s = createSqliteStorage(':memory:');
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
    const s = createSqliteStorage(':memory:');
    await s.users.create(user('u1', 'a@x.io'), []);
    for (let i = 0; i < 3; i++) expect(await s.apiKeys.createIfBelow(key(`k${i}`, 'u1'), 3, 10)).toBe(true);
    expect(await s.apiKeys.createIfBelow(key('k3', 'u1'), 3, 10)).toBe(false);
    expect(await s.apiKeys.revoke('u1', 'k0', 20)).toBe(true);
    expect(await s.apiKeys.revoke('u1', 'k0', 21)).toBe(false);
    expect(await s.apiKeys.createIfBelow(key('k3', 'u1'), 3, 30)).toBe(true);
    const listed = await s.apiKeys.listByUser('u1');
    expect(listed).toHaveLength(4);
    expect(listed.find((k) => k.id === 'k0')?.revoked_at).toBe(20);
  });

  it('meters usage up to the limit per day', async () => {
    const s = createSqliteStorage(':memory:');
    await s.users.create(user('u1', 'a@x.io'), []);
    expect(await s.apiUsage.consume('u1', '2026-01-01', 2)).toBe(1);
    expect(await s.apiUsage.consume('u1', '2026-01-01', 2)).toBe(2);
    expect(await s.apiUsage.consume('u1', '2026-01-01', 2)).toBeNull();
    expect(await s.apiUsage.consume('u1', '2026-01-02', 2)).toBe(1);
    expect(await s.apiUsage.used('u1', '2026-01-01')).toBe(2);
  });
});
