/** The Web Push channel of alert delivery: the request of one outbox row to one device. */
import { createHash } from 'node:crypto';
import webpush from 'web-push';
import type { AppDeps } from '../../platform/deps.js';
import type { OutboxRecord, PushDeviceRecord } from '../../storage/alerts-types.js';
import { channelDelivery, type DeliveryReport, PUSH_TTL_SECONDS } from './delivery.js';
import { httpTransport, type PushRequest } from './transport.js';
import { type VapidDetails, vapidDetails } from './vapid.js';

/**
 * The `Topic` header of a push: a push service replaces a still-queued push of the same topic,
 * so a re-send after a crash collapses onto the first copy when it is still waiting there.
 */
export function pushTopic(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 32);
}

/** The Web Push request of one outbox row: aes128gcm-encrypted payload, VAPID `Authorization`. */
export function pushRequestOf(device: PushDeviceRecord, row: OutboxRecord, vapid: VapidDetails): PushRequest {
  const details = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    row.payload,
    {
      vapidDetails: vapid,
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: row.category === 'alert' ? 'high' : 'normal',
      topic: pushTopic(row.idempotency_key),
    },
  );
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(details.headers)) headers[k] = String(v);
  const body = details.body ? new Uint8Array(details.body) : null;
  return { endpoint: details.endpoint, headers, body };
}

/** Answers after which a subscription is gone for good (RFC 8030 section 7.3 and push services). */
const GONE: ReadonlySet<number> = new Set([404, 410]);

/**
 * Sends the push outbox rows that are due over Web Push ({@link channelDelivery}): each row
 * encrypted for its device (aes128gcm) and signed with the VAPID keys; 404 and 410 say the
 * subscription is gone.
 */
export const deliverDue: (deps: AppDeps) => Promise<DeliveryReport> = channelDelivery<OutboxRecord, PushDeviceRecord>(
  'push delivery',
  (deps) => {
    const { pushOutbox, pushDevices } = deps.storage;
    let vapid: VapidDetails | null = null;
    return {
      outbox: pushOutbox,
      transport:
        deps.pushTransport ?? httpTransport({ allowInternal: deps.config.push?.allowInsecureEndpoints === true }),
      words: { receiver: 'device', answerer: 'push service' },
      receiverOf: (row) => pushDevices.byId(row.device_id),
      endpointOf: (device) => device.endpoint,
      open: async (device) => {
        vapid ??= await vapidDetails(deps);
        const keys = vapid;
        return { request: (row) => pushRequestOf(device, row, keys) };
      },
      deactivate: (id, reason, now) => pushDevices.deactivate(id, reason, now),
      gone: GONE,
      deactivateWhenGivenUp: false,
    };
  },
);
