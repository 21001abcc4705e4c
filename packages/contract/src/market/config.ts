/**
 * Wire schema of the client configuration (`GET /v2/config`): timeframes and what needs Pro, chart
 * depths, the signal controls, the alert kinds, and the caller's standing.
 */
import { z } from 'zod';
import { TIERS } from '../tiers.js';

export const ConfigSchema = z
  .object({
    analysis: z.object({
      default_timeframe: z.string().meta({ example: 'd1' }),
      timeframes: z.array(
        z.object({ value: z.string(), needs_pro: z.boolean().meta({ description: 'For this caller and client' }) }),
      ),
    }),
    chart_depth: z.object({
      free: z.number().int().meta({ description: 'Deepest candle window for free callers' }),
      pro: z.number().int().meta({ description: 'Deepest candle window for Pro and Elite' }),
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
              evaluates_as: z.string().meta({ description: 'The window the alert is actually evaluated over' }),
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
  .meta({ id: 'Config' });
export type ConfigDocument = z.output<typeof ConfigSchema>;
