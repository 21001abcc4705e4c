import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type {
  ApiKeyRecord,
  ApiKeyRepository,
  ApiUsageRepository,
  FavoriteRepository,
  SessionRecord,
  SessionRepository,
  Storage,
  Tier,
  TierGrantRecord,
  TierGrantRepository,
  UserRecord,
  UserRepository,
} from '../types.js';
import { sqliteAccountMails } from './account-mails.js';
import { sqliteBalances, sqliteConnections, sqliteFills, sqlitePositions } from './accounts.js';
import {
  sqliteAlerts,
  sqliteNotificationPreferences,
  sqlitePushDevices,
  sqlitePushOutbox,
  sqlitePushSettings,
} from './alerts.js';
import { type CandleStoreOptions, sqliteCandleStore } from './candles.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { oauth } from './oauth.js';
import { sqlitePilot, sqlitePublishedPlans } from './plans.js';
import { sqliteAffiliateGrants, sqliteCampaigns, sqlitePromotions } from './promotions.js';
import { sqliteAlertWebhooks } from './webhooks.js';

type DB = Database.Database;

/** Applies the migrations the database has not seen yet; returns the resulting version. */
export function migrate(db: DB, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const currentVersion = () =>
    (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    // IMMEDIATE takes the write lock before reading the version, so two processes opening the same
    // new file apply each migration once: the second waits (busy_timeout) and then sees it done.
    db.transaction(() => {
      if (m.version <= currentVersion()) return;
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }).immediate();
  }
  return currentVersion();
}

/** Opens (creating if needed) a SQLite database in WAL mode and migrates it. */
/**
 * Makes a database file owner-only (0600) before SQLite opens it: created empty with that mode
 * when new, narrowed when it exists. SQLite gives the `-wal`, `-shm` and `-journal` files it
 * creates the database file's mode; ones left from an earlier run are narrowed here too.
 */
function ownerOnly(filename: string): void {
  closeSync(openSync(filename, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    try {
      chmodSync(`${filename}${suffix}`, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** Opens (creating and migrating) a database file, owner-only (see {@link ownerOnly}); `:memory:` is kept in memory. */
export function openSqlite(filename: string): DB {
  if (filename !== ':memory:' && filename !== '' && !filename.startsWith('file:')) ownerOnly(filename);
  const db = new Database(filename);
  // busy_timeout first: two processes opening a new file at once contend for the WAL switch.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

/** A page bound as SQLite binds it: a non-negative integer, else `fallback`. */
function pageBound(n: number | undefined, fallback: number): number {
  if (n === undefined) return fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`page bounds must be non-negative integers; got ${n}`);
  return n;
}

function users(db: DB): UserRepository {
  const insert = db.prepare(
    `INSERT INTO users (id, email, password_hash, tier, created_at, email_verified_at)
     VALUES (@id, @email, @password_hash, @tier, @created_at, @email_verified_at) ON CONFLICT(email) DO NOTHING`,
  );
  const fav = db.prepare('INSERT OR IGNORE INTO favorites (user_id, asset_id, created_at) VALUES (?, ?, ?)');
  const byId = db.prepare('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare('SELECT * FROM users WHERE email = ?');
  const list = db.prepare('SELECT * FROM users ORDER BY created_at, id LIMIT ? OFFSET ?');
  const setTier = db.prepare('UPDATE users SET tier = ? WHERE id = ?');
  const markVerified = db.prepare('UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?');
  const create = db.transaction((given: UserRecord, favorites: readonly string[]) => {
    const user = { ...given, email_verified_at: given.email_verified_at ?? null };
    if (insert.run(user).changes === 0) return null;
    for (const a of favorites) fav.run(user.id, a, user.created_at);
    return user;
  });
  return {
    create: async (user, favorites) => create(user, favorites),
    byId: async (id) => (byId.get(id) as UserRecord | undefined) ?? null,
    byEmail: async (email) => (byEmail.get(email) as UserRecord | undefined) ?? null,
    // SQLite reads a negative LIMIT as no limit.
    list: async (page = {}) => list.all(pageBound(page.limit, -1), pageBound(page.offset, 0)) as UserRecord[],
    setTier: async (id: string, tier: Tier) => setTier.run(tier, id).changes > 0,
    markVerified: async (id, at) => markVerified.run(at, id).changes > 0,
  };
}

function sessions(db: DB): SessionRepository {
  const insert = db.prepare(
    'INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at) VALUES (@id, @user_id, @token_hash, @created_at, @expires_at)',
  );
  const byHash = db.prepare('SELECT * FROM sessions WHERE token_hash = ?');
  const del = db.prepare('DELETE FROM sessions WHERE token_hash = ?');
  const delExpired = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  const delUser = db.prepare('DELETE FROM sessions WHERE user_id = ?');
  return {
    create: async (s) => {
      insert.run(s);
    },
    byTokenHash: async (h) => (byHash.get(h) as SessionRecord | undefined) ?? null,
    deleteByTokenHash: async (h) => del.run(h).changes > 0,
    deleteByUser: async (userId) => delUser.run(userId).changes,
    deleteExpired: async (now) => delExpired.run(now).changes,
  };
}

function grants(db: DB): TierGrantRepository {
  const insert = db.prepare(
    'INSERT INTO tier_grants (id, user_id, tier, source, granted_at, expires_at) VALUES (@id, @user_id, @tier, @source, @granted_at, @expires_at)',
  );
  const active = db.prepare('SELECT * FROM tier_grants WHERE user_id = ? AND expires_at > ? ORDER BY expires_at DESC');
  return {
    create: async (g) => {
      insert.run(g);
    },
    active: async (userId, now) => active.all(userId, now) as TierGrantRecord[],
  };
}

function apiKeys(db: DB): ApiKeyRepository {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, created_at, expires_at, revoked_at, last_used_at)
     VALUES (@id, @user_id, @name, @prefix, @key_hash, @created_at, @expires_at, @revoked_at, @last_used_at)`,
  );
  const countActive = db.prepare(
    'SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
  );
  const byHash = db.prepare('SELECT * FROM api_keys WHERE key_hash = ?');
  const list = db.prepare('SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at DESC, id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const create = db.transaction((key: ApiKeyRecord, maxActive: number, now: number) => {
    const { n } = countActive.get(key.user_id, now) as { n: number };
    if (n >= maxActive) return false;
    insert.run(key);
    return true;
  });
  return {
    createIfBelow: async (key, maxActive, now) => create(key, maxActive, now),
    byHash: async (h) => (byHash.get(h) as ApiKeyRecord | undefined) ?? null,
    listByUser: async (userId) => list.all(userId) as ApiKeyRecord[],
    revoke: async (userId, id, now) => revoke.run(now, userId, id).changes > 0,
    touch: async (id, now) => {
      touch.run(now, id);
    },
  };
}

function apiUsage(db: DB): ApiUsageRepository {
  const consume = db.prepare(
    `INSERT INTO api_usage (user_id, day, count) VALUES (@user_id, @day, 1)
     ON CONFLICT(user_id, day) DO UPDATE SET count = count + 1 WHERE count < @limit
     RETURNING count`,
  );
  const used = db.prepare('SELECT count FROM api_usage WHERE user_id = ? AND day = ?');
  return {
    consume: async (userId, day, limit) => {
      if (limit <= 0) return null;
      const row = consume.get({ user_id: userId, day, limit }) as { count: number } | undefined;
      return row ? row.count : null;
    },
    used: async (userId, day) => (used.get(userId, day) as { count: number } | undefined)?.count ?? 0,
  };
}

function favorites(db: DB): FavoriteRepository {
  const add = db.prepare('INSERT OR IGNORE INTO favorites (user_id, asset_id, created_at) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM favorites WHERE user_id = ? AND asset_id = ?');
  const list = db.prepare('SELECT asset_id FROM favorites WHERE user_id = ? ORDER BY created_at, asset_id');
  const popular = db.prepare(
    'SELECT asset_id, COUNT(*) AS count FROM favorites GROUP BY asset_id ORDER BY count DESC, asset_id LIMIT ?',
  );
  return {
    add: async (u, a, now) => {
      add.run(u, a, now);
    },
    remove: async (u, a) => {
      remove.run(u, a);
    },
    list: async (u) => (list.all(u) as { asset_id: string }[]).map((r) => r.asset_id),
    popular: async (limit) => popular.all(limit) as { asset_id: string; count: number }[],
  };
}

/** The embedded default storage: one SQLite file (or `:memory:` for tests). */
export function createSqliteStorage(
  filename: string,
  options: { candles?: CandleStoreOptions } = {},
): Storage & { readonly db: DB } {
  const db = openSqlite(filename);
  return {
    db,
    candles: sqliteCandleStore(db, options.candles),
    users: users(db),
    sessions: sessions(db),
    grants: grants(db),
    apiKeys: apiKeys(db),
    apiUsage: apiUsage(db),
    favorites: favorites(db),
    accountMails: sqliteAccountMails(db),
    connections: sqliteConnections(db),
    positions: sqlitePositions(db),
    balances: sqliteBalances(db),
    fills: sqliteFills(db),
    promotions: sqlitePromotions(db),
    campaigns: sqliteCampaigns(db),
    affiliateGrants: sqliteAffiliateGrants(db),
    publishedPlans: sqlitePublishedPlans(db),
    pilot: sqlitePilot(db),
    alerts: sqliteAlerts(db),
    pushDevices: sqlitePushDevices(db),
    pushOutbox: sqlitePushOutbox(db),
    pushSettings: sqlitePushSettings(db),
    alertWebhooks: sqliteAlertWebhooks(db),
    notificationPreferences: sqliteNotificationPreferences(db),
    oauth: oauth(db),
    schemaVersion: async () =>
      (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as { v: number }).v,
    close: async () => {
      db.close();
    },
  };
}
