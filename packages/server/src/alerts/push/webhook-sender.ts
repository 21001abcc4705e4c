/**
 * Delivery of the webhook outbox, with the semantics of Web Push delivery: a row is marked delivered
 * only after a 2xx (so a crash in between sends it again: at least once; the body carries the
 * trigger's key for the receiver to drop a repeat), 429, 5xx and network failures retry with the
 * push backoff, a 410 deactivates the webhook, and so does a row that exhausts its attempts. Every
 * request goes through the push transport: each address the URL's name resolves to is checked
 * against the push deny list and the connection is made to a checked address.
 */
import { WEBHOOK_SIGNATURE_HEADER } from '@marketlens/contract';
import { CredentialsDecryptError } from '../../accounts/credentials-crypto.js';
import type { AppDeps } from '../../platform/deps.js';
import type { AlertWebhookRecord, WebhookOutboxRecord } from '../../storage/webhooks-types.js';
import { type DeliveryReport, MAX_PUSH_ATTEMPTS, outboxDelivery, PUSH_TTL_SECONDS, retryDelay } from './sender.js';
import { httpTransport, PushEndpointRefused, type PushRequest, type PushTransport } from './transport.js';
import { webhookSecret, webhookSignature } from './webhooks.js';

/** The `user-agent` of deliveries. */
export const WEBHOOK_USER_AGENT = 'marketlens-webhooks/1';

/** The request of one delivery: the notice JSON as the body, signed over `<t>.<body>` at send time. */
export function webhookRequestOf(url: string, secret: string, row: WebhookOutboxRecord, now: number): PushRequest {
  return {
    endpoint: url,
    headers: {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'marketlens-idempotency-key': row.idempotency_key,
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, Math.floor(now / 1000), row.payload),
    },
    body: new TextEncoder().encode(row.payload),
  };
}

/**
 * Sends the webhook rows that are due, claimed a few at a time and several at once, as the push
 * sender does ({@link outboxDelivery}); the per-endpoint limit counts a webhook's host, so many
 * webhooks (of many accounts) on one slow host share its two slots.
 */
export const deliverWebhooksDue: (deps: AppDeps) => Promise<DeliveryReport> = outboxDelivery<WebhookOutboxRecord>(
  'webhook delivery',
  (deps) => {
    const hooks = deps.storage.alertWebhooks;
    const transport =
      deps.pushTransport ?? httpTransport({ allowInternal: deps.config.push?.allowInsecureEndpoints === true });
    return {
      outbox: hooks,
      before: async () => {
        await hooks.pruneNotices(deps.now() - PUSH_TTL_SECONDS * 1000);
      },
      prepare: async (row, report) => {
        const now = deps.now();
        const hook = await hooks.byId(row.webhook_id);
        if (!hook?.active) {
          await hooks.markDropped(row.id, 'webhook inactive', now);
          report.gone++;
          return null;
        }
        if (now - row.created_at > PUSH_TTL_SECONDS * 1000) {
          await hooks.markDropped(row.id, 'expired before delivery', now);
          report.failed++;
          return null;
        }
        let secret: string;
        try {
          secret = webhookSecret(deps, hook);
        } catch (err) {
          if (!(err instanceof CredentialsDecryptError)) throw err;
          await hooks.deactivate(hook.id, 'its secret does not open with the configured key', now);
          report.gone++;
          return null;
        }
        return {
          endpoint: webhookEndpointOf(hook.url),
          send: () => sendOne(deps, transport, hook, secret, row, report),
        };
      },
    };
  },
);

/** The endpoint a webhook's deliveries count against: its host, as the URL parser writes it. */
export function webhookEndpointOf(url: string): string {
  return new URL(url).host;
}

async function sendOne(
  deps: AppDeps,
  transport: PushTransport,
  hook: AlertWebhookRecord,
  secret: string,
  row: WebhookOutboxRecord,
  report: DeliveryReport,
): Promise<void> {
  const hooks = deps.storage.alertWebhooks;
  let status: number;
  try {
    status = (await transport(webhookRequestOf(hook.url, secret, row, deps.now()))).status;
  } catch (err) {
    if (err instanceof PushEndpointRefused) {
      await hooks.deactivate(hook.id, err.message, deps.now());
      report.gone++;
      return;
    }
    await retryOrGiveUp(deps, row, err instanceof Error ? err.message : String(err), report);
    return;
  }
  if (status >= 200 && status < 300) {
    await hooks.markDelivered(row.id, deps.now());
    report.delivered++;
  } else if (status === 410) {
    await hooks.deactivate(hook.id, 'gone (410)', deps.now());
    report.gone++;
  } else if (status === 429 || status >= 500) {
    await retryOrGiveUp(deps, row, `webhook answered ${status}`, report);
  } else {
    await hooks.markDropped(row.id, `webhook refused with ${status}`, deps.now());
    report.failed++;
  }
}

/** Another attempt later, or, after the last one, the webhook is deactivated (it keeps failing). */
async function retryOrGiveUp(deps: AppDeps, row: WebhookOutboxRecord, error: string, report: DeliveryReport) {
  const hooks = deps.storage.alertWebhooks;
  if (row.attempts + 1 >= MAX_PUSH_ATTEMPTS) {
    await hooks.markDropped(row.id, `gave up: ${error}`, deps.now());
    await hooks.deactivate(row.webhook_id, `failed ${MAX_PUSH_ATTEMPTS} times: ${error}`, deps.now());
    report.failed++;
    return;
  }
  await hooks.reschedule(row.id, deps.now() + retryDelay(row.attempts), error);
  report.retried++;
}
