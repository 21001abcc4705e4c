import type Database from 'better-sqlite3';
import {
  canMove,
  type PilotAccessRecord,
  type PilotRepository,
  type PilotStateRecord,
  type PilotTradeRecord,
  type PlanProgress,
  type PlanTally,
  type PublishedPlanRepository,
  type PublishedPlanRow,
} from '../plans-types.js';

type DB = Database.Database;

interface PlanSqlRow extends Omit<PublishedPlanRow, 'plan' | 'legs'> {
  plan: string;
  legs: string;
}

function planOf(row: PlanSqlRow): PublishedPlanRow {
  return { ...row, plan: JSON.parse(row.plan), legs: JSON.parse(row.legs) };
}

function planOrNull(row: unknown): PublishedPlanRow | null {
  return row === undefined ? null : planOf(row as PlanSqlRow);
}

/** The published plans of the SQLite storage. */
export function sqlitePublishedPlans(db: DB): PublishedPlanRepository {
  const insert = db.prepare(
    `INSERT INTO published_plans (id, asset_id, timeframe, candle_time, published_at, venue, pair, market_type, side,
       confidence, source, plan, outcome, entered_at, fill_price, closed_at, targets_hit, realized_r, return_pct, legs,
       reason, updated_at)
     VALUES (@id, @asset_id, @timeframe, @candle_time, @published_at, @venue, @pair, @market_type, @side,
       @confidence, @source, @plan, @outcome, @entered_at, @fill_price, @closed_at, @targets_hit, @realized_r,
       @return_pct, @legs, @reason, @updated_at)
     ON CONFLICT(asset_id, timeframe, candle_time) DO NOTHING`,
  );
  const byId = db.prepare('SELECT * FROM published_plans WHERE id = ?');
  const open = db.prepare(
    "SELECT * FROM published_plans WHERE outcome IN ('pending', 'entered') ORDER BY published_at, id LIMIT ?",
  );
  const advance = db.prepare(
    `UPDATE published_plans SET outcome = @outcome, entered_at = @entered_at, fill_price = @fill_price,
       closed_at = @closed_at, targets_hit = @targets_hit, realized_r = @realized_r, return_pct = @return_pct,
       legs = @legs, reason = @reason, updated_at = @updated_at
     WHERE id = @id AND outcome = @from`,
  );
  const tally = db.prepare(
    `SELECT outcome, COUNT(*) AS count, COALESCE(SUM(realized_r), 0) AS sum_r, COUNT(realized_r) AS with_r
     FROM published_plans WHERE asset_id = ? AND timeframe = ? GROUP BY outcome ORDER BY outcome`,
  );
  const confidences = db.prepare(
    'SELECT confidence, outcome FROM published_plans WHERE asset_id = ? AND timeframe = ? ORDER BY published_at, id',
  );
  return {
    record: async (p) => insert.run({ ...p, plan: JSON.stringify(p.plan), legs: JSON.stringify(p.legs) }).changes > 0,
    byId: async (id) => planOrNull(byId.get(id)),
    open: async (limit = -1) => (open.all(limit) as PlanSqlRow[]).map(planOf),
    advance: async (id, from, progress: PlanProgress) => {
      if (!canMove(from, progress.outcome) && !(from === 'entered' && progress.outcome === 'entered')) return false;
      return advance.run({ ...progress, legs: JSON.stringify(progress.legs), id, from }).changes > 0;
    },
    list: async (f) => {
      const where = ['asset_id = @asset_id'];
      if (f.timeframe !== undefined) where.push('timeframe = @timeframe');
      if (f.side !== undefined) where.push('side = @side');
      if (f.published_until !== undefined) where.push('published_at <= @published_until');
      const sql = `SELECT * FROM published_plans WHERE ${where.join(' AND ')} ORDER BY published_at DESC, id DESC LIMIT @limit`;
      const rows = db.prepare(sql).all({
        asset_id: f.asset_id,
        timeframe: f.timeframe ?? null,
        side: f.side ?? null,
        published_until: f.published_until ?? null,
        limit: f.limit ?? -1,
      }) as PlanSqlRow[];
      return rows.map(planOf);
    },
    tally: async (assetId, timeframe) => tally.all(assetId, timeframe) as PlanTally[],
    confidences: async (assetId, timeframe) =>
      confidences.all(assetId, timeframe) as { confidence: number; outcome: PublishedPlanRow['outcome'] }[],
    undecidedEntered: async (assetIds, timeframe, since) => {
      if (assetIds.length === 0) return [];
      const marks = assetIds.map(() => '?').join(', ');
      const rows = db
        .prepare(
          `SELECT p.* FROM published_plans p LEFT JOIN pilot_decisions d ON d.plan_id = p.id
           WHERE d.plan_id IS NULL AND p.entered_at IS NOT NULL AND p.timeframe = ? AND p.published_at >= ?
             AND p.asset_id IN (${marks})
           ORDER BY p.entered_at, p.published_at, p.id`,
        )
        .all(timeframe, since, ...assetIds) as PlanSqlRow[];
      return rows.map(planOf);
    },
  };
}

interface TradeSqlRow extends Omit<PilotTradeRecord, 'take_profits' | 'legs'> {
  take_profits: string;
  legs: string;
}

function tradeOf(row: TradeSqlRow): PilotTradeRecord {
  return { ...row, take_profits: JSON.parse(row.take_profits), legs: JSON.parse(row.legs) };
}

function tradeParams(t: PilotTradeRecord) {
  return { ...t, take_profits: JSON.stringify(t.take_profits), legs: JSON.stringify(t.legs) };
}

/** The pilot's decisions, trades and state in the SQLite storage. */
export function sqlitePilot(db: DB): PilotRepository {
  const state = db.prepare('SELECT started_at, last_active_at FROM pilot_state WHERE id = 1');
  const touch = db.prepare(
    `INSERT INTO pilot_state (id, started_at, last_active_at) VALUES (1, @now, @now)
     ON CONFLICT(id) DO UPDATE SET last_active_at = MAX(last_active_at, @now)
     RETURNING started_at, last_active_at`,
  );
  const decideRow = db.prepare(
    'INSERT INTO pilot_decisions (plan_id, decision, reason, decided_at) VALUES (?, ?, ?, ?) ON CONFLICT(plan_id) DO NOTHING',
  );
  const nextIndex = db.prepare('SELECT COALESCE(MAX(trade_index), 0) + 1 AS n FROM pilot_trades');
  const insertTrade = db.prepare(
    `INSERT INTO pilot_trades (id, trade_index, plan_id, asset_id, timeframe, pair, side, opened_at, entry_price,
       stop_loss, take_profits, quantity, notional_usd, margin_usd, leverage, risk_usd, status, outcome, closed_at,
       exit_price, realized_r, pnl_usd, return_on_margin_pct, legs)
     VALUES (@id, @trade_index, @plan_id, @asset_id, @timeframe, @pair, @side, @opened_at, @entry_price,
       @stop_loss, @take_profits, @quantity, @notional_usd, @margin_usd, @leverage, @risk_usd, @status, @outcome,
       @closed_at, @exit_price, @realized_r, @pnl_usd, @return_on_margin_pct, @legs)`,
  );
  const update = db.prepare(
    `UPDATE pilot_trades SET status = @status, outcome = @outcome, closed_at = @closed_at, exit_price = @exit_price,
       realized_r = @realized_r, pnl_usd = @pnl_usd, return_on_margin_pct = @return_on_margin_pct, legs = @legs
     WHERE id = @id AND status = 'open'`,
  );
  const openTrades = db.prepare("SELECT * FROM pilot_trades WHERE status = 'open' ORDER BY trade_index");
  const closedBefore = db.prepare(
    "SELECT * FROM pilot_trades WHERE status = 'closed' AND trade_index < ? ORDER BY trade_index DESC LIMIT ?",
  );
  const closedAll = db.prepare("SELECT * FROM pilot_trades WHERE status = 'closed' ORDER BY trade_index");
  const grantAccess = db.prepare(
    `INSERT INTO pilot_access (user_id, granted_at, expires_at) VALUES (@user_id, @granted_at, @expires_at)
     ON CONFLICT(user_id) DO UPDATE SET granted_at = excluded.granted_at, expires_at = excluded.expires_at`,
  );
  const revokeAccess = db.prepare('DELETE FROM pilot_access WHERE user_id = ?');
  const accessOf = db.prepare('SELECT * FROM pilot_access WHERE user_id = ? AND expires_at > ?');
  const decide = db.transaction(
    (
      planId: string,
      decision: { taken: Omit<PilotTradeRecord, 'trade_index'> } | { skipped: string },
      now: number,
    ): PilotTradeRecord | null => {
      const taken = 'taken' in decision;
      if (decideRow.run(planId, taken ? 'taken' : 'skipped', taken ? null : decision.skipped, now).changes === 0) {
        return null;
      }
      if (!taken) return null;
      const { n } = nextIndex.get() as { n: number };
      const trade: PilotTradeRecord = { ...decision.taken, trade_index: n };
      insertTrade.run(tradeParams(trade));
      return trade;
    },
  );
  return {
    grantAccess: async (access) => {
      grantAccess.run(access);
    },
    revokeAccess: async (userId) => revokeAccess.run(userId).changes > 0,
    accessOf: async (userId, now) => (accessOf.get(userId, now) as PilotAccessRecord | undefined) ?? null,
    state: async () => (state.get() as PilotStateRecord | undefined) ?? null,
    touch: async (now) => touch.get({ now }) as PilotStateRecord,
    decide: async (planId, decision, now) => decide(planId, decision, now),
    update: async (trade) => update.run(tradeParams(trade)).changes > 0,
    openTrades: async () => (openTrades.all() as TradeSqlRow[]).map(tradeOf),
    closedPage: async (limit, before) => {
      const rows = closedBefore.all(before ?? Number.MAX_SAFE_INTEGER, limit) as TradeSqlRow[];
      return rows.map(tradeOf).reverse();
    },
    closedAll: async () => (closedAll.all() as TradeSqlRow[]).map(tradeOf),
  };
}
