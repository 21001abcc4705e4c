import { createHash } from 'node:crypto';
import webpush from 'web-push';
import { stateKey, stateOf } from '../../platform/app-state.js';
import type { AppDeps } from '../../platform/deps.js';
import type { OutboxQueries, OutboxRecord, PushDeviceRecord } from '../../storage/alerts-types.js';
import { httpTransport, PUSH_TIMEOUT_MS, PushEndpointRefused, type PushRequest } from './transport.js';
import { type VapidDetails, vapidDetails } from './vapid.js';

/** How long a push service keeps an undelivered push (seconds): a day-old alert is stale. */
export const PUSH_TTL_SECONDS = 86_400;
/** Attempts before a push that keeps failing is dropped. */
export const MAX_PUSH_ATTEMPTS = 8;
/** Rows delivered per call, at most. */
export const DELIVERY_BATCH = 200;
/** Rows claimed at once: a sender holds only what it sends in the next moments. */
export const CLAIM_CHUNK = 10;
/**
 * How long a claimed row stays invisible to other senders: a whole chunk at the transport's
 * timeout, and a margin. A sender that dies leaves its rows to another after this.
 */
export const CLAIM_LEASE_MS = CLAIM_CHUNK * PUSH_TIMEOUT_MS + 20_000;
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 3_600_000;

/** Statuses after which the subscription is gone for good (RFC 8030 section 7.3 and push services). */
const GONE = new Set([404, 410]);

export interface DeliveryReport {
  delivered: number;
  /** Rows to deactivated or vanished devices. */
  gone: number;
  retried: number;
  /** Rows dropped after a permanent refusal or too many attempts. */
  failed: number;
}

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

/** When a failed attempt is tried again: 30 s doubling per attempt, at most an hour (push and webhooks alike). */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempts);
}

/**
 * The due rows of an outbox, claimed {@link CLAIM_CHUNK} at a time ({@link OutboxQueries.claim}),
 * at most {@link DELIVERY_BATCH} in all: rows another sender holds are skipped, so any number of
 * workers and instances deliver one outbox side by side and a row is sent by one of them.
 */
export async function* claimedRows<R>(outbox: Pick<OutboxQueries<R>, 'claim'>, now: () => number): AsyncGenerator<R> {
  let taken = 0;
  while (taken < DELIVERY_BATCH) {
    const chunk = await outbox.claim(now(), Math.min(CLAIM_CHUNK, DELIVERY_BATCH - taken), CLAIM_LEASE_MS);
    for (const row of chunk) yield row;
    taken += chunk.length;
    if (chunk.length < CLAIM_CHUNK) return;
  }
}

/**
 * `run`, shared by the calls that overlap in one app: while the app's delivery run is under way,
 * another call gets its promise instead of starting a second run (push and webhooks each have
 * their own). Runs of other apps and processes are kept apart by the claims ({@link claimedRows}).
 */
export function oneRunPerApp(
  name: string,
  run: (deps: AppDeps) => Promise<DeliveryReport>,
): (deps: AppDeps) => Promise<DeliveryReport> {
  const RUN = stateKey(name, () => ({ running: null as Promise<DeliveryReport> | null }));
  return (deps) => {
    const slot = stateOf(deps, RUN);
    slot.running ??= run(deps).finally(() => {
      slot.running = null;
    });
    return slot.running;
  };
}

/**
 * Sends the outbox rows that are due, claimed a few at a time. A row is marked delivered only
 * after the push service accepted it, so a crash in between re-sends it once its claim lapses
 * (at least once); the payload
 * carries the trigger's idempotency key for the client to drop such a repeat. 404/410 deactivate
 * the device; 429, 5xx and network failures retry with backoff; other refusals drop the row.
 * Calls in one app share a run, and claims keep runs apart, so a row is never sent twice concurrently.
 */
export const deliverDue: (deps: AppDeps) => Promise<DeliveryReport> = oneRunPerApp('push delivery run', deliverBatch);

async function deliverBatch(deps: AppDeps): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, gone: 0, retried: 0, failed: 0 };
  const { pushOutbox, pushDevices } = deps.storage;
  let vapid: VapidDetails | null = null;
  const transport =
    deps.pushTransport ?? httpTransport({ allowInternal: deps.config.push?.allowInsecureEndpoints === true });
  for await (const row of claimedRows(pushOutbox, deps.now)) {
    vapid ??= await vapidDetails(deps);
    const now = deps.now();
    const device = await pushDevices.byId(row.device_id);
    if (!device?.active) {
      await pushOutbox.markDropped(row.id, 'device inactive', now);
      report.gone++;
      continue;
    }
    if (now - row.created_at > PUSH_TTL_SECONDS * 1000) {
      await pushOutbox.markDropped(row.id, 'expired before delivery', now);
      report.failed++;
      continue;
    }
    let status: number;
    try {
      status = (await transport(pushRequestOf(device, row, vapid))).status;
    } catch (err) {
      if (err instanceof PushEndpointRefused) {
        // A public name that points inside the operator's network: never sent, and never again.
        await pushDevices.deactivate(device.id, err.message, deps.now());
        await pushOutbox.markDropped(row.id, err.message, deps.now());
        report.gone++;
        continue;
      }
      await retryOrDrop(deps, row, err instanceof Error ? err.message : String(err), report);
      continue;
    }
    if (status >= 200 && status < 300) {
      await pushOutbox.markDelivered(row.id, deps.now());
      report.delivered++;
    } else if (GONE.has(status)) {
      await pushDevices.deactivate(device.id, `gone (${status})`, deps.now());
      report.gone++;
    } else if (status === 429 || status >= 500) {
      await retryOrDrop(deps, row, `push service answered ${status}`, report);
    } else {
      await pushOutbox.markDropped(row.id, `push service refused with ${status}`, deps.now());
      report.failed++;
    }
  }
  return report;
}

async function retryOrDrop(deps: AppDeps, row: OutboxRecord, error: string, report: DeliveryReport): Promise<void> {
  const attempts = row.attempts + 1;
  if (attempts >= MAX_PUSH_ATTEMPTS) {
    await deps.storage.pushOutbox.markDropped(row.id, `gave up: ${error}`, deps.now());
    report.failed++;
    return;
  }
  await deps.storage.pushOutbox.reschedule(row.id, deps.now() + retryDelay(row.attempts), error);
  report.retried++;
}
