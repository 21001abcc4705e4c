/**
 * The serializers of the alert resources: an alert (notification) with its live figures, a webhook
 * and a push device, as REST answers them, the MCP tools return them and the CLI prints them. Each
 * takes a structural source (only the fields it reads); times given as ms since the epoch are
 * published as ISO 8601 UTC date-times.
 */
import type { z } from 'zod';
import { iso, isoOrNull } from '../time.js';
import type { PushDevice } from './devices.js';
import type { NotificationKind, NotificationStatus } from './requests.js';
import type { NotificationSchema } from './responses.js';
import type { AlertWebhook } from './webhooks.js';

export type Notification = z.output<typeof NotificationSchema>;

/** The asset block of an alert; null when the asset is no longer in the catalog. */
export type NotificationAsset = Notification['body']['asset'];

/** A stored alert; times in ms since the epoch. */
export interface AlertSource {
  id: string;
  user_id: string;
  asset_id: string;
  kind: NotificationKind;
  /** Request timeframe; null for price (reads none). */
  timeframe: string | null;
  /** The window (`m15`/`h1`/`d1`) or change column (`1h`/`24h`/`7d`) it is evaluated over; null for price. */
  evaluates_as: string | null;
  target: number;
  /** Which way the watched value must move to fire. */
  direction: 'above' | 'below';
  /** The band of the zone a zone alert watches; both null for other kinds. */
  zone_low: number | null;
  zone_high: number | null;
  /** The watched value when the alert was armed (price, RSI), for the record. */
  reference: number | null;
  status: NotificationStatus;
  created_at: number;
  updated_at: number;
  /** When it was last (re)armed: candles closing before this never fire it. */
  armed_at: number;
  /** An active alert that has not fired by then expires. */
  expires_at: number;
  triggered_at: number | null;
  trigger_value: number | null;
  /** Open time of the candle whose close fired it (`trigger_candle_open` on the wire). */
  trigger_candle: number | null;
}

/** The watched figures read now: the price, the watched value and when they were read (ms); null when unknown. */
export interface AlertLiveSource {
  price: number | null;
  value: number | null;
  as_of: number | null;
}

/** An alert on the wire (`/v1/notifications`, MCP `get_alerts`, `create_price_alert`): the rule and its live figures. */
export function alertWire(a: AlertSource, asset: NotificationAsset, live: AlertLiveSource): Notification {
  return {
    id: a.id,
    kind: a.kind,
    user_id: a.user_id,
    created_at: iso(a.created_at),
    status: a.status,
    body: {
      asset_id: a.asset_id,
      asset,
      kind: a.kind,
      target: a.target,
      timeframe: a.timeframe,
      evaluates_as: a.evaluates_as,
      direction: a.direction,
      zone: a.zone_low !== null && a.zone_high !== null ? { low: a.zone_low, high: a.zone_high } : null,
      reference: a.reference,
      live: { price: live.price, value: live.value, as_of: isoOrNull(live.as_of) },
      armed_at: iso(a.armed_at),
      expires_at: iso(a.expires_at),
      updated_at: iso(a.updated_at),
      triggered_at: isoOrNull(a.triggered_at),
      trigger_value: a.trigger_value,
      trigger_candle_open: isoOrNull(a.trigger_candle),
    },
  };
}

/** A stored webhook; its secret is not read (it is never echoed after registration). */
export interface AlertWebhookSource {
  id: string;
  url: string;
  name: string | null;
  active: boolean;
  created_at: number;
  updated_at: number;
  deactivated_at: number | null;
  deactivated_reason: string | null;
}

/** A webhook on the wire (MCP `list_alert_webhooks`; `register_alert_webhook` adds its secret once). */
export function webhookWire(w: AlertWebhookSource): AlertWebhook {
  return {
    id: w.id,
    url: w.url,
    name: w.name,
    active: w.active,
    created_at: iso(w.created_at),
    updated_at: iso(w.updated_at),
    deactivated_at: isoOrNull(w.deactivated_at),
    deactivated_reason: w.deactivated_reason,
  };
}

/** A stored push device; the subscription's keys are not read (they are never echoed). */
export interface PushDeviceSource {
  id: string;
  endpoint: string;
  name: string | null;
  active: boolean;
  created_at: number;
  updated_at: number;
  deactivated_at: number | null;
  deactivated_reason: string | null;
}

/** A push device on the wire (`/v1/devices`). */
export function pushDeviceWire(d: PushDeviceSource): PushDevice {
  return {
    id: d.id,
    endpoint: d.endpoint,
    name: d.name,
    active: d.active,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    deactivated_at: isoOrNull(d.deactivated_at),
    deactivated_reason: d.deactivated_reason,
  };
}
