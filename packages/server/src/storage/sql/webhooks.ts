/** Alert webhooks and their outbox (the fan-out itself is the `alert_webhook_fan_out` trigger). */
import type { AlertWebhookRecord, AlertWebhookRepository, WebhookOutboxRecord } from '../webhooks-types.js';
import { outboxQueries } from './outbox.js';
import { changes, type Db, lockUser, type Sql } from './query.js';
import { type ReceiverTables, receiverQueries } from './receivers.js';
import type { AlertWebhooksTable } from './schema.js';
import { columnsOf } from './schema.js';

/** Webhooks and their outbox, as receivers of alerts. */
const WEBHOOKS: ReceiverTables = {
  table: 'alert_webhooks',
  outbox: 'webhook_outbox',
  column: 'webhook_id',
  word: 'webhook',
};

const webhookOf = (r: AlertWebhooksTable): AlertWebhookRecord => ({ ...r, active: r.active === 1 });

async function idOfUrl(db: Db, userId: string, url: string): Promise<string | null> {
  const r = await db
    .selectFrom('alert_webhooks')
    .select('id')
    .where('user_id', '=', userId)
    .where('url', '=', url)
    .executeTakeFirst();
  return r?.id ?? null;
}

/** Webhooks, capped per user under the user's row lock, and their delivery outbox. */
export function sqlAlertWebhooks(s: Sql): AlertWebhookRepository {
  const { db } = s;
  return {
    register: (w, max) =>
      db.transaction().execute(async (trx) => {
        await lockUser(s, trx, w.user_id);
        // The same URL again is the same webhook with a new secret, active again; its pending
        // deliveries stay (each is signed when it is sent, so with the new secret).
        const held = await idOfUrl(trx, w.user_id, w.url);
        if (held !== null) {
          if (held !== w.id) throw new Error('re-register a webhook under its own id');
          await trx
            .updateTable('alert_webhooks')
            .set({
              name: w.name,
              secret: w.secret,
              updated_at: w.updated_at,
              active: 1,
              deactivated_at: null,
              deactivated_reason: null,
            })
            .where('id', '=', w.id)
            .where('user_id', '=', w.user_id)
            .execute();
          return true;
        }
        const { n } = await trx
          .selectFrom('alert_webhooks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', w.user_id)
          .executeTakeFirstOrThrow();
        if (Number(n) >= max) return false;
        await trx
          .insertInto('alert_webhooks')
          .values({ ...columnsOf('alert_webhooks', w), active: 1, deactivated_at: null, deactivated_reason: null })
          .execute();
        return true;
      }),
    ...receiverQueries(s, WEBHOOKS, webhookOf),
    idOfUrl: (userId, url) => idOfUrl(db, userId, url),
    stageNotice: async (userId, firing, notice, now) => {
      const active = await db
        .selectFrom('alert_webhooks')
        .select('id')
        .where('user_id', '=', userId)
        .where('active', '=', 1)
        .limit(1)
        .executeTakeFirst();
      if (active === undefined) return;
      const row = {
        idempotency_key: notice.idempotency_key,
        category: notice.category,
        payload: notice.payload,
        created_at: now,
      };
      await db
        .insertInto('webhook_notices')
        .values({ alert_id: firing.alert_id, armed_at: firing.armed_at, trigger_candle: firing.trigger_candle, ...row })
        .onConflict((oc) => oc.columns(['alert_id', 'armed_at', 'trigger_candle']).doUpdateSet(row))
        .execute();
    },
    ...outboxQueries<WebhookOutboxRecord>(s, 'webhook_outbox'),
    pruneNotices: async (before) =>
      changes(await db.deleteFrom('webhook_notices').where('created_at', '<', before).executeTakeFirst()),
  };
}
