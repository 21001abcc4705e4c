/** Wire schemas of the screener and the signal list. */
import { z } from 'zod';
import { SIGNAL_TIMEFRAMES } from '../timeframes.js';
import { FEAR_GREED_ZONES } from '../words.js';
import { ASSET_CLASS_FILTERS } from './requests.js';
import { AssetRefSchema } from './responses.js';
import { CANDLE_PATTERNS, SIGNAL_SORTS } from './words.js';

const n = z.number();
const nn = z.number().nullable();

export const BreakoutSchema = z
  .object({
    asset: AssetRefSchema,
    direction: z.enum(['up', 'down']),
    kind: z.enum(['zone', 'channel']).meta({ description: 'A support/resistance zone or the prior 20-day channel' }),
    level: n.meta({ description: 'The broken edge' }),
    close: n,
    distance_pct: n,
    distance_atr: nn,
    volume_z: nn,
    volume_ratio: nn,
  })
  .meta({ id: 'ScreenerBreakout' });

export const OversoldSchema = z
  .object({
    asset: AssetRefSchema,
    rsi_14: n,
    stoch_k: nn,
    williams_r: nn,
    oscillators_low: z.number().int().meta({ description: 'How many of RSI, Stoch %K, Williams %R are low' }),
    support: n,
    support_kind: z.enum(['zone', 'channel']),
    distance_pct: n,
    distance_atr: n,
  })
  .meta({ id: 'ScreenerOversold' });

export const VolumeSurgeSchema = z
  .object({ asset: AssetRefSchema, volume: n, volume_z: nn, volume_ratio: n, change_pct: nn })
  .meta({ id: 'ScreenerVolumeSurge' });

export const ScreenerSchema = z
  .object({
    asset_class: z.enum(ASSET_CLASS_FILTERS),
    timeframe: z.literal('d1'),
    as_of: z.iso.datetime().meta({ description: 'Open time of the newest closed d1 candle screened' }),
    assets_screened: z.number().int(),
    breakouts: z.array(BreakoutSchema).meta({ description: 'Largest |distance_atr| first' }),
    oversold: z.array(OversoldSchema).meta({ description: 'Lowest RSI first' }),
    volume_surges: z.array(VolumeSurgeSchema).meta({ description: 'Largest z-score first' }),
  })
  .meta({ id: 'Screener' });

export const SignalRowSchema = z
  .object({
    asset: AssetRefSchema,
    action: z.enum(['buy', 'hold', 'sell']),
    confidence: n,
    expected_r: nn.meta({
      description:
        "A published call's expected R after the asset class's costs (the signal's edge.expected_r); null for a hold",
    }),
    expected_r_low: nn.meta({
      description: 'Its lower end at the interval level (above 0 for every published call); null for a hold',
    }),
    break_even: nn.meta({
      description:
        "The probability at which the call's plan breaks even after costs; compare with confidence. Null for a hold",
    }),
    score: n,
    trend: z.enum(['up', 'down', 'sideways']),
    rsi: nn,
    breakout: z.enum(['up', 'down']).nullable(),
    volume_z: nn,
    volume_surge: z.boolean(),
    fear_greed: z.number().int().nullable(),
    fear_greed_zone: z.enum(FEAR_GREED_ZONES).nullable(),
    inside_zone: z.boolean().meta({ description: 'The close lies inside a support/resistance zone' }),
    support_distance_atr: nn.meta({
      description:
        "Signed ATRs to the top of the nearest zone entirely below the close (negative), as in the analysis's nearest_support",
    }),
    resistance_distance_atr: nn.meta({
      description: 'ATRs to the bottom of the nearest zone entirely above the close',
    }),
    patterns: z.array(z.enum(CANDLE_PATTERNS)),
    change_pct: nn,
  })
  .meta({ id: 'SignalListRow' });

export const SignalListSchema = z
  .object({
    timeframe: z.enum(SIGNAL_TIMEFRAMES),
    asset_class: z.enum(ASSET_CLASS_FILTERS),
    as_of: z.iso.datetime().meta({ description: 'Open time of the newest closed candle the rows are computed at' }),
    sort: z.enum(SIGNAL_SORTS),
    total: z.number().int().meta({ description: 'Rows matching the controls, before `limit`' }),
    limit: z.number().int().meta({ description: 'Rows served at most (the free ceiling for free callers)' }),
    restricted: z.boolean().meta({ description: 'The free list: no controls, the top rows of the default sort' }),
    rows: z.array(SignalRowSchema),
  })
  .meta({ id: 'SignalList' });

/** `GET /v2/assets/signals` data. */
export type SignalList = z.output<typeof SignalListSchema>;
/** `GET /v2/assets/screener` data. */
export type ScreenerResponse = z.output<typeof ScreenerSchema>;
