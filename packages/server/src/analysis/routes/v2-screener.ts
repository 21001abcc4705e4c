import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { envelopeOf, ok, ScreenerSchema, SignalListSchema } from '@marketlens/contract';
import { InputError, parseSignalControls, SIGNAL_CONTROLS, type SignalControlSpec } from '@marketlens/core';
import { SESSION_OR_API_KEY } from '../../auth/authorize.js';
import { ASSET_CLASS_FILTERS } from '../../market/assets.js';
import type { AppEnv } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import { operation } from '../../platform/operation.js';
import { SIGNAL_TIMEFRAMES } from '../../platform/product-rules.js';
import {
  checkSignalControlAccess,
  controlsUsed,
  FREE_SIGNAL_ROWS,
  mayUseSignalControls,
  screenerOf,
  signalListOf,
} from '../screener.js';

const _n = z.number();
const _nn = z.number().nullable();

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const AssetClassQuery = z.enum(ASSET_CLASS_FILTERS).default('coins').openapi({
  description: '`coins` (default), `stocks`, `fx`, or `all` (every class, on-chain included)',
});

// ---- screener ----

const screenerRoute = operation(SESSION_OR_API_KEY, {
  method: 'get',
  path: '/v2/assets/screener',
  operationId: 'getAssetScreener',
  tags: ['Assets'],
  summary: 'Breakouts, oversold zones and volume surges over an asset class (d1)',
  description:
    'Screens every asset of `asset_class` (stablecoins left out) at its live d1 candle: volume-confirmed breakouts of a zone or the 20-day channel, RSI-led oversold readings near a support, and volume surges (z-score >= 2). Takes `asset_class` only; signal-list controls are ignored. One computation is served per class for up to a minute.',
  request: { query: z.object({ asset_class: AssetClassQuery }) },
  responses: { 200: json(envelopeOf(ScreenerSchema, 'ScreenerEnvelope'), 'The three screens') },
});

// ---- signal list ----

function controlHelp(spec: SignalControlSpec): string {
  const values = spec.values ? spec.values.join(', ') : '';
  switch (spec.type) {
    case 'enum':
      return `One of: ${values}.`;
    case 'enum_list':
      return `Comma-separated (or repeated) values of: ${values}.`;
    case 'number':
      return `A number in ${spec.min ?? ''}..${spec.max ?? ''}.`;
    case 'range':
      return `\`min,max\` within ${spec.min ?? ''}..${spec.max ?? ''}.`;
    case 'boolean':
      return '`true` or `false`.';
  }
}

/** A decimal as the control parser reads it (`0.5`, `70`), within 0..max when max is a power of ten. */
function decimalPattern(spec: SignalControlSpec): string {
  const max = spec.max ?? Number.NaN;
  const digits = String(max).length - 1;
  if (spec.min !== 0 || !Number.isInteger(max) || max !== 10 ** digits) return '-?\\d+(\\.\\d+)?';
  const below = digits === 0 ? '0' : `\\d{1,${digits}}`;
  return `(?:${below}(?:\\.\\d+)?|${max}(?:\\.0+)?)`;
}

/**
 * The published form of a control's value: an enum, a bounded decimal, `min,max`, a boolean, or a
 * comma-separated list of values. Published only: core's parser enforces it after the Pro gate, so
 * a caller without Pro naming a control gets 402 whatever its value.
 */
function controlFormat(spec: SignalControlSpec): Record<string, unknown> {
  const values = `(?:${(spec.values ?? []).join('|')})`;
  switch (spec.type) {
    case 'enum':
      return { enum: spec.values, ...(spec.default ? { default: spec.default } : {}) };
    case 'boolean':
      return { enum: ['true', 'false'] };
    case 'number':
      return { pattern: `^${decimalPattern(spec)}$`, example: String(spec.max) };
    case 'range':
      return {
        pattern: `^ *${decimalPattern(spec)} *, *${decimalPattern(spec)} *$`,
        example: `${spec.min ?? 0},${spec.max ?? 0}`,
      };
    case 'enum_list':
      return { pattern: `^ *${values} *(?:, *${values} *)*$`, example: (spec.values ?? []).slice(0, 2).join(',') };
  }
}

const controlParams: Record<string, z.ZodType> = Object.fromEntries(
  SIGNAL_CONTROLS.map((spec) => {
    const description = `${spec.description} ${controlHelp(spec)} Pro only: 402 \`SignalControlsRestricted\` otherwise.`;
    const format = controlFormat(spec);
    const base =
      spec.type === 'enum_list'
        ? z.union([z.string().openapi(format), z.array(z.string().openapi(format))])
        : z.string().max(512).openapi(format);
    return [spec.name, base.optional().openapi({ description })];
  }),
);

const SignalListQuery = z.object({
  timeframe: z
    .enum(SIGNAL_TIMEFRAMES)
    .default('d1')
    .openapi({ description: '`h1`, `m15` or `d1` (default); anything else is 400' }),
  asset_class: AssetClassQuery,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .openapi({ description: `Rows at most; free callers get at most ${FREE_SIGNAL_ROWS}` }),
  ...controlParams,
});

const signalsRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: 'get',
    path: '/v2/assets/signals',
    operationId: 'listAssetSignals',
    tags: ['Assets'],
    summary: 'Signal list over an asset class, filtered and sorted by the ten signal controls',
    description: `One row per asset (stablecoins left out): signal action, confidence and score, trend, RSI, breakout, volume, Fear & Greed, distances to support and resistance, candlestick patterns, computed on the newest 500 candles of \`timeframe\` like \`GET /v2/analysis/{asset_id}\`. The ten controls (published in \`/v2/config\` under \`signals\`) are Pro: a caller without Pro naming any of them, whatever its value, gets 402 \`SignalControlsRestricted\`; without controls it gets the top ${FREE_SIGNAL_ROWS} rows by confidence (\`restricted: true\`). A malformed control value is 400. Rows are served from a per-minute computation.`,
    request: { query: SignalListQuery },
    responses: { 200: json(envelopeOf(SignalListSchema, 'SignalListEnvelope'), 'The signal list') },
  },
  [402],
);

export function registerScreenerRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(screenerRoute, async (c) =>
    c.json(ok(await screenerOf(c.get('deps'), c.req.valid('query').asset_class)), 200),
  );
  app.openapi(signalsRoute, async (c) => {
    const caller = c.get('caller');
    const query = c.req.valid('query');
    checkSignalControlAccess(controlsUsed(query), caller);
    let controls: ReturnType<typeof parseSignalControls>;
    try {
      controls = parseSignalControls(c.req.queries());
    } catch (err) {
      if (err instanceof InputError) throw new AppError('InvalidRequest', `Invalid query: ${err.message}`);
      throw err;
    }
    const paid = mayUseSignalControls(caller);
    const { timeframe, asset_class, limit } = query;
    c.header('vary', 'x-session-token, x-api-key');
    return c.json(ok(await signalListOf(c.get('deps'), { timeframe, asset_class, limit }, controls, paid)), 200);
  });
}
