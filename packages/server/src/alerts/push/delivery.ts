/**
 * The delivery of the alert outboxes, one pipeline for every channel (Web Push to devices, signed
 * webhooks): rows are claimed a few at a time, sent several at once within per-app and
 * per-endpoint limits, and settled the same way whatever the channel. A row is marked delivered
 * only after its receiver's service accepted it, so a crash in between re-sends it once its claim
 * lapses (at least once; the payload carries the trigger's idempotency key for the client to drop
 * such a repeat); a row to an inactive receiver or older than {@link PUSH_TTL_SECONDS} is dropped;
 * 429, 5xx and network failures retry with backoff, up to {@link MAX_PUSH_ATTEMPTS}; the statuses
 * that say the receiver is gone, or an address inside the operator's network, deactivate it; other
 * refusals drop the row. A channel ({@link DeliveryChannel}) says only how it sends.
 */
import { stateKey, stateOf } from '../../platform/app-state.js';
import type { AppDeps } from '../../platform/deps.js';
import type { OutboxQueries } from '../../storage/alerts-types.js';
import { PUSH_TIMEOUT_MS, PushEndpointRefused, type PushRequest, type PushTransport } from './transport.js';

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

export interface DeliveryReport {
  delivered: number;
  /** Rows to deactivated or vanished devices. */
  gone: number;
  retried: number;
  /** Rows dropped after a permanent refusal or too many attempts. */
  failed: number;
}

/** When a failed attempt is tried again: 30 s doubling per attempt, at most an hour (push and webhooks alike). */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempts);
}

/** Delivery attempts one app has under way at once, across all endpoints. */
export const DELIVERY_CONCURRENCY = 16;
/** Attempts under way at once to one endpoint (a push subscription, a webhook's host). */
export const ENDPOINT_CONCURRENCY = 2;
/**
 * Rows of one endpoint a run holds at once (under way and waiting for a slot). A further row is
 * handed back ({@link OutboxQueries.release}) for a later run, so a slow endpoint keeps no row
 * claimed past its lease and takes no more than its share of the run.
 */
export const ENDPOINT_BACKLOG = 2 * ENDPOINT_CONCURRENCY;
/** When a row handed back because its endpoint was busy is due again. */
export const ENDPOINT_BUSY_DELAY_MS = 5_000;

/** What to do with one claimed row: send it to `endpoint` with `send`, or nothing more (it was settled). */
export interface PreparedDelivery {
  /** Identifies the endpoint the per-endpoint limit counts (a normalised URL or host). */
  endpoint: string;
  /** One attempt and its bookkeeping (marks the row delivered, rescheduled, dropped). */
  send: () => Promise<void>;
}

/** A counting semaphore: `take` waits for a free slot, `give` frees one. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** The attempts under way in one app for one outbox, shared by all its runs. */
interface DeliveryPool {
  all: Slots;
  endpoints: Map<string, { slots: Slots; held: number }>;
  /** Rows accepted by any run and not finished. */
  held: number;
  /** Runs waiting for {@link DeliveryPool.held} to drop below {@link DELIVERY_CONCURRENCY}. */
  roomWaiters: (() => void)[];
  /** The run that is claiming rows, if any: a call meanwhile joins it and asks it to claim once more. */
  claiming: { again: boolean; done: Promise<DeliveryReport> } | null;
}

/** How one outbox is delivered: its rows, and what to do with each ({@link PreparedDelivery}). */
export interface OutboxDelivery<R> {
  outbox: Pick<OutboxQueries<R>, 'claim' | 'release'>;
  /** Runs once before a run claims (housekeeping). */
  before?: () => Promise<void>;
  /** Settles a row that is not to be sent (and answers null), or answers its endpoint and attempt. */
  prepare: (row: R, report: DeliveryReport) => Promise<PreparedDelivery | null>;
}

/**
 * The delivery of one outbox ({@link OutboxDelivery}, made per app by `setup`) as a function of the
 * app. A run claims due rows {@link CLAIM_CHUNK} at a time ({@link OutboxQueries.claim}), at most
 * {@link DELIVERY_BATCH}; rows another sender holds are skipped, so any number of workers and
 * instances deliver one outbox side by side and a row is sent by one of them. The attempts of all
 * runs of an app share a pool: up to {@link DELIVERY_CONCURRENCY} at once, at most
 * {@link ENDPOINT_CONCURRENCY} to one endpoint, and a run claims only while the pool holds fewer
 * than {@link DELIVERY_CONCURRENCY} rows. So one slow receiver delays only its own rows, and a run
 * started while another waits on a slow receiver sends what is due at once.
 *
 * A call while a run is claiming joins that run (it claims once more before it stops, so what was
 * written since is sent) and answers its report; otherwise it starts a run. A row waits at most two
 * rounds for its endpoint and two for a slot, each bounded by the transport's total deadline, well
 * inside {@link CLAIM_LEASE_MS}.
 */
export function outboxDelivery<R extends { id: number }>(
  name: string,
  setup: (deps: AppDeps) => OutboxDelivery<R>,
): (deps: AppDeps) => Promise<DeliveryReport> {
  const POOL = stateKey(
    name,
    (): DeliveryPool => ({
      all: new Slots(DELIVERY_CONCURRENCY),
      endpoints: new Map(),
      held: 0,
      roomWaiters: [],
      claiming: null,
    }),
  );
  return (deps) => {
    const pool = stateOf(deps, POOL);
    if (pool.claiming !== null) {
      pool.claiming.again = true;
      return pool.claiming.done;
    }
    const claiming = { again: false, done: Promise.resolve(emptyReport()) };
    pool.claiming = claiming;
    claiming.done = runOnce(deps, pool, claiming, setup(deps));
    return claiming.done;
  };
}

function emptyReport(): DeliveryReport {
  return { delivered: 0, gone: 0, retried: 0, failed: 0 };
}

async function runOnce<R extends { id: number }>(
  deps: AppDeps,
  pool: DeliveryPool,
  claiming: { again: boolean },
  delivery: OutboxDelivery<R>,
): Promise<DeliveryReport> {
  const report = emptyReport();
  const mine = new Set<Promise<void>>();
  let failure: { err: unknown } | null = null;
  try {
    await delivery.before?.();
    let taken = 0;
    while (taken < DELIVERY_BATCH) {
      while (pool.held >= DELIVERY_CONCURRENCY) await new Promise<void>((room) => pool.roomWaiters.push(room));
      const chunk = await delivery.outbox.claim(
        deps.now(),
        Math.min(CLAIM_CHUNK, DELIVERY_BATCH - taken),
        CLAIM_LEASE_MS,
      );
      taken += chunk.length;
      for (const row of chunk) {
        const prepared = await delivery.prepare(row, report);
        if (prepared === null) continue;
        let endpoint = pool.endpoints.get(prepared.endpoint);
        if (!endpoint) {
          endpoint = { slots: new Slots(ENDPOINT_CONCURRENCY), held: 0 };
          pool.endpoints.set(prepared.endpoint, endpoint);
        }
        if (endpoint.held >= ENDPOINT_BACKLOG) {
          await delivery.outbox.release(row.id, deps.now() + ENDPOINT_BUSY_DELAY_MS);
          continue;
        }
        mine.add(attempt(pool, prepared.endpoint, endpoint, prepared.send, (err) => (failure ??= { err })));
      }
      if (chunk.length < CLAIM_CHUNK) {
        if (!claiming.again) break;
        claiming.again = false;
      }
    }
  } finally {
    pool.claiming = null;
  }
  await Promise.all(mine);
  if (failure !== null) throw (failure as { err: unknown }).err;
  return report;
}

/** One row's attempt in the pool: the endpoint's slot first, so a row waiting on a busy endpoint holds no shared slot. */
function attempt(
  pool: DeliveryPool,
  key: string,
  endpoint: { slots: Slots; held: number },
  send: () => Promise<void>,
  onError: (err: unknown) => void,
): Promise<void> {
  pool.held++;
  endpoint.held++;
  return (async () => {
    await endpoint.slots.take();
    await pool.all.take();
    try {
      await send();
    } finally {
      pool.all.give();
      endpoint.slots.give();
    }
  })()
    .catch(onError)
    .finally(() => {
      pool.held--;
      endpoint.held--;
      if (endpoint.held === 0) pool.endpoints.delete(key);
      pool.roomWaiters.shift()?.();
    });
}

/** A row of an outbox, as the pipeline reads it. */
export interface OutboxRow {
  id: number;
  created_at: number;
  attempts: number;
}

/** How a channel's rows reach one receiver: a request per row, or why the receiver cannot be used. */
export type Opened<R> = { request: (row: R, now: number) => PushRequest } | { unusable: string };

/**
 * A delivery channel: its outbox, its receivers (a push device, a webhook) and how it sends to
 * one. Everything else (claims, limits, retries, what an answer means) is the pipeline's.
 */
export interface DeliveryChannel<R extends OutboxRow, T extends { id: string; active: boolean }> {
  outbox: OutboxQueries<R>;
  transport: PushTransport;
  /** What a receiver is called (`device`) and what answers for it (`push service`), in the reasons stored. */
  words: { receiver: string; answerer: string };
  /** Runs once before a run claims (housekeeping). */
  before?: () => Promise<void>;
  /** The receiver of a row, or null when it no longer exists. */
  receiverOf(row: R): Promise<T | null>;
  /** The endpoint the per-endpoint limit counts for a receiver (a push subscription, a webhook's host). */
  endpointOf(receiver: T): string;
  /** How rows reach `receiver` (encryption keys, a signing secret), or why it cannot be used (then it is deactivated). */
  open(receiver: T): Promise<Opened<R>>;
  /** Deactivates a receiver; its undelivered rows are dropped with it. */
  deactivate(id: string, reason: string, now: number): Promise<void>;
  /** Answers that say the receiver is gone for good. */
  gone: ReadonlySet<number>;
  /** Whether a receiver whose row failed {@link MAX_PUSH_ATTEMPTS} times is deactivated too (one that keeps failing). */
  deactivateWhenGivenUp: boolean;
}

/**
 * The delivery of a channel (made per app by `setup`) as a function of the app: the pipeline of
 * {@link outboxDelivery}, each claimed row settled or sent as the module doc says.
 */
export function channelDelivery<R extends OutboxRow, T extends { id: string; active: boolean }>(
  name: string,
  setup: (deps: AppDeps) => DeliveryChannel<R, T>,
): (deps: AppDeps) => Promise<DeliveryReport> {
  return outboxDelivery<R>(name, (deps) => {
    const channel = setup(deps);
    const { outbox } = channel;
    return {
      outbox,
      before: channel.before,
      prepare: async (row, report) => {
        const now = deps.now();
        const receiver = await channel.receiverOf(row);
        if (!receiver?.active) {
          await outbox.markDropped(row.id, `${channel.words.receiver} inactive`, now);
          report.gone++;
          return null;
        }
        if (now - row.created_at > PUSH_TTL_SECONDS * 1000) {
          await outbox.markDropped(row.id, 'expired before delivery', now);
          report.failed++;
          return null;
        }
        const opened = await channel.open(receiver);
        if ('unusable' in opened) {
          await channel.deactivate(receiver.id, opened.unusable, now);
          report.gone++;
          return null;
        }
        return {
          endpoint: channel.endpointOf(receiver),
          send: () => sendOne(deps, channel, receiver, opened.request, row, report),
        };
      },
    };
  });
}

async function sendOne<R extends OutboxRow, T extends { id: string; active: boolean }>(
  deps: AppDeps,
  channel: DeliveryChannel<R, T>,
  receiver: T,
  request: (row: R, now: number) => PushRequest,
  row: R,
  report: DeliveryReport,
): Promise<void> {
  const { outbox, words } = channel;
  let status: number;
  try {
    status = (await channel.transport(request(row, deps.now()))).status;
  } catch (err) {
    if (err instanceof PushEndpointRefused) {
      // A public name that points inside the operator's network: never sent, and never again.
      await channel.deactivate(receiver.id, err.message, deps.now());
      await outbox.markDropped(row.id, err.message, deps.now());
      report.gone++;
      return;
    }
    await retryOrGiveUp(deps, channel, receiver, row, err instanceof Error ? err.message : String(err), report);
    return;
  }
  if (status >= 200 && status < 300) {
    await outbox.markDelivered(row.id, deps.now());
    report.delivered++;
  } else if (channel.gone.has(status)) {
    await channel.deactivate(receiver.id, `gone (${status})`, deps.now());
    report.gone++;
  } else if (status === 429 || status >= 500) {
    await retryOrGiveUp(deps, channel, receiver, row, `${words.answerer} answered ${status}`, report);
  } else {
    await outbox.markDropped(row.id, `${words.answerer} refused with ${status}`, deps.now());
    report.failed++;
  }
}

/** Another attempt later, or after the last one the row is dropped (and the receiver deactivated where the channel says so). */
async function retryOrGiveUp<R extends OutboxRow, T extends { id: string; active: boolean }>(
  deps: AppDeps,
  channel: DeliveryChannel<R, T>,
  receiver: T,
  row: R,
  error: string,
  report: DeliveryReport,
): Promise<void> {
  if (row.attempts + 1 >= MAX_PUSH_ATTEMPTS) {
    await channel.outbox.markDropped(row.id, `gave up: ${error}`, deps.now());
    if (channel.deactivateWhenGivenUp) {
      await channel.deactivate(receiver.id, `failed ${MAX_PUSH_ATTEMPTS} times: ${error}`, deps.now());
    }
    report.failed++;
    return;
  }
  await channel.outbox.reschedule(row.id, deps.now() + retryDelay(row.attempts), error);
  report.retried++;
}
