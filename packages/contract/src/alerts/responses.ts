/** Wire schema of an alert (notification) as REST and the MCP tools answer it. */
import { z } from 'zod';
import { AssetRefSchema } from '../market/responses.js';
import { NOTIFICATION_KINDS, NOTIFICATION_STATUSES } from './requests.js';

export const NotificationLiveSchema = z.object({
  price: z.number().nullable().meta({ description: 'Last price of the asset' }),
  value: z.number().nullable().meta({
    description:
      'The watched value now: price (price, zone, breakout), RSI, % change of the column, % distance from the entry zone',
  }),
  as_of: z.iso.datetime().nullable(),
});

export const NotificationBodySchema = z
  .object({
    asset_id: z.string(),
    asset: AssetRefSchema.nullable(),
    kind: z.enum(NOTIFICATION_KINDS),
    target: z.number(),
    timeframe: z.string().nullable().meta({ description: 'Request timeframe; null for price' }),
    evaluates_as: z
      .string()
      .nullable()
      .meta({ description: 'Window (m15, h1, d1) or change column (1h, 24h, 7d) it is evaluated over' }),
    direction: z.enum(['above', 'below']).meta({ description: 'Which way the watched value must move to fire' }),
    zone: z
      .object({ low: z.number(), high: z.number() })
      .nullable()
      .meta({ description: 'The watched zone (zone alerts)' }),
    reference: z.number().nullable().meta({
      description:
        'The watched value when the alert was armed: price (price, zone, breakout), RSI, % change of the column, % distance from the entry zone; null only when it did not exist then (RSI still warming up, no entry zone published, change not reported)',
    }),
    live: NotificationLiveSchema,
    armed_at: z.iso.datetime(),
    expires_at: z.iso.datetime().meta({ description: 'An active alert that has not fired by then expires' }),
    updated_at: z.iso.datetime(),
    triggered_at: z.iso.datetime().nullable(),
    trigger_value: z.number().nullable().meta({
      description:
        'The value that fired it: the price level touched (price: the target; zone: the edge reached; a candle that gapped past it: its nearest price), the close (breakout), the RSI, the % change or the % distance',
    }),
    trigger_candle_open: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'Open time of the candle whose close fired it' }),
  })
  .meta({ id: 'NotificationResponseBody' });

export const NotificationSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(NOTIFICATION_KINDS),
    user_id: z.uuid(),
    created_at: z.iso.datetime(),
    status: z.enum(NOTIFICATION_STATUSES).meta({
      description:
        'active (armed), triggered (fired once; a PATCH re-arms it), expired (not fired within 90 days), disabled (paused with enabled: false)',
    }),
    body: NotificationBodySchema,
  })
  .meta({ id: 'Notification' });
