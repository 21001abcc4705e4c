/**
 * The engines the storage tests run on: SQLite always, PostgreSQL when
 * `MARKETLENS_TEST_DATABASE_URL` names a database the tests may create schemas in. Every storage
 * test file runs its cases once per engine, each case on a database of its own (SQLite: a new
 * in-memory database or temporary file; PostgreSQL: a new schema, dropped after the test).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RawBuilder, sql } from 'kysely';
import { describe, onTestFinished } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import type { CandleStoreOptions } from '../../../src/storage/sql/candles.js';
import { storedCandleBytes } from '../../../src/storage/sql/candles.js';
import {
  type Engine,
  openPostgresDatabase,
  openSqliteDatabase,
  type PostgresOptions,
  quoteIdentifier,
  type SqlDatabase,
} from '../../../src/storage/sql/database.js';
import { migrate } from '../../../src/storage/sql/migrate.js';
import { createSqlStorage, type SqlStorage } from '../../../src/storage/sql/storage.js';
import { createSqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';

/** The PostgreSQL database of the tests, if any. */
export const TEST_DATABASE_URL = process.env.MARKETLENS_TEST_DATABASE_URL?.trim() || undefined;

const noPostgres = skipWithout(
  TEST_DATABASE_URL !== undefined,
  'a PostgreSQL database (MARKETLENS_TEST_DATABASE_URL)',
  'Start PostgreSQL 15+ and set MARKETLENS_TEST_DATABASE_URL=postgres://user@host:port/db (.ci/services.sh does).',
);

/** One database of a test: opened (and migrated) as often as the test needs, removed after it. */
export interface TestDatabase {
  open(options?: { candles?: CandleStoreOptions; postgres?: PostgresOptions }): Promise<SqlStorage>;
  /** The database itself, unmigrated unless opened before; closed when the test ends. */
  connect(options?: { url?: string; postgres?: PostgresOptions }): Promise<SqlDatabase>;
  /** The PostgreSQL schema of the database (postgres only). */
  schema?: string;
}

/** An engine the suite runs on. */
export interface TestEngine {
  name: Engine;
  /** True when the engine is unavailable here (then its cases skip; under CI the import fails instead). */
  skip: boolean;
  /** A new database for this test, closed and removed when the test ends. */
  database(options?: { persistent?: boolean }): TestDatabase;
  /** A new storage on a new database, closed and removed when the test ends. */
  open(options?: { candles?: CandleStoreOptions }): Promise<SqlStorage>;
}

/** Closes `s` when the current test ends (a second close is harmless). */
function closeAfterTest(s: SqlStorage): SqlStorage {
  onTestFinished(async () => {
    await s.close();
  });
  return s;
}

const sqlite: TestEngine = {
  name: 'sqlite',
  skip: false,
  database({ persistent = false } = {}) {
    let file = ':memory:';
    if (persistent) {
      const dir = mkdtempSync(join(tmpdir(), 'ml-storage-'));
      file = join(dir, 'db.sqlite');
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    }
    return {
      open: async (options = {}) => closeAfterTest(createSqliteStorage(file, options)),
      connect: async () => {
        const database = openSqliteDatabase(file);
        onTestFinished(() => database.close());
        return database;
      },
    };
  },
  open(options) {
    return this.database().open(options);
  },
};

let admin: ReturnType<typeof openPostgresDatabase> | undefined;
/** A pool of this test worker on the test database, for creating and dropping schemas. */
function adminDatabase(url: string) {
  admin ??= openPostgresDatabase(url, { max: 2 });
  return admin;
}

const postgres: TestEngine = {
  name: 'postgres',
  skip: noPostgres,
  database() {
    const url = TEST_DATABASE_URL;
    if (url === undefined) throw new Error('MARKETLENS_TEST_DATABASE_URL is not set');
    const schema = `ml_test_${randomBytes(6).toString('hex')}`;
    let created: Promise<unknown> | undefined;
    onTestFinished(async () => {
      if (created === undefined) return;
      await sql.raw(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`).execute(adminDatabase(url).kysely);
    });
    const create = async () => {
      created ??= sql.raw(`CREATE SCHEMA ${quoteIdentifier(schema)}`).execute(adminDatabase(url).kysely);
      await created;
    };
    return {
      schema,
      connect: async (options = {}) => {
        await create();
        const database = openPostgresDatabase(options.url ?? url, { max: 5, ...options.postgres, schema });
        onTestFinished(() => database.close());
        return database;
      },
      open: async (options = {}) => {
        await create();
        const database = openPostgresDatabase(url, { max: 5, ...options.postgres, schema });
        try {
          await migrate(database);
          const candleBytes = await storedCandleBytes(database.kysely);
          return closeAfterTest(createSqlStorage(database, { candles: options.candles, candleBytes }));
        } catch (err) {
          await database.close();
          throw err;
        }
      },
    };
  },
  open(options) {
    return this.database().open(options);
  },
};

/** The engines to run on: SQLite, and PostgreSQL (skipped when no test database is set). */
export function engines(): TestEngine[] {
  return [sqlite, postgres];
}

/** Title suffix of a test group run on `engine`, naming why it skips when it does. */
export function engineTitle(engine: TestEngine): string {
  return engine.skip ? `${engine.name} (skipped: MARKETLENS_TEST_DATABASE_URL is not set)` : engine.name;
}

/** Rows of a raw query on the storage's database (tests that look beneath the port). */
export async function rows<T>(s: SqlStorage, query: string | RawBuilder<T>): Promise<T[]> {
  const q = typeof query === 'string' ? sql.raw<T>(query) : query;
  return (await q.execute(s.sql.kysely)).rows;
}

/** Declares the test group `title` once per engine; `body` declares its cases for that engine. */
export function describeEngines(title: string, body: (engine: TestEngine) => void): void {
  for (const engine of engines()) describe.skipIf(engine.skip)(`${title} [${engineTitle(engine)}]`, () => body(engine));
}
