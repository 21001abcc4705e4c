/**
 * The embedded default storage: one SQLite file (or `:memory:` for tests), opened and migrated
 * synchronously. Its repositories are the shared SQL ones (`../sql`), as on PostgreSQL.
 */
import type Database from 'better-sqlite3';
import type { CandleStoreOptions } from '../sql/candles.js';
import { openSqliteDatabase, type SqliteDatabase } from '../sql/database.js';
import { migrateSqlite } from '../sql/migrate.js';
import type { Migration } from '../sql/migrations.js';
import { createSqlStorage, type SqlStorage } from '../sql/storage.js';

/** Applies the migrations the SQLite database has not seen yet; returns the resulting version. */
export function migrate(db: Database.Database, migrations?: readonly Migration[]): number {
  return migrateSqlite(db, migrations);
}

/**
 * Opens (creating owner-only and migrating) a SQLite storage. `db` is the better-sqlite3 handle
 * beneath it, for tests and maintenance that read the file directly.
 */
export function createSqliteStorage(
  filename: string,
  options: { candles?: CandleStoreOptions } = {},
): SqlStorage & { readonly db: Database.Database; readonly sql: SqliteDatabase } {
  const database = openSqliteDatabase(filename);
  try {
    migrateSqlite(database.handle);
  } catch (err) {
    database.handle.close();
    throw err;
  }
  const { b } = database.handle.prepare('SELECT COALESCE(SUM(bytes), 0) AS b FROM candle_series').get() as {
    b: number;
  };
  return {
    ...createSqlStorage(database, { candles: options.candles, candleBytes: b }),
    db: database.handle,
    sql: database,
  };
}
