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
import type { WebhookOutboxRecord } from '../../storage/webhooks-types.js';
import {
  claimedRows,
  type DeliveryReport,
  MAX_PUSH_ATTEMPTS,
  oneRunPerApp,
  PUSH_TTL_SECONDS,
  retryDelay,
} from './sender.js';
import { httpTransport, PushEndpointRefused, type PushRequest } from './transport.js';
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

/** Sends the webhook rows that are due, claimed a few at a time, as the push sender does ({@link claimedRows}). */
export const deliverWebhooksDue: (deps: AppDeps) => Promise<DeliveryReport> = oneRunPerApp(
  'webhook delivery run',
  deliverBatch,
);

async function deliverBatch(deps: AppDeps): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, gone: 0, retried: 0, failed: 0 };
  const hooks = deps.storage.alertWebhooks;
  await hooks.pruneNotices(deps.now() - PUSH_TTL_SECONDS * 1000);
  const transport =
    deps.pushTransport ?? httpTransport({ allowInternal: deps.config.push?.allowInsecureEndpoints === true });
  for await (const row of claimedRows(hooks, deps.now)) {
    const now = deps.now();
    const hook = await hooks.byId(row.webhook_id);
    if (!hook?.active) {
      await hooks.markDropped(row.id, 'webhook inactive', now);
      report.gone++;
      continue;
    }
    if (now - row.created_at > PUSH_TTL_SECONDS * 1000) {
      await hooks.markDropped(row.id, 'expired before delivery', now);
      report.failed++;
      continue;
    }
    let secret: string;
    try {
      secret = webhookSecret(deps, hook);
    } catch (err) {
      if (!(err instanceof CredentialsDecryptError)) throw err;
      await hooks.deactivate(hook.id, 'its secret does not open with the configured key', now);
      report.gone++;
      continue;
    }
    let status: number;
    try {
      status = (await transport(webhookRequestOf(hook.url, secret, row, now))).status;
    } catch (err) {
      if (err instanceof PushEndpointRefused) {
        await hooks.deactivate(hook.id, err.message, deps.now());
        report.gone++;
        continue;
      }
      await retryOrGiveUp(deps, row, err instanceof Error ? err.message : String(err), report);
      continue;
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
  return report;
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
