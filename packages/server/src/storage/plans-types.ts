/**
 * Records and repositories of the service's published plans (every plan it served, recorded with
 * its publication time before its outcome is known) and of the pilot, the paper-trading bot that
 * takes them. Times are epoch milliseconds; ids are UUIDs.
 */
import type { Direction, PlanOutcome, SimulatedLeg, TradePlan } from '@marketlens/core';
import type { MarketType } from '@marketlens/exchanges';

/** Every outcome state of a published plan, in the order a plan can pass them. */
export const PLAN_OUTCOMES: readonly PlanOutcome[] = [
  'pending',
  'entered',
  'tp_hit',
  'stopped_out',
  'time_stopped',
  'expired',
];

/** Outcomes after which nothing moves. */
export const FINAL_OUTCOMES: ReadonlySet<PlanOutcome> = new Set(['tp_hit', 'stopped_out', 'time_stopped', 'expired']);

/**
 * The only moves of a published plan's outcome (one step each): forward, never back, nothing out
 * of a final state. A plan observed entering and closing in one pass moves through `entered`.
 */
export const PLAN_TRANSITIONS: Readonly<Record<PlanOutcome, readonly PlanOutcome[]>> = {
  pending: ['entered', 'expired'],
  entered: ['tp_hit', 'stopped_out', 'time_stopped'],
  tp_hit: [],
  stopped_out: [],
  time_stopped: [],
  expired: [],
};

/** Whether `to` is one allowed step from `from`. */
export function canMove(from: PlanOutcome, to: PlanOutcome): boolean {
  return PLAN_TRANSITIONS[from].includes(to);
}

/** Who recorded a plan: the analysis route serving it, or the publishing job over the pilot universe. */
export type PlanSource = 'analysis' | 'publisher';

/** What is known of a plan's outcome so far (core's `simulatePlan`, after the 0.20% cost). */
export interface PlanProgress {
  outcome: PlanOutcome;
  /** Open time of the candle that filled the entry. */
  entered_at: number | null;
  /** The simulated fill price. */
  fill_price: number | null;
  /** Exit time, or the end of the entry window of an expired plan. */
  closed_at: number | null;
  targets_hit: number;
  /** Size-weighted R net of the cost; null until fully closed. */
  realized_r: number | null;
  /** Size-weighted return in % of the fill, net of the cost; null until fully closed. */
  return_pct: number | null;
  /** One leg per take-profit (70/30, or 100), empty before the entry. */
  legs: SimulatedLeg[];
  /** `gap_through_stop` for a plan expired by a gap beyond its stop; else null. */
  reason: string | null;
  updated_at: number;
}

/** A plan the service published, with its outcome so far. */
export interface PublishedPlanRow extends PlanProgress {
  id: string;
  asset_id: string;
  timeframe: string;
  /** Open time of the candle the plan was computed on (`plan.published_time`); unique per asset and timeframe. */
  candle_time: number;
  /** When the service published it; outcomes read only candles opening at or after this time. */
  published_at: number;
  venue: string;
  pair: string;
  market_type: MarketType;
  side: Direction;
  /** The signal's confidence (0..1) behind the plan's side. */
  confidence: number;
  /**
   * The ends of the confidence's interval as published (the signal's `edge.probability_low` and
   * `_high`, at core's `EDGE_INTERVAL_LEVEL`): the live record's expected-R interval is read from
   * them. Null for a plan published before they were stored (migration 17) or without an edge.
   */
  confidence_low: number | null;
  confidence_high: number | null;
  source: PlanSource;
  /** The plan as served: entry band, stop, targets, horizon, entry window. */
  plan: TradePlan;
}

/** Which plans to list. */
export interface PlanFilter {
  asset_id: string;
  timeframe?: string;
  side?: Direction;
  /** Only plans published at or before this time. */
  published_until?: number;
  /** Newest first, at most this many (all when absent). */
  limit?: number;
}

/** Which plans {@link PublishedPlanRepository.aggregate} sums over (all when absent). */
export interface PlanAggregateFilter {
  asset_id?: string;
  timeframe?: string;
}

/**
 * The sums of the plans of one asset and timeframe that share an outcome and a confidence bucket:
 * the raw figures of the track records, small whatever the number of plans.
 */
export interface PlanAggregate {
  asset_id: string;
  timeframe: string;
  outcome: PlanOutcome;
  /** Confidence bucket: `b` holds confidences in [b / buckets, (b + 1) / buckets), the last one 1 too. */
  bucket: number;
  count: number;
  /** Sum of realized R of the rows that have one. */
  sum_r: number;
  /** Rows with a realized R. */
  with_r: number;
  /** Sum of the plans' confidences (a mean confidence is this over `count`). */
  sum_confidence: number;
  /** Earliest and latest `published_at` of the plans. */
  first_published_at: number;
  last_published_at: number;
}

export interface PublishedPlanRepository {
  /** Inserts the plan unless one exists for (asset_id, timeframe, candle_time); true when inserted. */
  record(plan: PublishedPlanRow): Promise<boolean>;
  byId(id: string): Promise<PublishedPlanRow | null>;
  /** Plans still pending or entered, oldest publication first (at most `limit`). */
  open(limit?: number): Promise<PublishedPlanRow[]>;
  /**
   * Writes progress when the row is still in `from` (compare-and-set) and the move is allowed:
   * `canMove(from, progress.outcome)`, or `entered` to `entered` (a leg closed, the rest runs).
   * False when the row moved meanwhile or the move is refused.
   */
  advance(id: string, from: PlanOutcome, progress: PlanProgress): Promise<boolean>;
  /** Plans of an asset, newest publication first. */
  list(filter: PlanFilter): Promise<PublishedPlanRow[]>;
  /**
   * Plans summed per (asset, timeframe, outcome, confidence bucket) over `buckets` equal confidence
   * buckets, computed by the database; groups without plans are absent.
   */
  aggregate(buckets: number, filter?: PlanAggregateFilter): Promise<PlanAggregate[]>;
  /**
   * Plans on `timeframe` of the given assets, published at or after `since`, that have been entered
   * and on which the pilot has not decided yet; by entry time, then publication.
   */
  undecidedEntered(assetIds: readonly string[], timeframe: string, since: number): Promise<PublishedPlanRow[]>;
}

/** A trade of the pilot. Its exits are the plan's simulated legs (70% at target 1, 30% at target 2 or the stop). */
export interface PilotTradeRecord {
  id: string;
  /** 1, 2, 3, ... in the order the bot opened them: the `before_trade` index. */
  trade_index: number;
  plan_id: string;
  asset_id: string;
  timeframe: string;
  pair: string;
  side: Direction;
  /** Open time of the candle the plan's entry filled in. */
  opened_at: number;
  entry_price: number;
  stop_loss: number;
  /** The plan's targets (price, size_pct). */
  take_profits: { price: number; size_pct: number }[];
  quantity: number;
  notional_usd: number;
  margin_usd: number;
  leverage: number;
  risk_usd: number;
  status: 'open' | 'closed';
  outcome: PlanOutcome;
  closed_at: number | null;
  /** Size-weighted average exit price; null while open. */
  exit_price: number | null;
  realized_r: number | null;
  pnl_usd: number | null;
  return_on_margin_pct: number | null;
  legs: SimulatedLeg[];
}

/** The bot's own state. */
export interface PilotStateRecord {
  /** First run; the bot takes plans published from then on. */
  started_at: number;
  /** Last completed run. */
  last_active_at: number;
}

/** Pilot access an operator granted to a user, until `expires_at`. */
export interface PilotAccessRecord {
  user_id: string;
  granted_at: number;
  expires_at: number;
}

export interface PilotRepository {
  /** Grants (or extends, or shortens) a user's pilot access; one grant per user. */
  grantAccess(access: PilotAccessRecord): Promise<void>;
  /** Ends a user's pilot access; false when there was none. */
  revokeAccess(userId: string): Promise<boolean>;
  /** The user's grant still in force at `now`, or null. */
  accessOf(userId: string, now: number): Promise<PilotAccessRecord | null>;
  state(): Promise<PilotStateRecord | null>;
  /** Marks a run: sets `started_at` on the first one, `last_active_at` always. */
  touch(now: number): Promise<PilotStateRecord>;
  /**
   * Records the decision on a plan and, when taken, inserts the trade with the next index, in one
   * transaction. Returns the stored trade, or null when skipped or when the plan was decided before.
   */
  decide(
    planId: string,
    decision: { taken: Omit<PilotTradeRecord, 'trade_index'> } | { skipped: string },
    now: number,
  ): Promise<PilotTradeRecord | null>;
  /** Updates an open trade (legs, and the close when `status` is closed); false when not open. */
  update(trade: PilotTradeRecord): Promise<boolean>;
  openTrades(): Promise<PilotTradeRecord[]>;
  /** Closed trades with `trade_index < before` (all when absent), newest `limit`, returned oldest first. */
  closedPage(limit: number, before?: number): Promise<PilotTradeRecord[]>;
  /** Every closed trade, oldest first. */
  closedAll(): Promise<PilotTradeRecord[]>;
}
