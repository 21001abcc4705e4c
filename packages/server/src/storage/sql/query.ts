/**
 * Helpers the repositories share: the handle type, row locks that only PostgreSQL needs, affected
 * row counts, and queries compiled once for the hot paths.
 */
import { type Compilable, type CompiledQuery, type Kysely, sql } from 'kysely';
import type { Engine } from './database.js';
import type { Schema } from './schema.js';

/** A database handle or a transaction on it (a transaction is a handle too). */
export type Db = Kysely<Schema>;

/** A repository's view of the database: its engine and the handle. */
export interface Sql {
  engine: Engine;
  db: Db;
}

/**
 * Locks the user's row until the transaction ends, so that rules counting a user's rows before
 * inserting one (key caps, alert caps, mail limits) hold across PostgreSQL connections. SQLite
 * needs none: kysely runs one transaction at a time on its single connection, and a writing
 * transaction of another process waits for the file lock.
 */
export async function lockUser(s: Sql, trx: Db, userId: string): Promise<void> {
  if (s.engine !== 'postgres') return;
  await sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx);
}

/**
 * Takes a transaction-scoped PostgreSQL advisory lock on `key` (a rule over a whole table, e.g.
 * the pilot's trade numbering); SQLite needs none, as for {@link lockUser}.
 */
export async function lockKey(s: Sql, trx: Db, key: string): Promise<void> {
  if (s.engine !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/** Rows a write touched (inserted, updated or deleted), from any of kysely's write results. */
export function changes(
  r:
    | { numInsertedOrUpdatedRows?: bigint }
    | { numUpdatedRows: bigint }
    | { numDeletedRows: bigint }
    | { numAffectedRows?: bigint }
    | undefined,
): number {
  if (r === undefined) return 0;
  if ('numUpdatedRows' in r) return Number(r.numUpdatedRows);
  if ('numDeletedRows' in r) return Number(r.numDeletedRows);
  if ('numInsertedOrUpdatedRows' in r) return Number(r.numInsertedOrUpdatedRows ?? 0n);
  if ('numAffectedRows' in r) return Number(r.numAffectedRows ?? 0n);
  return 0;
}

/** A page bound: a non-negative integer, else undefined (no bound) when absent. */
export function pageBound(n: number | undefined): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`page bounds must be non-negative integers; got ${n}`);
  return n;
}

const SLOT = Symbol('slot');
interface Slot {
  [SLOT]: number;
}
const isSlot = (v: unknown): v is Slot => typeof v === 'object' && v !== null && SLOT in v;

/**
 * A query compiled once: `build` is called with stand-ins for its arguments, and each run binds
 * the real ones in their place. Kysely otherwise rebuilds and recompiles a query on every call,
 * which costs more than the lookup itself on the hot paths (a session or API-key check).
 */
export function compiled<A extends unknown[], R>(
  db: Db,
  arity: A['length'],
  build: (db: Db, ...args: A) => Compilable<R>,
): (db: Db, ...args: A) => Promise<R[]> {
  const slots = Array.from({ length: arity }, (_, i): Slot => ({ [SLOT]: i }));
  const query = build(db, ...(slots as unknown as A)).compile();
  const positions = query.parameters.map((p) => (isSlot(p) ? p[SLOT] : -1));
  return async (target, ...args) => {
    const parameters = query.parameters.map((p, i) => (positions[i] >= 0 ? args[positions[i]] : p));
    const result = await target.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  };
}
