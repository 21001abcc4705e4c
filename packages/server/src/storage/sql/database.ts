/**
 * Opening the database: SQLite (better-sqlite3, one file, the embedded default) or PostgreSQL
 * (a pg pool), both behind one kysely `Kysely<Schema>` so that the repositories are written once.
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, SqliteDialect } from 'kysely';
import pg from 'pg';
import { classify } from '../errors.js';
import type { Schema } from './schema.js';

/** The database engines storage runs on. */
export type Engine = 'sqlite' | 'postgres';

/** An open SQLite database: the kysely handle and the better-sqlite3 one beneath it. */
export interface SqliteDatabase {
  engine: 'sqlite';
  kysely: Kysely<Schema>;
  handle: Database.Database;
  close(): Promise<void>;
}

/** An open PostgreSQL database: the kysely handle over a pool. */
export interface PostgresDatabase {
  engine: 'postgres';
  kysely: Kysely<Schema>;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** An open database of either engine. */
export type SqlDatabase = SqliteDatabase | PostgresDatabase;

/** How a PostgreSQL pool is sized and bounded in time. */
export interface PostgresOptions {
  /** Connections at most (default 10). */
  max?: number;
  /** How long a request waits for a connection before it fails with StorageUnavailable (default 5 s). */
  connectionTimeoutMs?: number;
  /** The longest a statement may run (default 15 s; 0: no limit); also bounds the wait for a reply. */
  statementTimeoutMs?: number;
  /** The schema tables live in (default: the server's search_path, normally `public`). */
  schema?: string;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
  /** Told of a pooled connection that failed while idle (the database restarted); the pool replaces it. */
  onError?: (err: Error) => void;
}

/** Whether `url` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The SQLite file a database setting names: a path, `sqlite:<path>`, `sqlite://<path>` or
 * `file:<path>`; `:memory:` stays in memory.
 */
export function sqlitePath(url: string): string {
  const m = /^(?:sqlite:(?:\/\/)?|file:(?:\/\/)?)(.*)$/i.exec(url);
  return m ? m[1] : url;
}

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

/**
 * better-sqlite3 as kysely's SQLite driver sees it, with prepared statements kept by their text:
 * kysely prepares every query it runs, and preparing costs more than running a point lookup. None
 * is dropped (see {@link keepStatements}); the texts are the queries the code writes, a bounded set.
 */
function cachingDatabase(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string): Database.Statement {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = db.prepare(sql);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * Keeps every statement `db` prepares (its own `pragma` calls included) as long as `db` itself.
 * better-sqlite3 finalizes a statement when the garbage collector frees it, and on Node 24 that
 * finalizer can abort the process (`RemoveEnvironmentCleanupHook`: `(env) != nullptr`, upstream
 * WiseLibs/better-sqlite3#1515, closed without a fix); a statement that stays reachable is never
 * collected while the handle is in use. Seen on the Node 24 smoke test of `.ci/node-matrix.sh`.
 */
function keepStatements(db: Database.Database): void {
  const kept = new Set<Database.Statement>();
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Database.Statement;
  db.prepare = ((...args: unknown[]) => {
    const stmt = prepare(...args);
    kept.add(stmt);
    return stmt;
  }) as typeof db.prepare;
}

/**
 * Opens a SQLite file (created owner-only if new; `:memory:` for tests) in WAL mode with foreign
 * keys on, unmigrated. Synchronous, so that the embedded storage opens without awaiting.
 */
export function openSqliteDatabase(filename: string): SqliteDatabase {
  if (filename !== ':memory:' && filename !== '' && !filename.startsWith('file:')) ownerOnly(filename);
  const handle = new Database(filename);
  keepStatements(handle);
  // busy_timeout first: two processes opening a new file at once contend for the WAL switch.
  // exec, not pragma(): pragma() prepares a statement that is then left to the collector (above)
  handle.exec('PRAGMA busy_timeout = 5000');
  handle.exec('PRAGMA journal_mode = WAL');
  handle.exec('PRAGMA synchronous = NORMAL');
  handle.exec('PRAGMA foreign_keys = ON');
  const kysely = new Kysely<Schema>({ dialect: new SqliteDialect({ database: cachingDatabase(handle) }) });
  return {
    engine: 'sqlite',
    kysely,
    handle,
    close: async () => {
      // Destroying kysely closes the better-sqlite3 handle, once it has finished the queries under way.
      if (handle.open) await kysely.destroy();
    },
  };
}

// PostgreSQL type oids whose text node-postgres leaves as a string by default.
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Type parsers of this pool only (the global `pg.types` stays untouched): BIGINT and NUMERIC come
 * back as numbers, as SQLite returns them. Every integer stored is an epoch-ms time or a count,
 * far below 2^53.
 */
const poolTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
} as pg.CustomTypesConfig;

/**
 * The pool as kysely sees it, with connection failures (refused, timed out, dropped) turned into
 * {@link StorageUnavailable} wherever they surface: acquiring a connection or running a query.
 */
function classifyingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let w = wrapped.get(client);
    if (w === undefined) {
      // A connection that drops while checked out (between the queries of a transaction) is
      // reported on the client; without a listener that would crash the process. The query under
      // way, or the next one, fails instead, and the pool discards the client on release.
      client.on('error', () => {});
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      w = {
        // A cursor (an object) is returned as is; a text query's promise has its failure classified.
        query: ((...args: unknown[]) => {
          const result = query(...args);
          return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(classify(err))) : result;
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
      wrapped.set(client, w);
    }
    return w;
  };
  return {
    connect: async () => {
      try {
        return wrap(await pool.connect());
      } catch (err) {
        throw classify(err);
      }
    },
    end: () => pool.end(),
  };
}

/** Opens a PostgreSQL pool on `url` (connections are made on first use), unmigrated. */
export function openPostgresDatabase(url: string, options: PostgresOptions = {}): PostgresDatabase {
  const statementTimeout = options.statementTimeoutMs ?? 15_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    // The client gives up a little after the server would have cancelled: a dead connection
    // (no reply at all) then fails too instead of hanging the request.
    query_timeout: statementTimeout > 0 ? statementTimeout + 2_000 : undefined,
    application_name: options.applicationName ?? 'marketlens',
    options: options.schema === undefined ? undefined : `-c search_path=${quoteIdentifier(options.schema)}`,
    types: poolTypes,
  });
  // An idle connection the server dropped (a restart) is reported here; without a listener it
  // would crash the process. The pool discards it and connects anew on the next request.
  pool.on('error', (err) => options.onError?.(err));
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: classifyingPool(pool) }) });
  let closed = false;
  return {
    engine: 'postgres',
    kysely,
    pool,
    close: async () => {
      if (closed) return;
      closed = true;
      await kysely.destroy();
    },
  };
}

/** `name` quoted as a PostgreSQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Opens the database `url` names: PostgreSQL for `postgres://` URLs, else a SQLite file. */
export function openDatabase(url: string, options: PostgresOptions = {}): SqlDatabase {
  return isPostgresUrl(url) ? openPostgresDatabase(url, options) : openSqliteDatabase(sqlitePath(url));
}
