/**
 * Choosing and opening the storage from the database setting (`database.url`, `DATABASE_URL`):
 * a `postgres://` or `postgresql://` URL selects PostgreSQL 15 or later; anything else is a SQLite
 * file (a path, `sqlite:<path>`, `file:<path>`), the embedded default.
 */
import type { CandleStoreOptions } from './sql/candles.js';
import { storedCandleBytes } from './sql/candles.js';
import { isPostgresUrl, openPostgresDatabase, type PostgresOptions, sqlitePath } from './sql/database.js';
import { migrate } from './sql/migrate.js';
import { createSqlStorage, type SqlStorage } from './sql/storage.js';
import { createSqliteStorage } from './sqlite/sqlite-storage.js';

/** What {@link createStorage} opens. */
export interface StorageConfig {
  /** A PostgreSQL URL, or the SQLite file. */
  url: string;
  candles?: CandleStoreOptions;
  /** Pool and timeouts of PostgreSQL (ignored for SQLite). */
  postgres?: PostgresOptions;
}

/**
 * Opens and migrates the storage `config.url` names. PostgreSQL connects here (an unreachable
 * database fails the start with `StorageUnavailable`); afterwards its pool reconnects by itself.
 * `close()` ends the pool or closes the file.
 */
export async function createStorage(config: StorageConfig): Promise<SqlStorage> {
  if (!isPostgresUrl(config.url)) return createSqliteStorage(sqlitePath(config.url), { candles: config.candles });
  const database = openPostgresDatabase(config.url, config.postgres);
  try {
    await migrate(database);
    const candleBytes = await storedCandleBytes(database.kysely);
    return createSqlStorage(database, { candles: config.candles, candleBytes });
  } catch (err) {
    await database.close();
    throw err;
  }
}
