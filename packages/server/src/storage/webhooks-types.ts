/** Records and repository of alert webhooks and their outbox. Times are epoch ms. */
import type { OutboxQueries, PushCategory, PushNotice } from './alerts-types.js';

export interface AlertWebhookRecord {
  id: string;
  user_id: string;
  /** Where deliveries are POSTed (https; http only in insecure mode). */
  url: string;
  name: string | null;
  /** The signing secret, AES-256-GCM encrypted with the credentials key (the webhook id is the AAD). */
  secret: string;
  created_at: number;
  updated_at: number;
  active: boolean;
  deactivated_at: number | null;
  deactivated_reason: string | null;
}

/** One delivery to one webhook, written when its alert fires and kept after (the at-least-once ledger). */
export interface WebhookOutboxRecord {
  id: number;
  idempotency_key: string;
  webhook_id: string;
  user_id: string;
  category: PushCategory;
  /** The JSON text sent as the body (the same bytes a push device gets). */
  payload: string;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  delivered_at: number | null;
  dropped_at: number | null;
  last_error: string | null;
}

/** Which firing of an alert a staged notice belongs to. */
export interface AlertFiring {
  alert_id: string;
  armed_at: number;
  trigger_candle: number;
}

/** Webhooks, and their outbox's delivery queries ({@link OutboxQueries}, shared with the push outbox). */
export interface AlertWebhookRepository extends OutboxQueries<WebhookOutboxRecord> {
  /**
   * Inserts the webhook unless the user holds `max` already (false then). The user's URL again
   * must come with that webhook's id ({@link idOfUrl}): its name and secret are replaced and it is
   * active again, its pending deliveries kept.
   */
  register(webhook: AlertWebhookRecord, max: number): Promise<boolean>;
  byId(id: string): Promise<AlertWebhookRecord | null>;
  /** The id of the user's webhook at `url`, if any. */
  idOfUrl(userId: string, url: string): Promise<string | null>;
  listByUser(userId: string): Promise<AlertWebhookRecord[]>;
  countActive(userId: string): Promise<number>;
  remove(userId: string, id: string): Promise<boolean>;
  /** Stops deliveries to the webhook and drops its pending ones. */
  deactivate(id: string, reason: string, now: number): Promise<void>;
  /**
   * Keeps the notice of a firing about to be written, when the alert's owner has an active
   * webhook. The database copies it to the outbox, one row per active webhook, in the same
   * transaction that marks the alert triggered (so a firing is never recorded without its
   * deliveries, nor delivered without being recorded).
   */
  stageNotice(userId: string, firing: AlertFiring, notice: PushNotice, now: number): Promise<void>;
  /** Forgets staged notices older than `before` (their alert did not fire after all). */
  pruneNotices(before: number): Promise<number>;
}
