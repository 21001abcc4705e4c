/**
 * Request schemas of alerts (notifications) and notification preferences: the single source the
 * REST routes (`/v1/notifications`, `/v1/users/notification_preferences`) and the MCP tools
 * (`create_price_alert`, `get_alerts`, `delete_alert`, `get/update_notification_preferences`)
 * both validate with. Plain zod v4, so either side can derive its JSON Schema from it.
 */
import { z } from 'zod';
import {
  NOTIFICATION_TIMEFRAMES,
  type NotificationTimeframe,
  TIMEFRAME_ALIASES,
  timeframeSchema,
} from '../timeframes.js';

/** Alert kinds, canonical spelling (the contract's `RSI`, `smart-zone`, `percent-change` are accepted too). */
export const NOTIFICATION_KINDS = ['price', 'zone', 'breakout', 'rsi', 'smart_zone', 'percent_change'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Alert statuses: armed, fired once, lapsed unfired, paused by its owner. */
export const NOTIFICATION_STATUSES = ['active', 'triggered', 'expired', 'disabled'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

const KIND_SPELLINGS: Readonly<Record<string, NotificationKind>> = {
  RSI: 'rsi',
  'smart-zone': 'smart_zone',
  'percent-change': 'percent_change',
};

/** Each kind as people read it: the contract's spelling where it has one, else the canonical word. */
export const NOTIFICATION_KIND_WORDS: readonly string[] = NOTIFICATION_KINDS.map(
  (kind) => Object.entries(KIND_SPELLINGS).find(([, k]) => k === kind)?.[0] ?? kind,
);

const KIND_TEXT = 'Alert kind; `RSI`, `smart-zone` and `percent-change` are accepted spellings';
const kindSpelling = z.enum([...NOTIFICATION_KINDS, 'RSI', 'smart-zone', 'percent-change']);
const canonicalKind = z.transform(
  (k: z.output<typeof kindSpelling>): NotificationKind => KIND_SPELLINGS[k] ?? (k as NotificationKind),
);

/** A kind in its canonical or contract spelling, read as the canonical one. */
export const NotificationKindSchema = kindSpelling.pipe(canonicalKind).describe(KIND_TEXT);

/** Inclusive (`min`/`max`) or exclusive (`gt`/`lt`) bounds of an alert's target, per kind. */
export interface TargetRange {
  gt?: number;
  min?: number;
  lt?: number;
  max?: number;
  /** Zero is refused (a 0% change is no move). */
  nonZero?: boolean;
  unit: string;
}

/**
 * What `target` means per kind and its static bounds. Price-level kinds are further held to a band
 * around the live price by the service (it needs the market).
 */
export const TARGET_RANGES: Readonly<Record<NotificationKind, TargetRange>> = {
  price: { gt: 0, unit: 'price in the quote currency; fires when the price reaches it' },
  zone: { gt: 0, unit: 'a price inside a published support/resistance zone; fires when price trades into that zone' },
  breakout: { gt: 0, unit: 'price level; fires when a candle of the window closes beyond it' },
  rsi: { gt: 0, lt: 100, unit: 'RSI(14) level; fires when RSI crosses it at a candle close' },
  smart_zone: {
    min: 0,
    max: 50,
    unit: 'percent distance from the published entry zone; 0 fires when a close is inside it',
  },
  percent_change: {
    min: -99,
    max: 1000,
    nonZero: true,
    unit: 'percent change over the column (1h, 24h, 7d); positive fires on a rise, negative on a fall',
  },
};

/** Why `target` is out of range for `kind`, or null when it is within. */
export function targetRangeProblem(kind: NotificationKind, target: number): string | null {
  const r = TARGET_RANGES[kind];
  if (r.gt !== undefined && !(target > r.gt)) return `target of a ${kind} alert must be > ${r.gt}`;
  if (r.min !== undefined && target < r.min) return `target of a ${kind} alert must be >= ${r.min}`;
  if (r.lt !== undefined && !(target < r.lt)) return `target of a ${kind} alert must be < ${r.lt}`;
  if (r.max !== undefined && target > r.max) return `target of a ${kind} alert must be <= ${r.max}`;
  if (r.nonZero && target === 0) return `target of a ${kind} alert must not be 0`;
  return null;
}

/** One kind's range in words: `rsi: > 0 and < 100 (RSI(14) level; ...)`. */
function rangeText(kind: NotificationKind, r: TargetRange): string {
  const bounds = [
    r.gt !== undefined ? `> ${r.gt}` : null,
    r.min !== undefined ? `>= ${r.min}` : null,
    r.lt !== undefined ? `< ${r.lt}` : null,
    r.max !== undefined ? `<= ${r.max}` : null,
    r.nonZero ? 'not 0' : null,
  ].filter((b) => b !== null);
  return `${kind}: ${bounds.join(' and ')} (${r.unit})`;
}

/** What `target` means and where it may lie, per kind, as the published schema says it. */
export const TARGET_TEXT = `Meaning and range per kind. ${Object.entries(TARGET_RANGES)
  .map(([kind, r]) => rangeText(kind as NotificationKind, r))
  .join('; ')}. Price-level kinds must also lie within a band around the live price.`;

/** A request timeframe an alert kind accepts, with the window it is evaluated over. */
export interface AlertTimeframe {
  value: NotificationTimeframe;
  evaluates_as: string;
}

const fold = (pairs: readonly (readonly [NotificationTimeframe, string])[]): readonly AlertTimeframe[] =>
  pairs.map(([value, evaluates_as]) => ({ value, evaluates_as }));

/** Every timeframe folds down to the longest evaluation window not longer than it (m5 up to m15). */
const WINDOW_FOLD = fold([
  ['m5', 'm15'],
  ['m15', 'm15'],
  ['m30', 'm15'],
  ['h1', 'h1'],
  ['h4', 'h1'],
  ['d1', 'd1'],
  ['w1', 'd1'],
]);

/** Nine timeframes onto the three change columns: up to 1h, up to 1 day, beyond. */
const CHANGE_FOLD = fold([
  ['m5', '1h'],
  ['m15', '1h'],
  ['m30', '1h'],
  ['h1', '1h'],
  ['h4', '24h'],
  ['h12', '24h'],
  ['d1', '24h'],
  ['d3', '7d'],
  ['w1', '7d'],
]);

/** The windows zone and breakout alerts read: the analysis's own. */
const ANALYSIS_WINDOWS = fold([
  ['m15', 'm15'],
  ['h1', 'h1'],
  ['d1', 'd1'],
]);

/**
 * The request timeframes each kind accepts (wire spelling), with the window each is evaluated over;
 * [] reads none (a price alert watches the live price). The service refuses any other (400
 * `InvalidNotification`), and `/v2/config` publishes this table.
 */
export const ALERT_KIND_WINDOWS: Readonly<Record<NotificationKind, readonly AlertTimeframe[]>> = {
  price: [],
  zone: ANALYSIS_WINDOWS,
  breakout: ANALYSIS_WINDOWS,
  rsi: WINDOW_FOLD,
  smart_zone: WINDOW_FOLD,
  percent_change: CHANGE_FOLD,
};

/** The request timeframes each kind accepts, wire spelling ({@link ALERT_KIND_WINDOWS} without the windows). */
export const ALERT_KIND_TIMEFRAMES = Object.fromEntries(
  Object.entries(ALERT_KIND_WINDOWS).map(([kind, tfs]) => [kind, tfs.map((t) => t.value)]),
) as unknown as Readonly<Record<NotificationKind, readonly NotificationTimeframe[]>>;

/** Which timeframes each kind accepts, as the published schema says it. */
export const TIMEFRAME_TEXT = `Request timeframe; evaluated over its \`evaluates_as\` window (\`/v2/config\`). Per kind, in either spelling (\`h1\` or \`1h\`): ${Object.entries(
  ALERT_KIND_TIMEFRAMES,
)
  .map(
    ([kind, tfs]) => `${kind}: ${tfs.length === 0 ? 'none (absent or null)' : `one of ${tfs.join(', ')} (required)`}`,
  )
  .join('; ')}.`;

/** The `params.reason` of the issue a target out of its kind's range raises (REST answers `TargetOutOfRange`). */
export const TARGET_OUT_OF_RANGE = 'target_out_of_range';

/**
 * `Payload` of create and update: the asset, the kind, the target and the timeframe.
 * `timeframe` is absent (or null) for `price`, which reads no window; `enabled: false` on update
 * pauses the alert, `true` re-arms it.
 */
const AssetIdField = z.string().min(1).max(100).meta({ example: 'bitcoin' });

const payloadFields = {
  asset_id: AssetIdField.describe('Asset id (`bitcoin`, `stock-aapl`, `fx-eurusd`)'),
  kind: NotificationKindSchema,
  target: z.number().describe(TARGET_TEXT),
  timeframe: timeframeSchema(NOTIFICATION_TIMEFRAMES).nullable().optional().describe(TIMEFRAME_TEXT),
  enabled: z.boolean().optional().describe('false pauses the alert (status disabled); default true'),
};

/** The target's range check of a payload (per kind, see TARGET_RANGES). */
function checkTargetRange(p: { kind: NotificationKind; target: number }, ctx: z.RefinementCtx): void {
  const problem = targetRangeProblem(p.kind, p.target);
  if (problem !== null) {
    ctx.addIssue({ code: 'custom', path: ['target'], message: problem, params: { reason: TARGET_OUT_OF_RANGE } });
  }
}

/** A kind's range of `target` as a schema; a range that excludes zero is two ranges, below and above it. */
function targetSchemaOf(r: TargetRange): z.ZodNumber | z.ZodUnion<[z.ZodNumber, z.ZodNumber]> {
  const bounded = (b: Omit<TargetRange, 'unit' | 'nonZero'>): z.ZodNumber => {
    let n = z.number();
    if (b.gt !== undefined) n = n.gt(b.gt);
    if (b.min !== undefined) n = n.min(b.min);
    if (b.lt !== undefined) n = n.lt(b.lt);
    if (b.max !== undefined) n = n.max(b.max);
    return n;
  };
  if (!r.nonZero) return bounded(r);
  return z.union([bounded({ ...r, lt: 0, max: undefined }), bounded({ ...r, gt: 0, min: undefined })]);
}

/** A kind's spellings: the canonical one and those read as it. */
const spellingsOf = (kind: NotificationKind): string[] => [
  kind,
  ...Object.entries(KIND_SPELLINGS)
    .filter(([, k]) => k === kind)
    .map(([spelling]) => spelling),
];

/**
 * A kind's timeframes in every accepted spelling (`h1` and `1h`); a kind that reads none takes none.
 * Optional in the branch: the service, not the schema, refuses a missing one (after it has found the
 * alert a PATCH names), so the document states it in words (`TIMEFRAME_TEXT`).
 */
function kindTimeframeSchema(kind: NotificationKind) {
  const wire: readonly string[] = ALERT_KIND_TIMEFRAMES[kind];
  if (wire.length === 0) return z.null().optional();
  const spelled = Object.entries(TIMEFRAME_ALIASES)
    .filter(([, tf]) => wire.includes(tf))
    .map(([alias]) => alias);
  return z.enum([...wire, ...spelled] as [string, ...string[]]).optional();
}

/**
 * The per-kind rules as the published schema states them: one `anyOf` branch per kind, holding
 * `target` to that kind's range (what `checkTargetRange` enforces) and `timeframe` to the
 * timeframes the kind accepts (what the service enforces), so a document says both.
 */
const TARGET_RANGE_BRANCHES = NOTIFICATION_KINDS.map((kind) => {
  const { $schema: _dialect, ...branch } = z.toJSONSchema(
    z.object({
      asset_id: AssetIdField,
      kind: z.enum(spellingsOf(kind)),
      target: targetSchemaOf(TARGET_RANGES[kind]),
      timeframe: kindTimeframeSchema(kind),
    }),
    { io: 'input' },
  );
  return { title: kind, ...branch };
});

export const NotificationPayloadSchema = z
  .object(payloadFields)
  .superRefine(checkTargetRange)
  .meta({ id: 'NotificationPayload', anyOf: TARGET_RANGE_BRANCHES });

/**
 * MCP `create_price_alert`: the payload with `kind` defaulting to `price` (the tool is named for
 * its common use), the default part of the schema so the published input schema shows it.
 */
export const CreateAlertToolInput = z
  .object({ ...payloadFields, kind: kindSpelling.default('price').pipe(canonicalKind).describe(KIND_TEXT) })
  .superRefine(checkTargetRange);
export type NotificationPayload = z.infer<typeof NotificationPayloadSchema>;

/** The id of one alert (path of PATCH/DELETE, argument of `delete_alert`). */
export const NotificationIdSchema = z.uuid().describe('Alert id');

/** The user's push preferences as read. */
export const NotificationPreferencesSchema = z
  .object({
    pilot_trade_notification_disabled: z
      .boolean()
      .describe('true stops `pilot_trade` pushes (sent to pilot-eligible users; on by default)'),
    regime_notification_disabled: z
      .boolean()
      .describe('true stops regime-transition pushes for favorited assets (on by default)'),
  })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/** Body of `PATCH /v1/users/notification_preferences`: the fields to change, at least one. */
export const NotificationPreferencesPatchSchema = z
  .object({
    pilot_trade_notification_disabled: z.boolean().optional(),
    regime_notification_disabled: z.boolean().optional(),
  })
  .refine((p) => p.pilot_trade_notification_disabled !== undefined || p.regime_notification_disabled !== undefined, {
    message: 'give at least one preference to change',
  })
  .meta({ id: 'NotificationPreferencesPatch', minProperties: 1 });
export type NotificationPreferencesPatch = z.infer<typeof NotificationPreferencesPatchSchema>;
