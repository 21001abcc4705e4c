/**
 * The queries the two kinds of alert receiver (push devices and webhooks) answer alike: each a row
 * per user with an `active` flag, an outbox of rows to it, and a deactivation that drops the rows
 * not delivered yet. One implementation, as the outboxes' queries are one (`outbox.ts`).
 */

import { changes, type Db, type Sql } from './query.js';
import type { Flag } from './schema.js';

/** A receiver table, its outbox, the outbox column naming the receiver, and the receiver's word in reasons. */
export interface ReceiverTables {
  table: 'push_devices' | 'alert_webhooks';
  outbox: 'push_outbox' | 'webhook_outbox';
  column: 'device_id' | 'webhook_id';
  word: 'device' | 'webhook';
}

/** The receivers' shared queries: by id, by user, counted, removed, deactivated. */
export interface ReceiverQueries<T> {
  byId(id: string): Promise<T | null>;
  /** A user's receivers, newest first. */
  listByUser(userId: string): Promise<T[]>;
  countActive(userId: string): Promise<number>;
  remove(userId: string, id: string): Promise<boolean>;
  /** Deactivates one, and drops its undelivered rows (`<word> deactivated: <reason>`). */
  deactivate(id: string, reason: string, now: number): Promise<void>;
}

/** Drops the undelivered outbox rows to receiver `id` with `reason`. */
export async function dropPending(db: Db, tables: ReceiverTables, id: string, reason: string, now: number) {
  // Kysely types each table on its own; the two outboxes share these columns (see `outbox.ts`).
  await db
    .updateTable(tables.outbox as 'push_outbox')
    .set({ dropped_at: now, last_error: reason })
    .where(tables.column as 'device_id', '=', id)
    .where('delivered_at', 'is', null)
    .where('dropped_at', 'is', null)
    .execute();
}

/**
 * The shared queries over `tables`, each row read with `of`. The receiver tables' shared columns
 * are typed through the push devices', as the outboxes' are through the push outbox's.
 */
export function receiverQueries<Row extends { active: Flag }, T>(
  { db }: Sql,
  tables: ReceiverTables,
  of: (row: Row) => T,
): ReceiverQueries<T> {
  const t = tables.table as 'push_devices';
  const read = (rows: readonly unknown[]) => (rows as Row[]).map(of);
  return {
    byId: async (id) => {
      const r = await db.selectFrom(t).selectAll().where('id', '=', id).executeTakeFirst();
      return r ? of(r as unknown as Row) : null;
    },
    listByUser: async (userId) =>
      read(
        await db
          .selectFrom(t)
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .execute(),
      ),
    countActive: async (userId) =>
      Number(
        (
          await db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .where('active', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    remove: async (userId, id) =>
      changes(await db.deleteFrom(t).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()) > 0,
    deactivate: (id, reason, now) =>
      db.transaction().execute(async (trx) => {
        await trx
          .updateTable(t)
          .set({ active: 0, deactivated_at: now, deactivated_reason: reason, updated_at: now })
          .where('id', '=', id)
          .execute();
        await dropPending(trx, tables, id, `${tables.word} deactivated: ${reason}`, now);
      }),
  };
}
