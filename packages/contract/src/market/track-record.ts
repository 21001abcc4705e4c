/**
 * Wire schemas of the service's own track record: every trade plan the service publishes is recorded
 * at publication, before its outcome is known, and scored afterwards; these are the figures of that
 * record, per asset (`/v2/analysis/{asset_id}/track-record`) and service-wide (`/v2/track-record`,
 * MCP `get_track_record`).
 */
import { z } from 'zod';
import { PLAN_OUTCOMES } from '../pilot/responses.js';
import { DEFAULT_TIMEFRAME, TIMEFRAMES, timeframeSchema } from '../timeframes.js';
import { AssetClassSchema, AssetRefSchema } from './responses.js';

/** Outcomes of plans that were entered and closed: the trades the hit rate and mean R are over. */
export const RESOLVED_PLAN_OUTCOMES = ['tp_hit', 'stopped_out', 'time_stopped'] as const;

/** Plans the per-asset record lists in `recent`, newest first. */
export const RECENT_PLANS = 20;

/** Confidence buckets of the calibration: [0, 0.2), [0.2, 0.4), ..., [0.8, 1]. */
export const CALIBRATION_BUCKETS = 5;

const nn = z.number().nullable();
const time = z.iso.datetime();
const count = z.number().int().min(0);

export const CalibrationBucketSchema = z
  .object({
    confidence_min: z.number(),
    confidence_max: z.number(),
    plans: count.meta({ description: 'Plans published with a confidence in the bucket' }),
    resolved: count.meta({ description: 'Of those, entered and closed: tp_hit, stopped_out or time_stopped' }),
    hits: count.meta({ description: 'Of those, resolved with tp_hit' }),
    hit_rate: nn.meta({ description: 'hits / resolved; null when none resolved' }),
    mean_confidence: nn.meta({ description: 'Mean confidence of the resolved plans; compare with hit_rate' }),
  })
  .meta({ id: 'CalibrationBucket' });
export type CalibrationBucket = z.output<typeof CalibrationBucketSchema>;

export const PlanOutcomeCountsSchema = z
  .object(
    Object.fromEntries(PLAN_OUTCOMES.map((o) => [o, count])) as Record<(typeof PLAN_OUTCOMES)[number], typeof count>,
  )
  .meta({ id: 'PlanOutcomeCounts', description: 'Plans by outcome so far' });

/** The figures of a set of published plans (an asset, a timeframe and asset class, or all of them). */
export const TrackRecordFiguresSchema = z
  .object({
    plans: count.meta({ description: 'Plans published' }),
    counts: PlanOutcomeCountsSchema,
    resolved: count.meta({ description: 'Entered and closed: tp_hit + stopped_out + time_stopped' }),
    hit_rate: nn.meta({ description: 'tp_hit / resolved (target 1 reached); null when none resolved' }),
    mean_realized_r: nn.meta({
      description:
        "Mean realized R of the resolved plans, after the round-trip cost (cost_pct, the asset class's); null when none",
    }),
    total_realized_r: z.number().meta({ description: 'Sum of realized R of the resolved plans, after the cost' }),
    calibration: z.array(CalibrationBucketSchema).meta({
      description: `${CALIBRATION_BUCKETS} confidence buckets, lowest first: how often plans of that confidence reached target 1`,
    }),
    first_published_at: time.nullable().meta({ description: 'Publication of the oldest plan; null when none' }),
    last_published_at: time.nullable().meta({ description: 'Publication of the newest plan; null when none' }),
  })
  .meta({ id: 'TrackRecordFigures' });
export type TrackRecordFigures = z.output<typeof TrackRecordFiguresSchema>;

export const TrackRecordGroupSchema = TrackRecordFiguresSchema.extend({
  timeframe: z.enum(TIMEFRAMES),
  asset_class: AssetClassSchema,
  cost_pct: z.number().meta({
    description:
      "Round-trip cost deducted from every outcome of the group, % of the fill: the asset class's, the one its plans were published with",
  }),
}).meta({ id: 'TrackRecordGroup' });
export type TrackRecordGroup = z.output<typeof TrackRecordGroupSchema>;

/** A mean (or rate) with the ends of its central interval (the record's `level`). */
export const MeanIntervalSchema = z
  .object({
    mean: z.number(),
    low: z.number().meta({ description: 'Lower end of the central interval' }),
    high: z.number().meta({ description: 'Upper end of the central interval' }),
  })
  .meta({ id: 'MeanInterval' });

/**
 * The audit figures of a record's resolved calls (entered and closed: tp_hit, stopped_out,
 * time_stopped), the same for the live record and the backtest (core's `recordStats`).
 */
export const RecordStatsSchema = z
  .object({
    count: count.meta({ description: 'Resolved calls: entered and closed (tp_hit, stopped_out, time_stopped)' }),
    hits: count.meta({ description: 'Of those, target 1 reached before the stop (tp_hit)' }),
    hit_rate: MeanIntervalSchema.nullable().meta({
      description: 'hits / count with its Jeffreys (Beta posterior) interval; null when nothing resolved',
    }),
    break_even_hit_rate: nn.meta({
      description:
        "Mean break-even probability of the calls' plans: the hit rate at which they earn 0 R after the round-trip cost (loss_r / (win_r + loss_r)); a record with an edge has hit_rate above it. Null when nothing resolved",
    }),
    expected_r: z
      .object({
        mean: z.number(),
        low: nn.meta({ description: "Mean of the calls' interval lower ends; null when a call's interval is unknown" }),
        high: nn.meta({
          description: "Mean of the calls' interval upper ends; null when a call's interval is unknown",
        }),
      })
      .nullable()
      .meta({
        description:
          "Mean expected R after costs the calls were published with (their plan at their published probability); low and high the means of their intervals' ends (a live plan's interval is the one it was published with), null when a call's interval is unknown (a live plan published before the service stored intervals). Null when nothing resolved",
      }),
    realized_r: MeanIntervalSchema.nullable().meta({
      description:
        "Mean realized R after the asset class's round-trip cost, with its Student-t interval; compare with expected_r. Null when nothing resolved",
    }),
    total_r: z.number().meta({ description: 'Sum of the realized R' }),
    max_drawdown_r: z.number().min(0).meta({
      description:
        'Largest fall of the cumulative realized R from a running peak (0 R at the start included), the calls taken in closing order, in R; 0 when nothing resolved',
    }),
    from: time.nullable().meta({ description: 'Candle time of the first resolved call; null when none' }),
    to: time.nullable().meta({ description: 'Closing time of the last resolved call; null when none' }),
    level: z.number().meta({ description: 'Coverage of the intervals (0.9: central 90%)' }),
  })
  .meta({ id: 'RecordStats' });
export type RecordStats = z.output<typeof RecordStatsSchema>;

/** The live record's audit: the plans as published, from the first one the server served. */
export const LiveRecordSchema = z
  .object({
    kind: z.literal('live').meta({ description: 'Always `live`: plans the service published, scored afterwards' }),
    label: z.string().meta({ description: 'What the record is, in one sentence' }),
    stats: RecordStatsSchema,
  })
  .meta({ id: 'LiveRecord' });
export type LiveRecord = z.output<typeof LiveRecordSchema>;

/** The backtest of one served asset on one timeframe. */
export const BacktestSeriesSchema = z
  .object({
    asset_id: z.string(),
    asset_class: AssetClassSchema,
    timeframe: z.enum(TIMEFRAMES),
    cost_pct: z.number().meta({
      description: "Round-trip cost of the series' plans and outcomes, % of the fill: the asset class's, as published",
    }),
    candles: count.meta({ description: 'Closed candles the walk-forward read (the newest stored ones)' }),
    out_of_sample_since: time.nullable().meta({
      description:
        "The day after the calibration's training window for the timeframe's family: only candles opening at or after it are analysed; null when the calibration names no window for the family",
    }),
    analyses: count.meta({ description: 'Candles analysed (each one reading only the candles up to it)' }),
    calls: count.meta({ description: 'Of those, a published Buy or Sell (the rest are Holds)' }),
    first_analysis_at: time.nullable().meta({ description: 'Open time of the first candle analysed; null when none' }),
    last_analysis_at: time.nullable().meta({ description: 'Open time of the last candle analysed; null when none' }),
    stats: RecordStatsSchema,
    error: z.string().nullable().meta({
      description: 'Why the series could not be read this time (its source failed); null when it was walked',
    }),
  })
  .meta({ id: 'BacktestSeries' });
export type BacktestSeries = z.output<typeof BacktestSeriesSchema>;

/**
 * The backtest record: a walk-forward of today's signal over the stored candles of each served asset
 * and timeframe, out of sample after the calibration's window, refreshed by a background job.
 */
export const BacktestRecordSchema = z
  .object({
    kind: z.literal('backtest').meta({
      description: 'Always `backtest`: simulated calls on past candles, not plans the service published',
    }),
    label: z.string().meta({
      description: 'What the record is and what it shows (how few analyses publish a call, when so), in plain words',
    }),
    status: z.enum(['ready', 'pending']).meta({
      description: '`pending`: the background job has not finished its first run yet (every figure empty)',
    }),
    as_of: time.nullable().meta({ description: 'When the background job computed it; null while pending' }),
    analyses: count.meta({ description: 'Candles analysed over every series below' }),
    calls: count.meta({ description: 'Of those, a published Buy or Sell' }),
    call_share: nn.meta({ description: 'calls / analyses; null without analyses' }),
    total: RecordStatsSchema.meta({ description: 'Over every series below' }),
    series: z
      .array(BacktestSeriesSchema)
      .meta({ description: 'One per served asset and timeframe, by timeframe then asset' }),
  })
  .meta({ id: 'BacktestRecord' });
export type BacktestRecord = z.output<typeof BacktestRecordSchema>;

/** `GET /v2/track-record` data and `get_track_record` output: the service-wide record. */
export const ServiceTrackRecordSchema = z
  .object({
    as_of: time.meta({ description: 'When the figures were computed (they are kept up to a minute)' }),
    cost_pct: z.number().nullable().meta({
      description:
        "Round-trip cost deducted from every outcome, % of the fill, when every group shares one (each plan is scored with its asset class's cost, as published); null when the groups' costs differ: see each group's cost_pct",
    }),
    timeframe: z.enum(TIMEFRAMES).nullable().meta({ description: 'The timeframe filter; null: every timeframe' }),
    asset_class: AssetClassSchema.nullable().meta({ description: 'The asset-class filter; null: every class' }),
    total: TrackRecordFiguresSchema.meta({ description: 'Over every group below' }),
    groups: z.array(TrackRecordGroupSchema).meta({
      description: 'One per timeframe and asset class with at least one plan, by timeframe then class',
    }),
    live: LiveRecordSchema.meta({
      description:
        'The audit of the plans above (the filters applied): resolved calls, hit rate against break-even, expected against realized R, drawdown',
    }),
    backtest: BacktestRecordSchema.meta({
      description:
        'Beside the live record, the backtest over the served assets and timeframes (the filters applied): labelled, never mixed in the figures above',
    }),
  })
  .meta({ id: 'ServiceTrackRecord' });
export type ServiceTrackRecord = z.output<typeof ServiceTrackRecordSchema>;

/** `GET /v2/track-record` query: optional filters, timeframes in the REST spelling. */
export const TrackRecordQuery = z.object({
  timeframe: z.enum(TIMEFRAMES).optional().describe('Only plans on this timeframe; absent: every timeframe'),
  asset_class: AssetClassSchema.optional().describe('Only plans of assets of this class; absent: every class'),
});
export type TrackRecordQuery = z.output<typeof TrackRecordQuery>;

/** `get_track_record`: the query's filters, timeframes in either spelling. */
export const TrackRecordInput = TrackRecordQuery.extend({
  timeframe: timeframeSchema(TIMEFRAMES).optional().describe('Only plans on this timeframe; absent: every timeframe'),
});
export type TrackRecordInput = z.output<typeof TrackRecordInput>;

/** A plan the service published, with its outcome so far. */
export const PublishedPlanSchema = z
  .object({
    id: z.string(),
    timeframe: z.string(),
    side: z.enum(['long', 'short']),
    confidence: z.number().meta({ description: 'The signal confidence (0..1) behind the plan' }),
    published_at: time.meta({ description: 'When the service published it, before any outcome' }),
    candle_time: time.meta({ description: 'Open time of the candle it was computed on' }),
    pair: z.string(),
    market_type: z.enum(['spot', 'derivatives']),
    entry_zone: z.object({ low: z.number(), high: z.number() }).nullable(),
    entry_price: nn,
    stop_loss: nn,
    take_profits: z.array(z.object({ price: z.number(), size_pct: z.number() })),
    outcome: z.enum(PLAN_OUTCOMES),
    entered_at: time.nullable(),
    fill_price: nn,
    closed_at: time.nullable(),
    targets_hit: z.number().int(),
    realized_r: nn.meta({
      description: "Size-weighted R after the plan's round-trip cost (its asset class's); null until closed",
    }),
  })
  .meta({ id: 'PublishedPlan' });
export type PublishedPlan = z.output<typeof PublishedPlanSchema>;

/** `GET /v2/analysis/{asset_id}/track-record` data: the record of one asset on one timeframe. */
export const PlanTrackRecordSchema = TrackRecordFiguresSchema.extend({
  asset: AssetRefSchema,
  timeframe: z.enum(TIMEFRAMES),
  cost_pct: z.number().meta({
    description: "Round-trip cost deducted from every outcome, % of the fill: the asset class's, as its plans use",
  }),
  recent: z.array(PublishedPlanSchema).meta({ description: `The newest ${RECENT_PLANS} plans, newest first` }),
  live: LiveRecordSchema.meta({ description: "The audit of this asset's plans on the timeframe" }),
  backtest: BacktestRecordSchema.meta({
    description:
      'The backtest of this asset on the timeframe: its one series, or none when it is not among the served series the job walks',
  }),
}).meta({ id: 'PlanTrackRecord' });
export type PlanTrackRecord = z.output<typeof PlanTrackRecordSchema>;

/** `GET /v2/analysis/{asset_id}/track-record` query. */
export const AssetTrackRecordQuery = z.object({
  timeframe: z.enum(TIMEFRAMES).default(DEFAULT_TIMEFRAME).meta({ description: 'Default d1 (free)' }),
});
