import { createHash, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
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

type DB = Database.Database;

const ALERT_COLUMNS = [
  'id',
  'user_id',
  'asset_id',
  'kind',
  'timeframe',
  'evaluates_as',
  'target',
  'direction',
  'zone_low',
  'zone_high',
  'reference',
  'status',
  'created_at',
  'updated_at',
  'armed_at',
  'expires_at',
  'triggered_at',
  'trigger_value',
  'trigger_candle',
  'last_evaluated_open',
] as const;

/** Alerts: CRUD with the active cap checked in the same transaction as the write. */
export function sqliteAlerts(db: DB): AlertRepository {
  const insert = db.prepare(
    `INSERT INTO alerts (${ALERT_COLUMNS.join(', ')}) VALUES (${ALERT_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const replace = db.prepare(
    `UPDATE alerts SET ${ALERT_COLUMNS.filter((c) => c !== 'id' && c !== 'user_id' && c !== 'created_at')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id AND user_id = @user_id`,
  );
  const countActive = db.prepare("SELECT COUNT(*) AS n FROM alerts WHERE user_id = ? AND status = 'active'");
  const countStatus = db.prepare('SELECT COUNT(*) AS n FROM alerts WHERE user_id = ? AND status = ?');
  const byId = db.prepare('SELECT * FROM alerts WHERE user_id = ? AND id = ?');
  const list = db.prepare('SELECT * FROM alerts WHERE user_id = ? ORDER BY created_at DESC, id');
  const del = db.prepare('DELETE FROM alerts WHERE user_id = ? AND id = ?');
  const active = db.prepare("SELECT * FROM alerts WHERE status = 'active' ORDER BY asset_id, id");
  const evaluated = db.prepare(
    "UPDATE alerts SET last_evaluated_open = ? WHERE id = ? AND status = 'active' AND armed_at = ?",
  );
  const fire = db.prepare(
    `UPDATE alerts SET status = 'triggered', triggered_at = @triggered_at, trigger_value = @trigger_value,
       trigger_candle = @trigger_candle, last_evaluated_open = @trigger_candle, updated_at = @triggered_at
     WHERE id = @id AND status = 'active' AND armed_at = @armed_at`,
  );
  const ownerOf = db.prepare('SELECT user_id FROM alerts WHERE id = ?');
  const expire = db.prepare(
    "UPDATE alerts SET status = 'expired', updated_at = ? WHERE status = 'active' AND expires_at <= ?",
  );
  const enqueue = enqueueStatement(db);

  const create = db.transaction((alert: AlertRecord, maxActive: number | null) => {
    if (alert.status === 'active' && maxActive !== null) {
      const { n } = countActive.get(alert.user_id) as { n: number };
      if (n >= maxActive) return false;
    }
    insert.run(alert);
    return true;
  });
  const update = db.transaction((alert: AlertRecord, maxActive: number | null) => {
    const current = byId.get(alert.user_id, alert.id) as AlertRecord | undefined;
    if (!current) return 'missing' as const;
    if (alert.status === 'active' && current.status !== 'active' && maxActive !== null) {
      const { n } = countActive.get(alert.user_id) as { n: number };
      if (n >= maxActive) return 'limit' as const;
    }
    replace.run(alert);
    return 'updated' as const;
  });
  const trigger = db.transaction(
    (
      id: string,
      armedAt: number,
      t: { triggered_at: number; trigger_value: number; trigger_candle: number },
      notice: PushNotice,
    ) => {
      if (fire.run({ id, armed_at: armedAt, ...t }).changes === 0) return false;
      const { user_id } = ownerOf.get(id) as { user_id: string };
      enqueue(user_id, notice, t.triggered_at);
      return true;
    },
  );
  return {
    createIfBelow: async (alert, maxActive) => create(alert, maxActive),
    byId: async (userId, id) => (byId.get(userId, id) as AlertRecord | undefined) ?? null,
    listByUser: async (userId) => list.all(userId) as AlertRecord[],
    countActive: async (userId) => (countActive.get(userId) as { n: number }).n,
    countByStatus: async (userId, status) => (countStatus.get(userId, status) as { n: number }).n,
    update: async (alert, maxActive) => update(alert, maxActive),
    remove: async (userId, id) => del.run(userId, id).changes > 0,
    listActive: async () => active.all() as AlertRecord[],
    markEvaluated: async (id, armedAt, lastOpen) => {
      evaluated.run(lastOpen, id, armedAt);
    },
    trigger: async (id, armedAt, t, notice) => trigger(id, armedAt, t, notice),
    expireDue: async (now) => expire.run(now, now).changes,
  };
}

/** Writes a notice for every active device of one user (a key already written for a device is kept). */
function enqueueStatement(db: DB): (userId: string, notice: PushNotice, now: number) => number {
  const stmt = db.prepare(
    `INSERT OR IGNORE INTO push_outbox (idempotency_key, device_id, user_id, category, payload, created_at, next_attempt_at)
     SELECT @key, id, user_id, @category, @payload, @now, @now FROM push_devices WHERE user_id = @user_id AND active = 1`,
  );
  return (userId, notice, now) =>
    stmt.run({
      key: notice.idempotency_key,
      category: notice.category,
      payload: notice.payload,
      now,
      user_id: userId,
    }).changes;
}

interface DeviceRow extends Omit<PushDeviceRecord, 'active'> {
  active: number;
}
const deviceOf = (r: DeviceRow): PushDeviceRecord => ({ ...r, active: r.active === 1 });

/** Whether two rows hold the same subscription keys (compared in constant time: `auth` is a secret). */
function sameKeys(a: Pick<PushDeviceRecord, 'p256dh' | 'auth'>, b: Pick<PushDeviceRecord, 'p256dh' | 'auth'>): boolean {
  const digest = (r: Pick<PushDeviceRecord, 'p256dh' | 'auth'>) =>
    createHash('sha256').update(`${r.p256dh}\n${r.auth}`).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function sqlitePushDevices(db: DB): PushDeviceRepository {
  const byEndpoint = db.prepare('SELECT * FROM push_devices WHERE endpoint = ?');
  const insert = db.prepare(
    `INSERT INTO push_devices (id, user_id, endpoint, p256dh, auth, name, created_at, updated_at, active, deactivated_at, deactivated_reason)
     VALUES (@id, @user_id, @endpoint, @p256dh, @auth, @name, @created_at, @updated_at, 1, NULL, NULL)`,
  );
  const refresh = db.prepare(
    `UPDATE push_devices SET user_id = @user_id, p256dh = @p256dh, auth = @auth, name = @name, updated_at = @updated_at,
       active = 1, deactivated_at = NULL, deactivated_reason = NULL WHERE id = @id`,
  );
  const dropPending = db.prepare(
    'UPDATE push_outbox SET dropped_at = ?, last_error = ? WHERE device_id = ? AND delivered_at IS NULL AND dropped_at IS NULL',
  );
  const byId = db.prepare('SELECT * FROM push_devices WHERE id = ?');
  const list = db.prepare('SELECT * FROM push_devices WHERE user_id = ? ORDER BY created_at DESC, id');
  const countActive = db.prepare('SELECT COUNT(*) AS n FROM push_devices WHERE user_id = ? AND active = 1');
  const del = db.prepare('DELETE FROM push_devices WHERE user_id = ? AND id = ?');
  const deactivate = db.prepare(
    'UPDATE push_devices SET active = 0, deactivated_at = ?, deactivated_reason = ?, updated_at = ? WHERE id = ?',
  );
  const users = db.prepare('SELECT DISTINCT user_id FROM push_devices WHERE active = 1 ORDER BY user_id');
  const regimeFilter = `FROM favorites f
     WHERE EXISTS (SELECT 1 FROM push_devices d WHERE d.user_id = f.user_id AND d.active = 1)
       AND NOT EXISTS (SELECT 1 FROM notification_preferences p WHERE p.user_id = f.user_id AND p.regime_notification_disabled = 1)`;
  const regimeAssets = db.prepare(`SELECT DISTINCT f.asset_id ${regimeFilter} ORDER BY f.asset_id`);
  const regimeAudience = db.prepare(`SELECT f.user_id ${regimeFilter} AND f.asset_id = ? ORDER BY f.user_id`);

  const upsert = db.transaction((d: PushDeviceRecord) => {
    const held = byEndpoint.get(d.endpoint) as DeviceRow | undefined;
    if (!held) {
      insert.run(d);
      return deviceOf(byId.get(d.id) as DeviceRow);
    }
    if (held.user_id !== d.user_id) {
      // Another account's endpoint moves only with proof that the caller holds that subscription
      // (its keys, which only the browser and this server know); a bare endpoint leaves it where it is.
      if (!sameKeys(held, d)) return deviceOf(held);
      // The previous owner's pushes must not reach a browser that now belongs to this account.
      dropPending.run(d.updated_at, 'device re-registered', held.id);
    }
    refresh.run({ ...d, id: held.id });
    return deviceOf(byId.get(held.id) as DeviceRow);
  });
  const deactivateTx = db.transaction((id: string, reason: string, now: number) => {
    deactivate.run(now, reason, now, id);
    dropPending.run(now, `device deactivated: ${reason}`, id);
  });
  return {
    upsert: async (d) => upsert(d),
    byId: async (id) => {
      const r = byId.get(id) as DeviceRow | undefined;
      return r ? deviceOf(r) : null;
    },
    listByUser: async (userId) => (list.all(userId) as DeviceRow[]).map(deviceOf),
    countActive: async (userId) => (countActive.get(userId) as { n: number }).n,
    remove: async (userId, id) => del.run(userId, id).changes > 0,
    deactivate: async (id, reason, now) => {
      deactivateTx(id, reason, now);
    },
    usersWithActiveDevices: async () => (users.all() as { user_id: string }[]).map((r) => r.user_id),
    regimeAssets: async () => (regimeAssets.all() as { asset_id: string }[]).map((r) => r.asset_id),
    regimeAudience: async (assetId) => (regimeAudience.all(assetId) as { user_id: string }[]).map((r) => r.user_id),
  };
}

export function sqlitePushOutbox(db: DB): PushOutboxRepository {
  const enqueue = enqueueStatement(db);
  const due = db.prepare(
    'SELECT * FROM push_outbox WHERE delivered_at IS NULL AND dropped_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?',
  );
  const delivered = db.prepare('UPDATE push_outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?');
  const dropped = db.prepare(
    'UPDATE push_outbox SET dropped_at = ?, last_error = ?, attempts = attempts + 1 WHERE id = ? AND delivered_at IS NULL',
  );
  const reschedule = db.prepare(
    'UPDATE push_outbox SET next_attempt_at = ?, last_error = ?, attempts = attempts + 1 WHERE id = ?',
  );
  const byKey = db.prepare('SELECT * FROM push_outbox WHERE idempotency_key = ? ORDER BY id');
  const enqueueAll = db.transaction((userIds: readonly string[], notice: PushNotice, now: number) => {
    let n = 0;
    for (const u of userIds) n += enqueue(u, notice, now);
    return n;
  });
  return {
    enqueue: async (userIds, notice, now) => enqueueAll(userIds, notice, now),
    due: async (now, limit) => due.all(now, limit) as OutboxRecord[],
    markDelivered: async (id, now) => {
      delivered.run(now, id);
    },
    markDropped: async (id, reason, now) => {
      dropped.run(now, reason, id);
    },
    reschedule: async (id, next, error) => {
      reschedule.run(next, error, id);
    },
    byKey: async (key) => byKey.all(key) as OutboxRecord[],
  };
}

export function sqlitePushSettings(db: DB): PushSettingsRepository {
  const get = db.prepare('SELECT value FROM push_settings WHERE name = ?');
  const insert = db.prepare('INSERT OR IGNORE INTO push_settings (name, value) VALUES (?, ?)');
  const set = db.prepare(
    'INSERT INTO push_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
  );
  const setIfAbsent = db.transaction((name: string, value: string) => {
    insert.run(name, value);
    return (get.get(name) as { value: string }).value;
  });
  return {
    get: async (name) => (get.get(name) as { value: string } | undefined)?.value ?? null,
    setIfAbsent: async (name, value) => setIfAbsent(name, value),
    set: async (name, value) => {
      set.run(name, value);
    },
  };
}

const DEFAULT_PREFERENCES: NotificationPreferencesRecord = {
  pilot_trade_notification_disabled: false,
  regime_notification_disabled: false,
};

export function sqliteNotificationPreferences(db: DB): NotificationPreferencesRepository {
  const get = db.prepare(
    'SELECT pilot_trade_notification_disabled, regime_notification_disabled FROM notification_preferences WHERE user_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO notification_preferences (user_id, pilot_trade_notification_disabled, regime_notification_disabled, updated_at)
     VALUES (@user_id, @pilot, @regime, @now)
     ON CONFLICT(user_id) DO UPDATE SET pilot_trade_notification_disabled = @pilot, regime_notification_disabled = @regime, updated_at = @now`,
  );
  const read = (userId: string): NotificationPreferencesRecord => {
    const r = get.get(userId) as
      | { pilot_trade_notification_disabled: number; regime_notification_disabled: number }
      | undefined;
    if (!r) return { ...DEFAULT_PREFERENCES };
    return {
      pilot_trade_notification_disabled: r.pilot_trade_notification_disabled === 1,
      regime_notification_disabled: r.regime_notification_disabled === 1,
    };
  };
  const update = db.transaction((userId: string, patch: Partial<NotificationPreferencesRecord>, now: number) => {
    const next = { ...read(userId), ...definedOnly(patch) };
    upsert.run({
      user_id: userId,
      pilot: next.pilot_trade_notification_disabled ? 1 : 0,
      regime: next.regime_notification_disabled ? 1 : 0,
      now,
    });
    return next;
  });
  return {
    get: async (userId) => read(userId),
    update: async (userId, patch, now) => update(userId, patch, now),
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
