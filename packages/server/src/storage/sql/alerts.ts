/** Repositories of alerts, push devices, the push outbox, push settings and notification preferences. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type {
  AlertRecord,
  AlertRepository,
  NotificationPreferencesRecord,
  NotificationPreferencesRepository,
  OutboxRecord,
  PushDeviceRecord,
  PushDeviceRepository,
  PushNotice,
  PushOutboxRepository,
  PushSettingsRepository,
} from '../alerts-types.js';
import { outboxQueries } from './outbox.js';
import { changes, type Db, lockUser, type Sql } from './query.js';
import { dropPending, type ReceiverTables, receiverQueries } from './receivers.js';
import type { PushDevicesTable } from './schema.js';
import { columnsOf } from './schema.js';

async function countActiveAlerts(db: Db, userId: string): Promise<number> {
  const { n } = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Writes a notice for every active device of one user (a key already written for a device is kept). */
async function enqueue(db: Db, userId: string, notice: PushNotice, now: number): Promise<number> {
  const r = await db
    .insertInto('push_outbox')
    .columns(['idempotency_key', 'device_id', 'user_id', 'category', 'payload', 'created_at', 'next_attempt_at'])
    .expression((eb) =>
      eb
        .selectFrom('push_devices')
        .select([
          eb.val(notice.idempotency_key).as('idempotency_key'),
          'id',
          'user_id',
          eb.val(notice.category).as('category'),
          eb.val(notice.payload).as('payload'),
          // Typed: PostgreSQL takes an untyped parameter in a select list for text.
          eb.cast<number>(eb.val(now), 'bigint').as('created_at'),
          eb.cast<number>(eb.val(now), 'bigint').as('next_attempt_at'),
        ])
        .where('user_id', '=', userId)
        .where('active', '=', 1),
    )
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return changes(r);
}

/** Alerts: CRUD with the active cap checked in the same transaction as the write, under the user's row lock. */
export function sqlAlerts(s: Sql): AlertRepository {
  const { db } = s;
  const byId = (q: Db, userId: string, id: string) =>
    q.selectFrom('alerts').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return {
    createIfBelow: (alert, maxActive) =>
      db.transaction().execute(async (trx) => {
        if (alert.status === 'active' && maxActive !== null) {
          await lockUser(s, trx, alert.user_id);
          if ((await countActiveAlerts(trx, alert.user_id)) >= maxActive) return false;
        }
        await trx.insertInto('alerts').values(columnsOf('alerts', alert)).execute();
        return true;
      }),
    byId: async (userId, id) => (await byId(db, userId, id)) ?? null,
    listByUser: (userId) =>
      db
        .selectFrom('alerts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
    countActive: (userId) => countActiveAlerts(db, userId),
    countByStatus: async (userId, status) =>
      Number(
        (
          await db
            .selectFrom('alerts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .where('status', '=', status)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    update: (alert: AlertRecord, maxActive) =>
      db.transaction().execute(async (trx) => {
        await lockUser(s, trx, alert.user_id);
        const current = await byId(trx, alert.user_id, alert.id);
        if (!current) return 'missing' as const;
        if (alert.status === 'active' && current.status !== 'active' && maxActive !== null) {
          if ((await countActiveAlerts(trx, alert.user_id)) >= maxActive) return 'limit' as const;
        }
        const { id, user_id, created_at: _, ...rest } = columnsOf('alerts', alert);
        await trx.updateTable('alerts').set(rest).where('id', '=', id).where('user_id', '=', user_id).execute();
        return 'updated' as const;
      }),
    remove: async (userId, id) =>
      changes(await db.deleteFrom('alerts').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()) > 0,
    listActive: (assetId) =>
      db
        .selectFrom('alerts')
        .selectAll()
        .where('status', '=', 'active')
        .$if(assetId !== undefined, (q) => q.where('asset_id', '=', assetId as string))
        // A disabled account's alerts wait (not evaluated, not fired) until it is enabled again.
        .where(({ exists, not, selectFrom }) =>
          not(
            exists(
              selectFrom('users as u')
                .select('u.id')
                .whereRef('u.id', '=', 'alerts.user_id')
                .where('u.disabled_at', 'is not', null),
            ),
          ),
        )
        .orderBy('asset_id')
        .orderBy('id')
        .execute(),
    markEvaluated: async (id, armedAt, lastOpen) => {
      await db
        .updateTable('alerts')
        .set({ last_evaluated_open: lastOpen })
        .where('id', '=', id)
        .where('status', '=', 'active')
        .where('armed_at', '=', armedAt)
        .execute();
    },
    // The update and the outbox rows commit together; the database's fan-out trigger adds the
    // webhook deliveries in the same statement.
    trigger: (id, armedAt, t, notice) =>
      db.transaction().execute(async (trx) => {
        const fired = await trx
          .updateTable('alerts')
          .set({
            status: 'triggered',
            triggered_at: t.triggered_at,
            trigger_value: t.trigger_value,
            trigger_candle: t.trigger_candle,
            last_evaluated_open: t.trigger_candle,
            updated_at: t.triggered_at,
          })
          .where('id', '=', id)
          .where('status', '=', 'active')
          .where('armed_at', '=', armedAt)
          .returning('user_id')
          .executeTakeFirst();
        if (fired === undefined) return false;
        await enqueue(trx, fired.user_id, notice, t.triggered_at);
        return true;
      }),
    expireDue: async (now) =>
      changes(
        await db
          .updateTable('alerts')
          .set({ status: 'expired', updated_at: now })
          .where('status', '=', 'active')
          .where('expires_at', '<=', now)
          .executeTakeFirst(),
      ),
  };
}

const deviceOf = (r: PushDevicesTable): PushDeviceRecord => ({ ...r, active: r.active === 1 });

/** Whether two rows hold the same subscription keys (compared in constant time: `auth` is a secret). */
function sameKeys(a: Pick<PushDeviceRecord, 'p256dh' | 'auth'>, b: Pick<PushDeviceRecord, 'p256dh' | 'auth'>): boolean {
  const digest = (r: Pick<PushDeviceRecord, 'p256dh' | 'auth'>) =>
    createHash('sha256').update(`${r.p256dh}\n${r.auth}`).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Push devices and their outbox, as receivers of alerts. */
const DEVICES: ReceiverTables = { table: 'push_devices', outbox: 'push_outbox', column: 'device_id', word: 'device' };

/** Web Push subscriptions, one row per endpoint. */
export function sqlPushDevices(s: Sql): PushDeviceRepository {
  const { db } = s;
  const regimeFilter = (q: Db) =>
    q
      .selectFrom('favorites as f')
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('push_devices as d')
            .select('d.id')
            .whereRef('d.user_id', '=', 'f.user_id')
            .where('d.active', '=', 1),
        ),
      )
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('notification_preferences as p')
              .select('p.user_id')
              .whereRef('p.user_id', '=', 'f.user_id')
              .where('p.regime_notification_disabled', '=', 1),
          ),
        ),
      )
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('users as u')
              .select('u.id')
              .whereRef('u.id', '=', 'f.user_id')
              .where('u.disabled_at', 'is not', null),
          ),
        ),
      );
  return {
    upsert: (d) =>
      db.transaction().execute(async (trx) => {
        // Insert first: a concurrent registration of the same endpoint then waits on this row.
        const inserted = await trx
          .insertInto('push_devices')
          .values({ ...columnsOf('push_devices', d), active: 1, deactivated_at: null, deactivated_reason: null })
          .onConflict((oc) => oc.column('endpoint').doNothing())
          .returningAll()
          .executeTakeFirst();
        if (inserted !== undefined) return deviceOf(inserted);
        const held = await trx
          .selectFrom('push_devices')
          .selectAll()
          .where('endpoint', '=', d.endpoint)
          .$if(s.engine === 'postgres', (q) => q.forUpdate())
          .executeTakeFirstOrThrow();
        if (held.user_id !== d.user_id) {
          // Another account's endpoint moves only with proof that the caller holds that subscription
          // (its keys, which only the browser and this server know); a bare endpoint leaves it where it is.
          if (!sameKeys(held, d)) return deviceOf(held);
          // The previous owner's pushes must not reach a browser that now belongs to this account.
          await dropPending(trx, DEVICES, held.id, 'device re-registered', d.updated_at);
        }
        const refreshed = await trx
          .updateTable('push_devices')
          .set({
            user_id: d.user_id,
            p256dh: d.p256dh,
            auth: d.auth,
            name: d.name,
            updated_at: d.updated_at,
            active: 1,
            deactivated_at: null,
            deactivated_reason: null,
          })
          .where('id', '=', held.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return deviceOf(refreshed);
      }),
    ...receiverQueries(s, DEVICES, deviceOf),
    usersWithActiveDevices: async () =>
      (
        await db
          .selectFrom('push_devices')
          .select('user_id')
          .distinct()
          .where('active', '=', 1)
          .where(({ exists, not, selectFrom }) =>
            not(
              exists(
                selectFrom('users as u')
                  .select('u.id')
                  .whereRef('u.id', '=', 'push_devices.user_id')
                  .where('u.disabled_at', 'is not', null),
              ),
            ),
          )
          .orderBy('user_id')
          .execute()
      ).map((r) => r.user_id),
    regimeAssets: async () =>
      (await regimeFilter(db).select('f.asset_id').distinct().orderBy('f.asset_id').execute()).map((r) => r.asset_id),
    regimeAudience: async (assetId) =>
      (await regimeFilter(db).select('f.user_id').where('f.asset_id', '=', assetId).orderBy('f.user_id').execute()).map(
        (r) => r.user_id,
      ),
  };
}

/** The push outbox: one row per (trigger key, device), kept after delivery as the ledger. */
export function sqlPushOutbox(s: Sql): PushOutboxRepository {
  const { db } = s;
  return {
    enqueue: (userIds, notice, now) =>
      db.transaction().execute(async (trx) => {
        let n = 0;
        for (const u of userIds) n += await enqueue(trx, u, notice, now);
        return n;
      }),
    ...outboxQueries<OutboxRecord>(s, 'push_outbox'),
  };
}

/** Push settings (the VAPID keys, scheduler marks), by name. */
export function sqlPushSettings({ db }: Sql): PushSettingsRepository {
  const get = async (q: Db, name: string) =>
    (await q.selectFrom('push_settings').select('value').where('name', '=', name).executeTakeFirst())?.value ?? null;
  return {
    get: (name) => get(db, name),
    setIfAbsent: (name, value) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('push_settings')
          .values({ name, value })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        return (await get(trx, name)) ?? value;
      }),
    set: async (name, value) => {
      await db
        .insertInto('push_settings')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
        .execute();
    },
  };
}

const DEFAULT_PREFERENCES: NotificationPreferencesRecord = {
  pilot_trade_notification_disabled: false,
  regime_notification_disabled: false,
};

/** Per-user notification preferences; everything on until changed. */
export function sqlNotificationPreferences(s: Sql): NotificationPreferencesRepository {
  const { db } = s;
  const read = async (q: Db, userId: string): Promise<NotificationPreferencesRecord> => {
    const r = await q
      .selectFrom('notification_preferences')
      .select(['pilot_trade_notification_disabled', 'regime_notification_disabled'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!r) return { ...DEFAULT_PREFERENCES };
    return {
      pilot_trade_notification_disabled: r.pilot_trade_notification_disabled === 1,
      regime_notification_disabled: r.regime_notification_disabled === 1,
    };
  };
  return {
    get: (userId) => read(db, userId),
    update: (userId, patch, now) =>
      db.transaction().execute(async (trx) => {
        await lockUser(s, trx, userId);
        const next = { ...(await read(trx, userId)), ...definedOnly(patch) };
        const row = {
          pilot_trade_notification_disabled: next.pilot_trade_notification_disabled ? 1 : 0,
          regime_notification_disabled: next.regime_notification_disabled ? 1 : 0,
          updated_at: now,
        };
        await trx
          .insertInto('notification_preferences')
          .values({ user_id: userId, ...row })
          .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
          .execute();
        return next;
      }),
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
