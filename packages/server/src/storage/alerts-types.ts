/**
 * Records and repositories of alerts, push devices, the push outbox, push settings and
 * notification preferences. Times are epoch ms.
 */
import type { AlertSource } from '@marketlens/contract';

/** Which way an alert's watched value must move to fire. */
export type AlertDirection = 'above' | 'below';

/** A stored alert: what the wire shows of it ({@link AlertSource}), and the evaluator's mark. */
export interface AlertRecord extends AlertSource {
  direction: AlertDirection;
  /** Open time of the last closed candle evaluated (null: none yet since arming). */
  last_evaluated_open: number | null;
}

export interface PushDeviceRecord {
  id: string;
  user_id: string;
  /** The push service URL of the subscription (unique: one device row per subscription). */
  endpoint: string;
  /** The subscription's P-256 public key, base64url. */
  p256dh: string;
  /** The subscription's auth secret, base64url. */
  auth: string;
  name: string | null;
  created_at: number;
  updated_at: number;
  active: boolean;
  deactivated_at: number | null;
  /** Why it stopped receiving (`gone`: the push service answered 404/410). */
  deactivated_reason: string | null;
}

/** Categories of push. */
export type PushCategory = 'alert' | 'regime' | 'pilot_trade';

/** One push to one device, written before it is sent and kept after (the at-least-once ledger). */
export interface OutboxRecord {
  id: number;
  /** Per trigger: the same on every device of the trigger, carried in the push so clients can drop repeats. */
  idempotency_key: string;
  device_id: string;
  user_id: string;
  category: PushCategory;
  /** The JSON text that is encrypted and sent. */
  payload: string;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  delivered_at: number | null;
  dropped_at: number | null;
  last_error: string | null;
}

/** A push to write to the outbox for every active device of some users. */
export interface PushNotice {
  idempotency_key: string;
  category: PushCategory;
  payload: string;
}

export interface NotificationPreferencesRecord {
  pilot_trade_notification_disabled: boolean;
  regime_notification_disabled: boolean;
}

/** What fired an alert. */
export interface AlertTrigger {
  triggered_at: number;
  trigger_value: number;
  trigger_candle: number;
}

export type AlertUpdateResult = 'updated' | 'limit' | 'missing';

export interface AlertRepository {
  /** Inserts the alert unless it is active and the user already holds `maxActive` active ones (null: no cap). */
  createIfBelow(alert: AlertRecord, maxActive: number | null): Promise<boolean>;
  byId(userId: string, id: string): Promise<AlertRecord | null>;
  /** The user's alerts, newest first. */
  listByUser(userId: string): Promise<AlertRecord[]>;
  countActive(userId: string): Promise<number>;
  /** How many of the user's alerts are in `status`. */
  countByStatus(userId: string, status: AlertRecord['status']): Promise<number>;
  /** Replaces the alert; refused with `limit` when it becomes active and the cap is reached. */
  update(alert: AlertRecord, maxActive: number | null): Promise<AlertUpdateResult>;
  remove(userId: string, id: string): Promise<boolean>;
  /** Every active alert of every enabled user, of one asset when given (the evaluator's work list; a disabled account's alerts wait). */
  listActive(assetId?: string): Promise<AlertRecord[]>;
  /** Records the last closed candle evaluated, if the alert is still active and armed at `armedAt`. */
  markEvaluated(id: string, armedAt: number, lastOpen: number): Promise<void>;
  /**
   * Atomically: the alert (still active and armed at `armedAt`) becomes triggered, and `notice`
   * is written to the outbox for each active device of its owner. False when it was no longer
   * active (already fired, edited or deleted): nothing is written then.
   */
  trigger(id: string, armedAt: number, trigger: AlertTrigger, notice: PushNotice): Promise<boolean>;
  /** Active alerts whose `expires_at` has passed become expired; returns how many. */
  expireDue(now: number): Promise<number>;
}

export interface PushDeviceRepository {
  /**
   * Registers a subscription; the same endpoint again updates its keys and re-activates it (a
   * re-subscribed browser). An endpoint of another user moves to this one only when the keys are
   * the same (proof of holding the subscription), dropping that user's pending pushes; otherwise
   * nothing changes and the other user's row is returned.
   */
  upsert(device: PushDeviceRecord): Promise<PushDeviceRecord>;
  byId(id: string): Promise<PushDeviceRecord | null>;
  listByUser(userId: string): Promise<PushDeviceRecord[]>;
  countActive(userId: string): Promise<number>;
  remove(userId: string, id: string): Promise<boolean>;
  /** Stops pushes to the device and drops its pending ones. */
  deactivate(id: string, reason: string, now: number): Promise<void>;
  /** Enabled users with at least one active device. */
  usersWithActiveDevices(): Promise<string[]>;
  /** Assets favorited by an enabled user with an active device who has not turned regime pushes off. */
  regimeAssets(): Promise<string[]>;
  /** Those users for one asset. */
  regimeAudience(assetId: string): Promise<string[]>;
}

/** The delivery queries of an outbox (push or webhook), over rows of type `R`. */
export interface OutboxQueries<R> {
  /** Undelivered, undropped rows due at `now`, oldest first (read only: nothing is claimed). */
  due(now: number, limit: number): Promise<R[]>;
  /**
   * Claims up to `limit` rows due at `now` for `leaseMs`, oldest first: each is moved to
   * `now + leaseMs` in the statement that reads it, so another sender (another worker, another
   * instance) does not see it until the lease ends. On PostgreSQL the rows are locked with
   * `FOR UPDATE SKIP LOCKED`, so concurrent claims take disjoint rows without waiting on each
   * other; on SQLite the statement runs under the database's single writer. A row whose sender
   * dies before marking it is due again when the lease ends (at least once).
   */
  claim(now: number, limit: number, leaseMs: number): Promise<R[]>;
  markDelivered(id: number, now: number): Promise<void>;
  /** Drops a row not yet delivered. */
  markDropped(id: number, reason: string, now: number): Promise<void>;
  reschedule(id: number, nextAttemptAt: number, error: string): Promise<void>;
  /** Hands a claimed row back, due at `nextAttemptAt`, without counting an attempt (it was not sent). */
  release(id: number, nextAttemptAt: number): Promise<void>;
  byKey(idempotencyKey: string): Promise<R[]>;
}

/** The push outbox; its delivery queries are the webhook outbox's ({@link OutboxQueries}). */
export interface PushOutboxRepository extends OutboxQueries<OutboxRecord> {
  /** Writes `notice` for every active device of each user; a key already written for a device is skipped. Returns rows written. */
  enqueue(userIds: readonly string[], notice: PushNotice, now: number): Promise<number>;
}

export interface PushSettingsRepository {
  get(name: string): Promise<string | null>;
  /** Stores `value` unless `name` is set already; returns what is stored (first writer wins). */
  setIfAbsent(name: string, value: string): Promise<string>;
  set(name: string, value: string): Promise<void>;
}

export interface NotificationPreferencesRepository {
  /** The user's preferences; defaults (everything on) when never changed. */
  get(userId: string): Promise<NotificationPreferencesRecord>;
  update(
    userId: string,
    patch: Partial<NotificationPreferencesRecord>,
    now: number,
  ): Promise<NotificationPreferencesRecord>;
}
