/**
 * Applying the schema history ({@link MIGRATIONS}) to a database. The applied versions are rows of
 * `schema_migrations`, on both engines (SQLite files in the field already hold them); the derived
 * statements of a step (`Migration.derived`) last run are rows of `schema_derived`, and run again
 * when the code derives another text. Two instances starting together apply each step once: SQLite
 * takes the write lock before reading the version, PostgreSQL an advisory lock held until the
 * transaction ends.
 */
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, type PostgresDatabase, type PostgresOptions, type SqlDatabase } from './database.js';
import { type ColumnTypes, columnTypes, MIGRATIONS, type Migration } from './migrations.js';

const createTracking = (t: ColumnTypes) =>
  `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${t.int} NOT NULL)`;

/** The derived statements last run per step (see `Migration.derived`), to run them again when their text changes. */
const createDerivedTracking = (t: ColumnTypes) =>
  `CREATE TABLE IF NOT EXISTS schema_derived (version INTEGER PRIMARY KEY, statements TEXT NOT NULL, applied_at ${t.int} NOT NULL)`;

const ordered = (migrations: readonly Migration[]) => [...migrations].sort((a, b) => a.version - b.version);

/** What a migration run did: the schema version it left, and how many migrations it applied (0: it was current). */
export interface MigrationResult {
  version: number;
  applied: number;
}

/** Applies the migrations a SQLite database has not seen yet, each in its own transaction; returns the version. */
export function migrateSqlite(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  return migrateSqliteCounting(db, migrations).version;
}

/** {@link migrateSqlite}, also saying how many migrations this call applied. */
function migrateSqliteCounting(db: Database.Database, migrations: readonly Migration[]): MigrationResult {
  let applied = 0;
  const types = columnTypes('sqlite');
  db.exec(createTracking(types));
  // Only a history with derived statements keeps them: a file of an older history stays as it was.
  if (migrations.some((m) => m.derived)) db.exec(createDerivedTracking(types));
  const version = db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations');
  const currentVersion = () => (version.get() as { v: number }).v;
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  // Prepared when first used: the table exists only for a history with derived statements.
  const lastDerived = (v: number) =>
    (db.prepare('SELECT statements FROM schema_derived WHERE version = ?').get(v) as { statements: string } | undefined)
      ?.statements;
  const recordDerived = (v: number, statements: string) =>
    db
      .prepare(
        'INSERT INTO schema_derived (version, statements, applied_at) VALUES (?, ?, ?) ' +
          'ON CONFLICT (version) DO UPDATE SET statements = excluded.statements, applied_at = excluded.applied_at',
      )
      .run(v, statements, Date.now());
  for (const m of ordered(migrations)) {
    // IMMEDIATE takes the write lock before reading the version, so two processes opening the same
    // new file apply each migration once: the second waits (busy_timeout) and then sees it done.
    db.transaction(() => {
      const derived = m.derived?.(types);
      if (m.version <= currentVersion()) {
        if (derived === undefined || lastDerived(m.version) === derived) return;
      } else {
        db.exec(m.sql(types));
        record.run(m.version, m.name, Date.now());
      }
      if (derived !== undefined) {
        db.exec(derived);
        recordDerived(m.version, derived);
      }
      applied++;
    }).immediate();
  }
  return { version: currentVersion(), applied };
}

/**
 * Applies the migrations a PostgreSQL database has not seen yet, all in one transaction (DDL is
 * transactional there: a failed step leaves the schema as it was) under an advisory lock, so a
 * second instance waits and then finds nothing to do. Returns the version.
 */
async function migratePostgres(db: PostgresDatabase, migrations: readonly Migration[]): Promise<MigrationResult> {
  const types = columnTypes('postgres');
  return db.kysely.transaction().execute(async (trx) => {
    // Keyed on the schema: the instances of one deployment share it; other schemas (other
    // deployments, parallel tests) migrate independently.
    await sql`SELECT pg_advisory_xact_lock(hashtext('marketlens migrations ' || current_schema()))`.execute(trx);
    await sql.raw(createTracking(types)).execute(trx);
    if (migrations.some((m) => m.derived)) await sql.raw(createDerivedTracking(types)).execute(trx);
    let version = await schemaVersionOf(trx);
    let applied = 0;
    for (const m of ordered(migrations)) {
      const derived = m.derived?.(types);
      if (m.version <= version) {
        if (derived === undefined || (await lastDerivedOf(trx, m.version)) === derived) continue;
      } else {
        const statements = m.sql(types);
        if (statements.trim() !== '') await sql.raw(statements).execute(trx);
        await trx
          .insertInto('schema_migrations')
          .values({ version: m.version, name: m.name, applied_at: Date.now() })
          .execute();
        version = m.version;
      }
      if (derived !== undefined) {
        await sql.raw(derived).execute(trx);
        await sql`INSERT INTO schema_derived (version, statements, applied_at)
          VALUES (${m.version}, ${derived}, ${Date.now()})
          ON CONFLICT (version) DO UPDATE SET statements = excluded.statements, applied_at = excluded.applied_at`.execute(
          trx,
        );
      }
      applied++;
    }
    return { version, applied };
  });
}

/** The derived statements of step `version` last run (undefined: never). */
async function lastDerivedOf(db: SqlDatabase['kysely'], version: number): Promise<string | undefined> {
  const r = await sql<{ statements: string }>`SELECT statements FROM schema_derived WHERE version = ${version}`.execute(
    db,
  );
  return r.rows[0]?.statements;
}

async function schemaVersionOf(db: SqlDatabase['kysely']): Promise<number> {
  const row = await db
    .selectFrom('schema_migrations')
    .select((eb) => eb.fn.coalesce(eb.fn.max('version'), sql<number>`0`).as('v'))
    .executeTakeFirstOrThrow();
  return Number(row.v);
}

/** Brings the database to the latest schema (or to the last of `migrations`); returns the version. */
export async function migrate(db: SqlDatabase, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  return (await migrateCounting(db, migrations)).version;
}

/** {@link migrate}, also saying how many migrations this call applied (0 when the schema was current). */
export async function migrateCounting(
  db: SqlDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationResult> {
  if (db.engine === 'sqlite') return migrateSqliteCounting(db.handle, migrations);
  return migratePostgres(db, migrations);
}

/** The schema version of a migrated database (0 when it was never migrated). */
export async function schemaVersion(db: SqlDatabase): Promise<number> {
  return schemaVersionOf(db.kysely);
}

/**
 * Migrates the database `url` names and closes it: what `marketlens db migrate` runs, so that a
 * deployment can migrate before it starts the servers. Statements may run long here (a step that
 * rewrites a big table): the request statement timeout does not apply unless `options` sets one.
 * Returns the version.
 */
export async function migrateDatabase(url: string, options: PostgresOptions = {}): Promise<number> {
  return (await migrateDatabaseCounting(url, options)).version;
}

/** {@link migrateDatabase}, also saying how many migrations it applied (0 when the schema was current). */
export async function migrateDatabaseCounting(url: string, options: PostgresOptions = {}): Promise<MigrationResult> {
  const db = openDatabase(url, { max: 1, statementTimeoutMs: 0, ...options });
  try {
    return await migrateCounting(db);
  } finally {
    await db.close();
  }
}
