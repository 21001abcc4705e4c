import type Database from 'better-sqlite3';
import type { PushNotice } from '../alerts-types.js';
import type { AlertWebhookRecord, AlertWebhookRepository, WebhookOutboxRecord } from '../webhooks-types.js';

type DB = Database.Database;

interface WebhookRow extends Omit<AlertWebhookRecord, 'active'> {
  active: number;
}
const webhookOf = (r: WebhookRow): AlertWebhookRecord => ({ ...r, active: r.active === 1 });

/** Alert webhooks and their outbox (the fan-out itself is the `alert_webhook_fan_out` trigger). */
export function sqliteAlertWebhooks(db: DB): AlertWebhookRepository {
  const byUrl = db.prepare('SELECT id FROM alert_webhooks WHERE user_id = ? AND url = ?');
  const count = db.prepare('SELECT COUNT(*) AS n FROM alert_webhooks WHERE user_id = ?');
  const countActive = db.prepare('SELECT COUNT(*) AS n FROM alert_webhooks WHERE user_id = ? AND active = 1');
  const del = db.prepare('DELETE FROM alert_webhooks WHERE user_id = ? AND id = ?');
  const insert = db.prepare(
    `INSERT INTO alert_webhooks (id, user_id, url, name, secret, created_at, updated_at, active, deactivated_at, deactivated_reason)
     VALUES (@id, @user_id, @url, @name, @secret, @created_at, @updated_at, 1, NULL, NULL)`,
  );
  const byId = db.prepare('SELECT * FROM alert_webhooks WHERE id = ?');
  const list = db.prepare('SELECT * FROM alert_webhooks WHERE user_id = ? ORDER BY created_at DESC, id');
  const deactivate = db.prepare(
    'UPDATE alert_webhooks SET active = 0, deactivated_at = ?, deactivated_reason = ?, updated_at = ? WHERE id = ?',
  );
  const dropPending = db.prepare(
    'UPDATE webhook_outbox SET dropped_at = ?, last_error = ? WHERE webhook_id = ? AND delivered_at IS NULL AND dropped_at IS NULL',
  );
  const stage = db.prepare(
    `INSERT OR REPLACE INTO webhook_notices (alert_id, armed_at, trigger_candle, idempotency_key, category, payload, created_at)
     SELECT @alert_id, @armed_at, @trigger_candle, @key, @category, @payload, @now
     WHERE EXISTS (SELECT 1 FROM alert_webhooks WHERE user_id = @user_id AND active = 1)`,
  );
  const prune = db.prepare('DELETE FROM webhook_notices WHERE created_at < ?');
  const due = db.prepare(
    'SELECT * FROM webhook_outbox WHERE delivered_at IS NULL AND dropped_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?',
  );
  const delivered = db.prepare('UPDATE webhook_outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?');
  const dropped = db.prepare(
    'UPDATE webhook_outbox SET dropped_at = ?, last_error = ?, attempts = attempts + 1 WHERE id = ? AND delivered_at IS NULL',
  );
  const reschedule = db.prepare(
    'UPDATE webhook_outbox SET next_attempt_at = ?, last_error = ?, attempts = attempts + 1 WHERE id = ?',
  );
  const byKey = db.prepare('SELECT * FROM webhook_outbox WHERE idempotency_key = ? ORDER BY id');

  const refresh = db.prepare(
    `UPDATE alert_webhooks SET name = @name, secret = @secret, updated_at = @updated_at, active = 1,
       deactivated_at = NULL, deactivated_reason = NULL WHERE id = @id AND user_id = @user_id`,
  );
  const register = db.transaction((w: AlertWebhookRecord, max: number) => {
    // The same URL again is the same webhook with a new secret, active again; its pending
    // deliveries stay (each is signed when it is sent, so with the new secret).
    const held = byUrl.get(w.user_id, w.url) as { id: string } | undefined;
    if (held) {
      if (held.id !== w.id) throw new Error('re-register a webhook under its own id');
      refresh.run(w);
      return true;
    }
    if ((count.get(w.user_id) as { n: number }).n >= max) return false;
    insert.run(w);
    return true;
  });
  const deactivateTx = db.transaction((id: string, reason: string, now: number) => {
    deactivate.run(now, reason, now, id);
    dropPending.run(now, `webhook deactivated: ${reason}`, id);
  });
  return {
    register: async (w, max) => register(w, max),
    byId: async (id) => {
      const r = byId.get(id) as WebhookRow | undefined;
      return r ? webhookOf(r) : null;
    },
    idOfUrl: async (userId, url) => (byUrl.get(userId, url) as { id: string } | undefined)?.id ?? null,
    listByUser: async (userId) => (list.all(userId) as WebhookRow[]).map(webhookOf),
    countActive: async (userId) => (countActive.get(userId) as { n: number }).n,
    remove: async (userId, id) => del.run(userId, id).changes > 0,
    deactivate: async (id, reason, now) => {
      deactivateTx(id, reason, now);
    },
    stageNotice: async (userId, firing, notice: PushNotice, now) => {
      stage.run({
        ...firing,
        key: notice.idempotency_key,
        category: notice.category,
        payload: notice.payload,
        now,
        user_id: userId,
      });
    },
    due: async (now, limit) => due.all(now, limit) as WebhookOutboxRecord[],
    markDelivered: async (id, now) => {
      delivered.run(now, id);
    },
    markDropped: async (id, reason, now) => {
      dropped.run(now, reason, id);
    },
    reschedule: async (id, next, error) => {
      reschedule.run(next, error, id);
    },
    byKey: async (key) => byKey.all(key) as WebhookOutboxRecord[],
    pruneNotices: async (before) => prune.run(before).changes,
  };
}
