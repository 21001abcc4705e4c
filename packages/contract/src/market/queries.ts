/**
 * Path, query and header schemas of the REST market routes (analysis, assets, favorites, exchanges,
 * screener, Fear & Greed, news), beside the MCP inputs of `requests.ts`: the REST forms take
 * timeframes in the REST spelling only and read numbers from a query string's digits.
 */
import { z } from 'zod';
import { SIGNAL_TIMEFRAMES } from '../timeframes.js';
import { FEAR_GREED_ZONES } from '../words.js';
import { FEAR_GREED_LIMIT } from './insights.js';
import { ASSET_CLASS_FILTERS, FEAR_GREED_SORTS } from './requests.js';
import { AnalysisQueryFields, ConnectionQuerySchema, MarketTypeSchema } from './responses.js';

const AssetId = z.string().min(1).max(128);

/** `{asset_id}` of the analysis and track-record paths. */
export const AssetIdParams = z.object({ asset_id: AssetId.meta({ example: 'bitcoin' }) });

/** `{asset_id}` of `DELETE /v2/assets/favorites/{asset_id}` and its legacy twin. */
export const FavoriteAssetIdParams = z.object({ asset_id: AssetId });

/** `GET /v2/analysis/{asset_id}` (and its signal and overview) query. */
export const AnalysisQuery = z.object(AnalysisQueryFields);

/** `GET /v2/analysis` query: the asset named in the query. */
export const AnalysisByQuery = z.object({
  asset_id: AssetId.meta({ example: 'bitcoin' }),
  ...AnalysisQueryFields,
});

/** The language header of the overview. */
export const LocaleHeader = z.object({
  'x-locale': z.string().max(64).optional().meta({
    description: 'Language of the overview (en, es, de, fr, pt, ja, zh; a regional tag uses its language; else en)',
  }),
});

/** `GET /v2/analysis/{asset_id}/markets` query. */
export const AssetMarketsQuery = z.object({
  market_type: MarketTypeSchema.optional(),
  connection: ConnectionQuerySchema,
});

/** `asset_class` of the screener and the signal list. */
export const AssetClassQuery = z.enum(ASSET_CLASS_FILTERS).default('coins').meta({
  description: '`coins` (default), `stocks`, `fx`, or `all` (every class, on-chain included)',
});

/** `GET /v2/assets/screener` query. */
export const ScreenerQuery = z.object({ asset_class: AssetClassQuery });

/** Rows a free caller's signal list holds at most (the top of the default sort). */
export const FREE_SIGNAL_ROWS = 10;

/** `GET /v2/assets/signals` query without its signal controls. */
export const SignalListBaseQuery = z.object({
  timeframe: z
    .enum(SIGNAL_TIMEFRAMES)
    .default('d1')
    .meta({ description: '`h1`, `m15` or `d1` (default); anything else is 400' }),
  asset_class: AssetClassQuery,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .meta({ description: `Rows at most; free callers get at most ${FREE_SIGNAL_ROWS}` }),
});

/**
 * A signal control as core's control table describes it (`SIGNAL_CONTROLS`), structurally, so the
 * contract keeps depending on zod only: `enum` is one of `values`, `enum_list` a list of them
 * (comma-separated in a query), `number` a value in `min..max`, `range` `min,max` within them.
 */
export interface SignalControlShape {
  name: string;
  type: 'enum' | 'enum_list' | 'number' | 'range' | 'boolean';
  values?: readonly string[];
  min?: number;
  max?: number;
  default?: string;
  description: string;
}

function controlHelp(spec: SignalControlShape): string {
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
function decimalPattern(spec: SignalControlShape): string {
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
function controlFormat(spec: SignalControlShape): Record<string, unknown> {
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

/**
 * `GET /v2/assets/signals` query: {@link SignalListBaseQuery} and one optional string per control of
 * `controls` (core's table), with its published form. The values are parsed by core, after the Pro gate.
 */
export function signalListQuery(controls: readonly SignalControlShape[]) {
  const controlFields: Record<string, z.ZodType> = Object.fromEntries(
    controls.map((spec) => {
      const description = `${spec.description} ${controlHelp(spec)} Pro only: 402 \`SignalControlsRestricted\` otherwise.`;
      const format = controlFormat(spec);
      const base =
        spec.type === 'enum_list'
          ? z.union([z.string().meta(format), z.array(z.string().meta(format))])
          : z.string().max(512).meta(format);
      return [spec.name, base.optional().meta({ description })];
    }),
  );
  return z.object({ ...SignalListBaseQuery.shape, ...controlFields });
}

/** `GET /v2/insights/fear_greed` query. */
export const FearGreedQuery = z.object({
  zone: z.enum(FEAR_GREED_ZONES).optional().meta({ description: 'Only assets in this Fear & Greed zone' }),
  min_volume: z.coerce.number().min(0).optional().meta({
    type: 'number',
    minimum: 0,
    description: 'Smallest 24h USD volume; assets without a volume are left out when given',
  }),
  exclude_stables: z
    .enum(['true', 'false'])
    .default('true')
    .meta({ description: 'Leave stablecoins out (default `true`)' }),
  sort: z.enum(FEAR_GREED_SORTS).default('score').meta({ description: 'Missing values last, ties by asset id' }),
  sort_dir: z.enum(['asc', 'desc']).default('desc'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(FEAR_GREED_LIMIT.default)
    .meta({
      description: `Default ${FEAR_GREED_LIMIT.default}; capped at ${FEAR_GREED_LIMIT.max} (larger values are clamped)`,
    }),
});

/** `GET /v2/assets/popular` query. */
export const PopularAssetsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** `POST /v2/assets/favorites` body. */
export const FavoriteRequestSchema = z
  .object({ asset_id: AssetId.meta({ example: 'bitcoin' }) })
  .meta({ id: 'FavoriteRequest' });

/** Length of an id in the legacy favorite body. */
export const LEGACY_ID_LENGTH = { min: 1, max: 128 } as const;
const LegacyId = z.string().min(LEGACY_ID_LENGTH.min).max(LEGACY_ID_LENGTH.max);

/** `POST /v1/assets/coins/favorite` body: the asset named by `asset_id` or by its earlier name `coin_id`. */
export const LegacyFavoriteRequestSchema = z
  .object({
    asset_id: LegacyId.optional().meta({ example: 'bitcoin' }),
    coin_id: LegacyId.optional().meta({ description: 'Earlier name of asset_id' }),
  })
  .meta({
    id: 'LegacyFavoriteRequest',
    anyOf: ['asset_id', 'coin_id'].map((name) => ({
      type: 'object' as const,
      required: [name],
      properties: {
        [name]: { type: 'string' as const, minLength: LEGACY_ID_LENGTH.min, maxLength: LEGACY_ID_LENGTH.max },
      },
    })),
  });

/** `{exchange_id}` of `GET /v1/exchanges/{exchange_id}`. */
export const ExchangeIdParams = z.object({
  exchange_id: z.string().min(1).max(64).meta({ example: 'marketlens-sim' }),
});

/** `GET /v1/news/` query. */
export const NewsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(5).meta({ description: '1..100, default 5', example: 5 }),
  _asset_id: z.string().max(128).optional().meta({ description: 'Reserved; accepted and ignored' }),
});

export const NewsItemSchema = z
  .object({
    id: z.string().meta({ description: 'Stable id (a hash of the guid, else the link)' }),
    source: z.string().meta({ description: 'Title of the feed the item came from' }),
    title: z.string(),
    description: z.string().meta({ description: 'Plain text, at most 500 characters' }),
    url: z.string(),
    date: z.iso.datetime().meta({ description: 'Published (else updated, else first seen)' }),
    icon: z.string().nullable().optional(),
  })
  .meta({ id: 'NewsItem' });
export type NewsItem = z.output<typeof NewsItemSchema>;
