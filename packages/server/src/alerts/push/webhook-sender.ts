/**
 * The webhook channel of alert delivery (the pipeline is `delivery.ts`, shared with Web Push): a
 * signed POST of the notice. Every request goes through the push transport: each address the URL's
 * name resolves to is checked against the push deny list and the connection is made to a checked
 * address.
 */
import { WEBHOOK_SIGNATURE_HEADER } from '@marketlens/contract';
import type { AppDeps } from '../../platform/deps.js';
import { CredentialsDecryptError } from '../../platform/secrets.js';
import type { AlertWebhookRecord, WebhookOutboxRecord } from '../../storage/webhooks-types.js';
import { channelDelivery, type DeliveryReport, PUSH_TTL_SECONDS } from './delivery.js';
import { httpTransport, type PushRequest } from './transport.js';
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
 * Sends the webhook outbox rows that are due ({@link channelDelivery}), each signed with its
 * webhook's secret at send time. The per-endpoint limit counts a webhook's host, so many webhooks
 * (of many accounts) on one slow host share its two slots. Only 410 says a webhook is gone (a 404
 * may be a receiver being deployed); a webhook whose row fails every attempt is deactivated, and
 * so is one whose secret no longer opens with the configured key.
 */
export const deliverWebhooksDue: (deps: AppDeps) => Promise<DeliveryReport> = channelDelivery<
  WebhookOutboxRecord,
  AlertWebhookRecord
>('webhook delivery', (deps) => {
  const hooks = deps.storage.alertWebhooks;
  return {
    outbox: hooks,
    transport:
      deps.pushTransport ?? httpTransport({ allowInternal: deps.config.push?.allowInsecureEndpoints === true }),
    words: { receiver: 'webhook', answerer: 'webhook' },
    before: async () => {
      await hooks.pruneNotices(deps.now() - PUSH_TTL_SECONDS * 1000);
    },
    receiverOf: (row) => hooks.byId(row.webhook_id),
    endpointOf: (hook) => webhookEndpointOf(hook.url),
    open: async (hook) => {
      let secret: string;
      try {
        secret = webhookSecret(deps, hook);
      } catch (err) {
        if (!(err instanceof CredentialsDecryptError)) throw err;
        return { unusable: 'its secret does not open with the configured key' };
      }
      return { request: (row, now) => webhookRequestOf(hook.url, secret, row, now) };
    },
    deactivate: (id, reason, now) => hooks.deactivate(id, reason, now),
    gone: GONE,
    deactivateWhenGivenUp: true,
  };
});

/** The answer after which a webhook is gone for good. */
const GONE: ReadonlySet<number> = new Set([410]);

/** The endpoint a webhook's deliveries count against: its host, as the URL parser writes it. */
export function webhookEndpointOf(url: string): string {
  return new URL(url).host;
}
