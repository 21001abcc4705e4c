/**
 * The delivery queries of the two outboxes (push and webhook): the same columns, the same life
 * (due, claimed, delivered, dropped or rescheduled), one implementation.
 */
import type { OutboxQueries } from '../alerts-types.js';
import type { Db, Sql } from './query.js';

/** The outbox tables: both carry the columns {@link outboxQueries} reads and writes. */
export type OutboxName = 'push_outbox' | 'webhook_outbox';

/**
 * The queries of `table`. Kysely types each table on its own; the two outboxes' shared columns are
 * typed through the push outbox's, which is why `table` is cast to it.
 */
export function outboxQueries<R>({ db, engine }: Sql, table: OutboxName): OutboxQueries<R> {
  const t = table as 'push_outbox';
  const pending = (q: Db) =>
    q.selectFrom(t).where('delivered_at', 'is', null).where('dropped_at', 'is', null).orderBy('id');
  const rows = (r: readonly { id: number }[]) => r as unknown as R[];
  return {
    due: async (now, limit) =>
      rows(await pending(db).selectAll().where('next_attempt_at', '<=', now).limit(limit).execute()),
    claim: async (now, limit, leaseMs) => {
      const claimed = await db
        .updateTable(t)
        .set({ next_attempt_at: now + leaseMs })
        .where('id', 'in', (eb) => {
          const q = pending(eb as unknown as Db)
            .select('id')
            .where('next_attempt_at', '<=', now)
            .limit(limit);
          return engine === 'postgres' ? q.forUpdate().skipLocked() : q;
        })
        .returningAll()
        .execute();
      // RETURNING follows no order: oldest first, as `due`.
      return rows(claimed.sort((a, b) => a.id - b.id));
    },
    markDelivered: async (id, now) => {
      await db
        .updateTable(t)
        .set((eb) => ({ delivered_at: now, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    markDropped: async (id, reason, now) => {
      await db
        .updateTable(t)
        .set((eb) => ({ dropped_at: now, last_error: reason, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('delivered_at', 'is', null)
        .execute();
    },
    reschedule: async (id, next, error) => {
      await db
        .updateTable(t)
        .set((eb) => ({ next_attempt_at: next, last_error: error, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    release: async (id, next) => {
      await db
        .updateTable(t)
        .set({ next_attempt_at: next })
        .where('id', '=', id)
        .where('delivered_at', 'is', null)
        .where('dropped_at', 'is', null)
        .execute();
    },
    byKey: async (key) =>
      rows(await db.selectFrom(t).selectAll().where('idempotency_key', '=', key).orderBy('id').execute()),
  };
}
