/**
 * Request schemas of the account-data reads (positions, balances, portfolio summary, orders, trades,
 * position analysis) and of the one account write (a position's notes). REST and MCP parse with the
 * same schemas (STYLE.md: the schema is the single source of truth), so each accepts both a query
 * string (every value a string, a repeated key an array) and JSON (numbers, arrays):
 * numbers are read from digits, lists from a comma-separated string or an array, date-times as RFC 3339.
 */
import { z } from 'zod';
import { TIMEFRAMES, type Timeframe, timeframeSchema } from '../timeframes.js';

/** `limit` of the order and trade lists: default 50, clamped to 0..200. */
export const FILL_LIST_LIMIT = { default: 50, min: 0, max: 200 } as const;

/** Timeframes a position analysis reads candles on: those of the analysis routes, `d1` by default. */
export const POSITION_ANALYSIS_TIMEFRAMES = TIMEFRAMES;
export type PositionAnalysisTimeframe = Timeframe;

/** Longest note a position keeps. */
export const POSITION_NOTES_MAX = 2000;

/** Most ids one `asset_ids` filter names. */
export const ASSET_IDS_MAX = 100;

const Id = z.string().trim().min(1).max(128);

/**
 * A list of ids: an array (JSON, or a repeated query key) or one comma-separated string
 * (`asset_ids=bitcoin,ethereum`); blanks between commas are skipped and repeats dropped.
 */
const IdList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()))])
  .transform((ids) => ids.filter((s) => s.length > 0))
  .pipe(z.array(Id).max(ASSET_IDS_MAX));

/** An integer from JSON, or from a query string of digits (a blank string is absent). */
const Int = z.union([
  z.number().int(),
  z
    .string()
    .trim()
    .regex(/^[+-]?\d+$/, 'must be an integer')
    .transform(Number),
]);

/**
 * An integer in `min..max`, from JSON or from a query string's digits. Coerced rather than a union
 * with a digits pattern, so the published schema states the bounds for either form.
 */
const IntIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * `schema`, optional, where an empty string reads as absent (so `?limit=` takes the default). A union
 * rather than a preprocess, so the published OpenAPI and tool schemas say that `''` is accepted too.
 */
const blankOr = <T extends z.ZodType>(schema: T) =>
  z.union([z.literal('').transform(() => undefined), schema]).optional();

/** RFC 3339 date-time (offset or `Z` required), read as ms since the epoch. */
const DateTime = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));

/** `limit`: default 50, any integer clamped into 0..200 (out-of-range values are clamped, not refused). */
export const FillLimit = blankOr(Int)
  .transform((n) =>
    n === undefined ? FILL_LIST_LIMIT.default : Math.min(FILL_LIST_LIMIT.max, Math.max(FILL_LIST_LIMIT.min, n)),
  )
  .describe(
    `Rows per page: default ${FILL_LIST_LIMIT.default}, clamped to ${FILL_LIST_LIMIT.min}..${FILL_LIST_LIMIT.max}`,
  );

/** `offset`: rows to skip, 0 by default. */
export const Offset = blankOr(
  z.union([
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .trim()
      .regex(/^\+?\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER)),
  ]),
)
  .transform((n) => n ?? 0)
  .describe('Rows to skip (default 0)');

/**
 * `GET /v2/positions`, MCP `get_positions` and `get_portfolio_summary`: `asset_ids` keeps the
 * positions of these assets; `coin_ids` is its deprecated alias (both given: the union).
 * Use {@link assetIdsOf} for the merged filter.
 */
export const PositionsQuery = z.object({
  asset_ids: blankOr(IdList).describe('Asset ids, comma-separated or repeated'),
  coin_ids: blankOr(IdList).describe('Deprecated alias of asset_ids'),
});
export type PositionsQuery = z.output<typeof PositionsQuery>;

/** The asset filter of a {@link PositionsQuery}: `asset_ids` and its alias `coin_ids` merged; null = no filter. */
export function assetIdsOf(query: Pick<PositionsQuery, 'asset_ids' | 'coin_ids'>): string[] | null {
  if (query.asset_ids === undefined && query.coin_ids === undefined) return null;
  return [...new Set([...(query.asset_ids ?? []), ...(query.coin_ids ?? [])])];
}

/** Path of the position routes and the position id of MCP `edit_position` / `position_analysis`. */
export const PositionIdParams = z.object({
  position_id: Id.describe('Position id (from GET /v2/positions)'),
});

/** Fields PATCH refuses by name: written only by the venue's protective-order sync, or retired. */
export const POSITION_READ_ONLY_FIELDS = ['stop_loss', 'take_profit', 'visible'] as const;

const Notes = z
  .string()
  .max(POSITION_NOTES_MAX)
  .nullable()
  .transform((s) => s ?? '')
  .describe(`Free text, at most ${POSITION_NOTES_MAX} characters; null or '' clears it`);

/**
 * Refuses every key but `allowed`; `stop_loss`, `take_profit` and `visible` by name with the reason
 * (the venue sets them; a visibility flag is gone), anything else as unknown, so a typo never reads as a successful edit.
 */
function onlyKeys(allowed: readonly string[]) {
  return (body: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    for (const key of Object.keys(body)) {
      if (allowed.includes(key)) continue;
      const readOnly = (POSITION_READ_ONLY_FIELDS as readonly string[]).includes(key);
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: readOnly
          ? `${key} is not writable: only notes can be edited (stop_loss and take_profit come from the venue's protective orders; visible is always false)`
          : 'unknown field; only notes can be edited',
      });
    }
  };
}

/**
 * `PATCH /v2/positions/{position_id}` body: `notes` only (null clears them); every other key is
 * refused. The catch-all lets the refinement name the key and why; the published schema says
 * `additionalProperties: false`, which is what the refinement enforces.
 */
export const EditPositionBody = z
  .object({ notes: Notes })
  .catchall(z.unknown())
  .superRefine(onlyKeys(['notes']))
  .meta({ additionalProperties: false });
export type EditPositionBody = z.output<typeof EditPositionBody>;

/** MCP `edit_position`: the position id and the notes; every other key is refused as in {@link EditPositionBody}. */
export const EditPositionInput = z
  .object({ position_id: PositionIdParams.shape.position_id, notes: Notes })
  .catchall(z.unknown())
  .superRefine(onlyKeys(['position_id', 'notes']))
  .meta({ additionalProperties: false });
export type EditPositionInput = z.output<typeof EditPositionInput>;

/** Deepest candle window a position analysis reads (the Pro chart depth; free callers: 500, else 402 code 1005). */
export const POSITION_ANALYSIS_MAX_CANDLES = 5000;

/**
 * `GET /v2/positions/{position_id}/analysis` query and MCP `position_analysis` (with the position id).
 * Without `limit` the window reaches back to the entry, capped at the caller's chart depth.
 */
export const PositionAnalysisQuery = z.object({
  timeframe: blankOr(timeframeSchema(POSITION_ANALYSIS_TIMEFRAMES))
    .transform((t) => t ?? 'd1')
    .describe('Candle timeframe, default d1 (free); others need Pro (402, code 1004)'),
  limit: blankOr(IntIn(50, POSITION_ANALYSIS_MAX_CANDLES)).describe(
    'Candles read (50..5000); default: enough to reach the entry, capped at the chart depth of the tier. Deeper than 500 needs Pro (402, code 1005)',
  ),
});
export type PositionAnalysisQuery = z.output<typeof PositionAnalysisQuery>;

/** MCP `position_analysis`. */
export const PositionAnalysisInput = z.object({
  position_id: PositionIdParams.shape.position_id,
  ...PositionAnalysisQuery.shape,
});

/** `GET /v2/balances` and MCP `get_balances`: optional account and asset filters. */
export const BalancesQuery = z.object({
  user_connection_id: blankOr(z.uuid()).describe('One connected account'),
  connection_id: blankOr(Id).describe("An exchange id: every account of the user's on it"),
  asset_ids: PositionsQuery.shape.asset_ids,
  coin_ids: PositionsQuery.shape.coin_ids,
});
export type BalancesQuery = z.output<typeof BalancesQuery>;

const fillFilterFields = {
  user_connection_id: blankOr(z.uuid()).describe('One connected account'),
  connection_id: blankOr(Id).describe("An exchange id: every account of the user's on it"),
  pair: blankOr(z.string().trim().min(1).max(64)).describe('Venue-native instrument'),
  asset_id: blankOr(Id).describe('Internal asset id'),
  coin_id: blankOr(Id).describe('Deprecated alias of asset_id'),
  side: blankOr(z.enum(['buy', 'sell'])),
  start: blankOr(DateTime).describe('RFC 3339 date-time; fills executed at or after it'),
  end: blankOr(DateTime).describe('RFC 3339 date-time; fills executed at or before it'),
  limit: FillLimit,
  offset: Offset,
};

/** `asset_id` and `coin_id` must agree when both are given; `start` must not be after `end`. */
function checkFillFilter(
  q: {
    asset_id?: string | undefined;
    coin_id?: string | undefined;
    start?: number | undefined;
    end?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (q.asset_id !== undefined && q.coin_id !== undefined && q.asset_id !== q.coin_id) {
    ctx.addIssue({ code: 'custom', path: ['coin_id'], message: 'coin_id is an alias of asset_id; they differ' });
  }
  if (q.start !== undefined && q.end !== undefined && q.start > q.end) {
    ctx.addIssue({ code: 'custom', path: ['start'], message: 'start is after end' });
  }
}

/**
 * `GET /v1/orders` / `GET /v1/trades` and MCP `get_orders` / `get_trades`: every filter
 * optional; `start` / `end` are inclusive bounds on fill execution time; `limit` pages orders (resp.
 * fills). Use {@link fillFilterOf} for the normalized filter.
 */
export const OrdersQuery = z.object(fillFilterFields).superRefine(checkFillFilter);
export type OrdersQuery = z.output<typeof OrdersQuery>;

/** Same filters as {@link OrdersQuery}; `limit` pages fills. */
export const TradesQuery = z.object(fillFilterFields).superRefine(checkFillFilter);
export type TradesQuery = z.output<typeof TradesQuery>;

/** A parsed order / trade filter with the alias merged (`asset_id` = `asset_id ?? coin_id`). */
export interface FillFilter {
  user_connection_id?: string;
  connection_id?: string;
  pair?: string;
  asset_id?: string;
  side?: 'buy' | 'sell';
  /** Inclusive lower bound on execution time, ms UTC. */
  start?: number;
  /** Inclusive upper bound on execution time, ms UTC. */
  end?: number;
  limit: number;
  offset: number;
}

/** The {@link FillFilter} of a parsed {@link OrdersQuery} or {@link TradesQuery}. */
export function fillFilterOf(q: OrdersQuery): FillFilter {
  const assetId = q.asset_id ?? q.coin_id;
  return {
    ...(q.user_connection_id !== undefined ? { user_connection_id: q.user_connection_id } : {}),
    ...(q.connection_id !== undefined ? { connection_id: q.connection_id } : {}),
    ...(q.pair !== undefined ? { pair: q.pair } : {}),
    ...(assetId !== undefined ? { asset_id: assetId } : {}),
    ...(q.side !== undefined ? { side: q.side } : {}),
    ...(q.start !== undefined ? { start: q.start } : {}),
    ...(q.end !== undefined ? { end: q.end } : {}),
    limit: q.limit,
    offset: q.offset,
  };
}
