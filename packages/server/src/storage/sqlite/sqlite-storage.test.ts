import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS as SHIPPED } from '../../../test/support/storage/shipped-sqlite-migrations.js';
import { MIGRATIONS } from '../sql/migrations.js';
import { createSqliteStorage, migrate } from './sqlite-storage.js';

const user = (id: string, email: string) => ({ id, email, password_hash: 'x', tier: 'free' as const, created_at: 1 });
/** A database as the SQLite-only releases left it: the shipped statements, tracked as they tracked them. */
function shippedDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const m of SHIPPED) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, 1);
  }
  return db;
}

const schemaOf = (db: Database.Database) =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();

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

  it('applies only migrations newer than the database', () => {
    const db = new Database(':memory:');
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toBe(1);
    expect(migrate(db)).toBe(MIGRATIONS.at(-1)?.version);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'api_keys'").get()).toBeTruthy();
  });

  it('creates the very schema the SQLite-only releases created, and upgrades it to the one it creates now', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-sqlite-'));
    const lastShipped = SHIPPED.at(-1)?.version ?? 0;
    const asShipped = new Database(join(dir, 'as-shipped.sqlite'));
    migrate(
      asShipped,
      MIGRATIONS.filter((m) => m.version <= lastShipped),
    );
    const shipped = shippedDatabase(join(dir, 'shipped.sqlite'));
    expect(schemaOf(asShipped)).toEqual(schemaOf(shipped));
    expect(schemaOf(asShipped).length).toBeGreaterThan(40);
    asShipped.close();
    // The migrations after the last SQLite-only release bring a shipped file to a fresh file's schema.
    expect(migrate(shipped)).toBe(MIGRATIONS.at(-1)?.version);
    const fresh = createSqliteStorage(join(dir, 'new.sqlite'));
    expect(schemaOf(fresh.db)).toEqual(schemaOf(shipped));
    shipped.close();
  });

  it('opens a version-14 file of an earlier release in place, keeping every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-sqlite-'));
    const file = join(dir, 'marketlens.sqlite');
    const old = shippedDatabase(file);
    const T = Date.UTC(2026, 0, 1);
    old
      .prepare("INSERT INTO users (id, email, password_hash, tier, created_at) VALUES ('u1', 'a@x.io', 'h', 'pro', ?)")
      .run(T);
    old.prepare("INSERT INTO sessions VALUES ('s1', 'u1', 'sh', ?, ?)").run(T, T + 1000);
    old.prepare("INSERT INTO api_keys VALUES ('k1', 'u1', 'ci', 'mlk_', 'kh', ?, NULL, NULL, NULL)").run(T);
    old.prepare("INSERT INTO api_usage VALUES ('u1', '2026-01-01', 7)").run();
    old.prepare("INSERT INTO favorites VALUES ('u1', 'bitcoin', ?)").run(T);
    old
      .prepare(
        `INSERT INTO alerts (id, user_id, asset_id, kind, target, direction, status, created_at, updated_at, armed_at, expires_at)
       VALUES ('a1', 'u1', 'bitcoin', 'price', 1, 'above', 'active', ?, ?, ?, ?)`,
      )
      .run(T, T, T, T + 10_000);
    old
      .prepare(
        `INSERT INTO alert_webhooks (id, user_id, url, name, secret, created_at, updated_at)
       VALUES ('w1', 'u1', 'https://hooks.test/a', NULL, 'enc', ?, ?)`,
      )
      .run(T, T);
    old.close();

    const s = createSqliteStorage(file);
    expect(await s.schemaVersion()).toBe(MIGRATIONS.at(-1)?.version);
    expect(await s.users.byId('u1')).toMatchObject({ email: 'a@x.io', tier: 'pro', email_verified_at: null });
    expect(await s.sessions.byTokenHash('sh')).toMatchObject({ id: 's1', expires_at: T + 1000 });
    expect(await s.apiKeys.byHash('kh')).toMatchObject({ id: 'k1', name: 'ci' });
    expect(await s.apiUsage.used('u1', '2026-01-01')).toBe(7);
    expect(await s.favorites.list('u1')).toEqual(['bitcoin']);
    // The fan-out trigger of the old file still copies a staged notice when the alert fires.
    const notice = { idempotency_key: 'n1', category: 'alert' as const, payload: '{}' };
    await s.alertWebhooks.stageNotice('u1', { alert_id: 'a1', armed_at: T, trigger_candle: T }, notice, T);
    const fired = { triggered_at: T + 1, trigger_value: 2, trigger_candle: T };
    expect(await s.alerts.trigger('a1', T, fired, notice)).toBe(true);
    expect((await s.alertWebhooks.byKey('n1')).map((r) => r.webhook_id)).toEqual(['w1']);
    await s.close();
  });
});
