import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { envelopeOf, ok } from '@marketlens/contract';
import { OPTIONAL_SESSION_OR_API_KEY } from '../../auth/authorize.js';
import type { AppEnv } from '../../platform/deps.js';
import { operation } from '../../platform/operation.js';
import { TIERS } from '../../storage/types.js';
import { configDocument } from '../config-document.js';

const ConfigSchema = z
  .object({
    analysis: z.object({
      default_timeframe: z.string().openapi({ example: 'd1' }),
      timeframes: z.array(
        z.object({ value: z.string(), needs_pro: z.boolean().openapi({ description: 'For this caller and client' }) }),
      ),
    }),
    chart_depth: z.object({
      free: z.number().int().openapi({ description: 'Deepest candle window for free callers' }),
      pro: z.number().int().openapi({ description: 'Deepest candle window for Pro and Elite' }),
    }),
    signals: z.object({
      timeframes: z.array(z.string()),
      controls: z.array(
        z.object({
          name: z.string(),
          type: z.enum(['enum', 'enum_list', 'number', 'range', 'boolean']),
          values: z.array(z.string()).nullable(),
          min: z.number().nullable(),
          max: z.number().nullable(),
          default: z.string().nullable(),
          description: z.string(),
        }),
      ),
      sorts: z.array(z.string()),
    }),
    alerts: z.object({
      kinds: z.array(
        z.object({
          kind: z.string(),
          timeframes: z.array(
            z.object({
              value: z.string(),
              evaluates_as: z.string().openapi({ description: 'The window the alert is actually evaluated over' }),
            }),
          ),
        }),
      ),
    }),
    caller: z.object({
      state: z.enum(['anonymous', 'authenticated', 'unavailable']),
      via: z.enum(['session', 'api_key']).nullable(),
      tier: z.enum(TIERS).nullable(),
      is_pro: z.boolean().nullable(),
      is_elite: z.boolean().nullable(),
      tier_expires_at: z.iso.datetime().nullable(),
    }),
  })
  .openapi('Config');

const configRoute = operation(OPTIONAL_SESSION_OR_API_KEY, {
  method: 'get',
  path: '/v2/config',
  operationId: 'getConfig',
  tags: ['Config'],
  summary: 'Client configuration: timeframes, depths, signal controls, alert kinds, caller tier',
  description:
    'Readable without a credential (`caller.state` is `anonymous`). When the subscription cannot be read, `caller.state` is `unavailable` and `is_pro` is null: keep previous knowledge. Served as a private cache.',
  responses: {
    200: {
      description: 'The config document',
      content: { 'application/json': { schema: envelopeOf(ConfigSchema, 'ConfigEnvelope') } },
    },
  },
});

export function registerConfigRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(configRoute, (c) => {
    c.header('cache-control', 'private, max-age=60');
    c.header('vary', 'x-session-token, x-api-key, x-platform, x-app-version');
    return c.json(ok(configDocument(c.get('caller'), c.get('client'))), 200);
  });
}
