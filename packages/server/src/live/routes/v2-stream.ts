import { ServerResponse } from 'node:http';
import { z } from '@hono/zod-openapi';
import {
  STREAM_BUFFER_BYTES,
  STREAM_HEARTBEAT_MS,
  STREAM_RETENTION_MS,
  StreamEventSchema,
  StreamQuery,
} from '@marketlens/contract';
import type { TypedResponse } from 'hono';
import { SESSION_OR_API_KEY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { AppError } from '../../platform/errors/app-error.js';
import { operation, type Serve } from '../../platform/operation.js';
import { requestHeader } from '../../platform/request-header.js';
import type { LiveUseCases, StreamCredential } from '../use-cases.js';

const StreamHeaders = z.object({
  'last-event-id': z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'The id of the last event received: the retained events after it are sent first' }),
});

const streamRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: 'get',
    path: '/v2/stream',
    operationId: 'getStream',
    tags: ['Live'],
    summary: 'Live events: closed-candle analyses, prices, and a session user’s alerts and syncs (Server-Sent Events)',
    description: [
      'A `text/event-stream` that stays open. The first event is `ready` (what the stream follows). Then:',
      '`analysis` when a followed candle closes (the `data` of `/v2/analysis` for that candle, at the default depth);',
      '`price` at most once a second per followed asset, when its price moved; for a session, `alert` when one of its alerts fires',
      'and `sync` when a sync of one of its connections finishes. Each of these has an `id` that only grows; a client that',
      `reconnects with \`Last-Event-ID\` receives every event it missed, when they are at most ${STREAM_RETENTION_MS / 60_000} minutes old (\`ready.resumed\`).`,
      `A comment line is sent every ${STREAM_HEARTBEAT_MS / 1000} s. A client that lets more than ${STREAM_BUFFER_BYTES / 1024} KiB wait unread is disconnected.`,
      'When the session expires or signs out, or the key is revoked or expires, the stream ends with an `error` event (`InvalidSession`, `InvalidApiKey`).',
      'Refused before the stream starts: an unknown asset (400 `UnknownAsset`), a stablecoin (400 `StablecoinNotAnalyzed`), a timeframe',
      'the tier does not have (402, code 1004: every timeframe but `d1` needs Pro), more subscriptions than the tier follows',
      '(free 5, Pro 50, Elite 200: 422 `StreamSubscriptionLimitExceeded`).',
    ].join(' '),
    request: { query: StreamQuery, headers: StreamHeaders },
    responses: {
      200: {
        description:
          'The stream. Each event is an SSE frame (`id`, `event`, `data` as one line of JSON); the schema describes one event as a JSON document',
        content: { 'text/event-stream': { schema: StreamEventSchema } },
      },
    },
  },
  [402, 422],
);

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // nginx and similar proxies: pass each event through at once.
  'x-accel-buffering': 'no',
};

/** `GET /v2/stream`: parse, open the stream through `live.open`, answer with its body. */
export function registerStreamRoutes(serve: Serve, live: LiveUseCases): void {
  serve(streamRoute, (c) => {
    const actor = actorOf(c);
    const token = requestHeader(c, 'x-session-token');
    const key = requestHeader(c, 'x-api-key');
    const credential: StreamCredential | null =
      actor.caller.kind === 'session' && token !== undefined
        ? { kind: 'session', token }
        : actor.caller.kind === 'api_key' && key !== undefined
          ? { kind: 'api_key', key }
          : null;
    if (credential === null) throw new AppError('Unauthorized', 'A valid credential is required');
    const { follow } = c.req.valid('query');
    const lastEventId = c.req.valid('header')['last-event-id'];
    // Under @hono/node-server the frames are written to the Node response directly (HTTP/1.1).
    const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    const output = outgoing instanceof ServerResponse ? outgoing : undefined;
    const stream = live.open(actor, follow, credential, lastEventId, output);
    const res = new Response(stream.body, { status: 200, headers: SSE_HEADERS });
    // Documented as the event schema: the body is those events, framed as SSE.
    return res as unknown as Response & TypedResponse<z.infer<typeof StreamEventSchema>, 200, 'json'>;
  });
}
