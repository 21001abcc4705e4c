/**
 * The live stream (`GET /v2/stream`, Server-Sent Events): what a client asks to follow, and the
 * schema of each event's `data`. An `analysis` event carries exactly the `data` of `/v2/analysis`
 * for the candle that closed; the other events are small records of their own.
 */
import { z } from 'zod';
import { ErrorResponseSchema } from '../envelope.js';
import { AnalysisSchema } from '../market/responses.js';
import { TIMEFRAMES } from '../timeframes.js';

/** Subscriptions (asset and timeframe pairs) one stream may hold, by tier. */
export const STREAM_SUBSCRIPTION_CAP = { free: 5, pro: 50, elite: 200 } as const;

/** How long events are kept for a client that resumes with `Last-Event-ID` (10 minutes). */
export const STREAM_RETENTION_MS = 600_000;

/** Bytes a stream may hold unsent before its client is disconnected as too slow (256 KiB). */
export const STREAM_BUFFER_BYTES = 262_144;

/** A comment line is sent on an otherwise idle stream this often (15 s), so proxies keep it open. */
export const STREAM_HEARTBEAT_MS = 15_000;

/** The names of the stream's events. */
export const STREAM_EVENTS = ['ready', 'analysis', 'price', 'alert', 'sync', 'error'] as const;
export type StreamEventName = (typeof STREAM_EVENTS)[number];

const FOLLOW_ITEM = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}(:(m5|m15|m30|h1|h4|d1|w1))?';

/** `follow`: comma-separated `asset` or `asset:timeframe` items, nothing else. */
export const FOLLOW_PATTERN = new RegExp(`^${FOLLOW_ITEM}(,${FOLLOW_ITEM})*$`);

/** `GET /v2/stream` query. */
export const StreamQuery = z.object({
  follow: z
    .string()
    .min(1)
    .max(8_192)
    .regex(FOLLOW_PATTERN, 'a comma-separated list of asset_id or asset_id:timeframe')
    .meta({
      description:
        'What to follow: comma-separated `asset_id:timeframe` pairs (`bitcoin:h1,ethereum:d1`); a bare asset id follows its `d1`. Each pair is one subscription; each asset followed also gets `price` events.',
      example: 'bitcoin:h1,ethereum:d1',
    }),
});
export type StreamQuery = z.infer<typeof StreamQuery>;

/** One followed asset and timeframe. */
export const StreamSubscriptionSchema = z
  .object({ asset_id: z.string(), timeframe: z.enum(TIMEFRAMES) })
  .meta({ id: 'StreamSubscription' });
export type StreamSubscription = z.infer<typeof StreamSubscriptionSchema>;

/** `ready`: the first event of every stream (no id): what it follows and whether it resumed. */
export const StreamReadySchema = z
  .object({
    subscriptions: z.array(StreamSubscriptionSchema),
    user_events: z.boolean().meta({ description: 'True for a session: `alert` and `sync` events follow' }),
    resumed: z.boolean().meta({
      description:
        'True when `Last-Event-ID` was resumed without loss (every event after it follows); false when none was sent or it was older than the retention window (events may have been missed: read the current state)',
    }),
    retention_seconds: z.number().int(),
    heartbeat_seconds: z.number().int(),
    buffer_bytes: z.number().int().meta({ description: 'Unsent bytes beyond which the stream is closed as too slow' }),
  })
  .meta({ id: 'StreamReady' });

/** `price`: the last price of a followed asset, at most once a second per asset, when it moved. */
export const StreamPriceSchema = z
  .object({
    asset_id: z.string(),
    price: z.number(),
    time: z.iso.datetime().meta({ description: 'When the venue stamped the price' }),
    change_24h_pct: z.number().nullable(),
  })
  .meta({ id: 'StreamPrice' });
export type StreamPrice = z.infer<typeof StreamPriceSchema>;

/** `alert`: one of the session user's alerts fired (the push it sent, and what fired it). */
export const StreamAlertSchema = z
  .object({
    alert_id: z.string(),
    asset_id: z.string(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    value: z.number(),
    candle_time: z.iso.datetime().meta({ description: 'Open time of the candle whose close fired it' }),
    triggered_at: z.iso.datetime(),
  })
  .meta({ id: 'StreamAlert' });
export type StreamAlert = z.infer<typeof StreamAlertSchema>;

/** `sync`: a sync of one of the session user's exchange connections finished. */
export const StreamSyncSchema = z
  .object({
    connection_id: z.string(),
    ok: z.boolean(),
    error: z.string().nullable(),
    positions: z.number().int(),
    balances: z.number().int(),
    new_fills: z.number().int(),
    finished_at: z.iso.datetime(),
  })
  .meta({ id: 'StreamSync' });
export type StreamSync = z.infer<typeof StreamSyncSchema>;

const eventOf = <N extends StreamEventName, T extends z.ZodType>(name: N, data: T, description: string, id = true) =>
  z
    .object({
      event: z.literal(name),
      ...(id ? { id: z.string().meta({ description: 'Monotonic per stream; send it back as Last-Event-ID' }) } : {}),
      data,
    })
    .meta({ description });

/**
 * One event of the stream as a JSON document (`event`, `id`, `data`); on the wire each is an SSE
 * frame `id: ...`, `event: ...`, `data: <data as one line of JSON>`.
 */
export const StreamEventSchema = z
  .discriminatedUnion('event', [
    eventOf('ready', StreamReadySchema, 'First event of every stream; carries no id', false),
    eventOf('analysis', AnalysisSchema, 'A followed candle closed: the `data` of `/v2/analysis` for it'),
    eventOf('price', StreamPriceSchema, 'The price of a followed asset moved (at most once a second per asset)'),
    eventOf('alert', StreamAlertSchema, "A session's alert fired"),
    eventOf('sync', StreamSyncSchema, "A sync of a session's connection finished"),
    eventOf(
      'error',
      ErrorResponseSchema,
      'The stream ends: the session expired or signed out (`InvalidSession`), the key was revoked or expired (`InvalidApiKey`)',
      false,
    ),
  ])
  .meta({ id: 'StreamEvent' });
export type StreamEvent = z.infer<typeof StreamEventSchema>;
