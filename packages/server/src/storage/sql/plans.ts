/** The service's published plans and the pilot's decisions, trades and state. */

import { type RawBuilder, sql } from 'kysely';
import {
  canMove,
  type PilotRepository,
  type PilotTradeRecord,
  type PlanProgress,
  type PublishedPlanRepository,
  type PublishedPlanRow,
} from '../plans-types.js';
import { changes, type Db, lockKey, type Sql } from './query.js';
import type { PilotTradesTable, PublishedPlansTable } from './schema.js';
import { columnsOf } from './schema.js';

/**
 * The confidence bucket of a row, 0 to `buckets - 1`: bucket `b` holds [b / buckets, (b + 1) / buckets),
 * the last one 1 too. Spelled with literals only, so that the SELECT and the GROUP BY are the same
 * text (PostgreSQL does not match an expression whose parameters are numbered apart).
 */
function confidenceBucket(buckets: number): RawBuilder<number> {
  // One bucket would group by a bare constant, which both engines read as a column position.
  if (!Number.isSafeInteger(buckets) || buckets < 2)
    throw new RangeError(`buckets must be an integer above 1; got ${buckets}`);
  const whens: RawBuilder<unknown>[] = [];
  for (let b = buckets - 1; b >= 1; b--) whens.push(sql`WHEN confidence >= ${sql.lit(b / buckets)} THEN ${sql.lit(b)}`);
  return sql<number>`CASE ${sql.join(whens, sql` `)} ELSE 0 END`;
}

function planOf(row: PublishedPlansTable): PublishedPlanRow {
  return { ...row, plan: JSON.parse(row.plan), legs: JSON.parse(row.legs) };
}

/** Published plans: recorded once per (asset, timeframe, candle), moved forward by compare-and-set. */
export function sqlPublishedPlans({ db }: Sql): PublishedPlanRepository {
  return {
    record: async (p) =>
      changes(
        await db
          .insertInto('published_plans')
          .values({ ...columnsOf('published_plans', p), plan: JSON.stringify(p.plan), legs: JSON.stringify(p.legs) })
          .onConflict((oc) => oc.columns(['asset_id', 'timeframe', 'candle_time']).doNothing())
          .executeTakeFirst(),
      ) > 0,
    byId: async (id) => {
      const r = await db.selectFrom('published_plans').selectAll().where('id', '=', id).executeTakeFirst();
      return r ? planOf(r) : null;
    },
    open: async (limit) =>
      (
        await db
          .selectFrom('published_plans')
          .selectAll()
          .where('outcome', 'in', ['pending', 'entered'])
          .orderBy('published_at')
          .orderBy('id')
          .$if(limit !== undefined && limit >= 0, (q) => q.limit(limit ?? 0))
          .execute()
      ).map(planOf),
    advance: async (id, from, progress: PlanProgress) => {
      if (!canMove(from, progress.outcome) && !(from === 'entered' && progress.outcome === 'entered')) return false;
      const r = await db
        .updateTable('published_plans')
        .set({
          outcome: progress.outcome,
          entered_at: progress.entered_at,
          fill_price: progress.fill_price,
          closed_at: progress.closed_at,
          targets_hit: progress.targets_hit,
          realized_r: progress.realized_r,
          return_pct: progress.return_pct,
          legs: JSON.stringify(progress.legs),
          reason: progress.reason,
          updated_at: progress.updated_at,
        })
        .where('id', '=', id)
        .where('outcome', '=', from)
        .executeTakeFirst();
      return changes(r) > 0;
    },
    list: async (f) =>
      (
        await db
          .selectFrom('published_plans')
          .selectAll()
          .where('asset_id', '=', f.asset_id)
          .$if(f.timeframe !== undefined, (q) => q.where('timeframe', '=', f.timeframe ?? ''))
          .$if(f.side !== undefined, (q) => q.where('side', '=', f.side ?? 'long'))
          .$if(f.published_until !== undefined, (q) => q.where('published_at', '<=', f.published_until ?? 0))
          .orderBy('published_at', 'desc')
          .orderBy('id', 'desc')
          .$if(f.limit !== undefined && f.limit >= 0, (q) => q.limit(f.limit ?? 0))
          .execute()
      ).map(planOf),
    aggregate: async (buckets, f = {}) => {
      const bucket = confidenceBucket(buckets);
      const rows = await db
        .selectFrom('published_plans')
        .select((eb) => [
          'asset_id',
          'timeframe',
          'outcome',
          bucket.as('bucket'),
          eb.fn.countAll<number>().as('count'),
          eb.fn.coalesce(eb.fn.sum<number>('realized_r'), eb.val(0)).as('sum_r'),
          eb.fn.count<number>('realized_r').as('with_r'),
          eb.fn.sum<number>('confidence').as('sum_confidence'),
          eb.fn.min('published_at').as('first_published_at'),
          eb.fn.max('published_at').as('last_published_at'),
        ])
        .$if(f.asset_id !== undefined, (q) => q.where('asset_id', '=', f.asset_id ?? ''))
        .$if(f.timeframe !== undefined, (q) => q.where('timeframe', '=', f.timeframe ?? ''))
        .groupBy(['asset_id', 'timeframe', 'outcome', bucket])
        .execute();
      // PostgreSQL answers counts and BIGINT columns as strings.
      return rows.map((r) => ({
        asset_id: r.asset_id,
        timeframe: r.timeframe,
        outcome: r.outcome,
        bucket: Number(r.bucket),
        count: Number(r.count),
        sum_r: Number(r.sum_r),
        with_r: Number(r.with_r),
        sum_confidence: Number(r.sum_confidence),
        first_published_at: Number(r.first_published_at),
        last_published_at: Number(r.last_published_at),
      }));
    },
    undecidedEntered: async (assetIds, timeframe, since) => {
      if (assetIds.length === 0) return [];
      const rows = await db
        .selectFrom('published_plans as p')
        .leftJoin('pilot_decisions as d', 'd.plan_id', 'p.id')
        .selectAll('p')
        .where('d.plan_id', 'is', null)
        .where('p.entered_at', 'is not', null)
        .where('p.timeframe', '=', timeframe)
        .where('p.published_at', '>=', since)
        .where('p.asset_id', 'in', [...assetIds])
        .orderBy('p.entered_at')
        .orderBy('p.published_at')
        .orderBy('p.id')
        .execute();
      return rows.map(planOf);
    },
  };
}

function tradeOf(row: PilotTradesTable): PilotTradeRecord {
  return { ...row, take_profits: JSON.parse(row.take_profits), legs: JSON.parse(row.legs) };
}

function tradeRow(t: PilotTradeRecord): PilotTradesTable {
  return {
    ...columnsOf('pilot_trades', t),
    take_profits: JSON.stringify(t.take_profits),
    legs: JSON.stringify(t.legs),
  };
}

/** The pilot: decisions once per plan, trades numbered in order (serialized by an advisory lock on PostgreSQL). */
export function sqlPilot(s: Sql): PilotRepository {
  const { db } = s;
  const trades = (q: Db) => q.selectFrom('pilot_trades').selectAll();
  return {
    grantAccess: async (access) => {
      await db
        .insertInto('pilot_access')
        .values(columnsOf('pilot_access', access))
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            granted_at: eb.ref('excluded.granted_at'),
            expires_at: eb.ref('excluded.expires_at'),
          })),
        )
        .execute();
    },
    revokeAccess: async (userId) =>
      changes(await db.deleteFrom('pilot_access').where('user_id', '=', userId).executeTakeFirst()) > 0,
    accessOf: async (userId, now) =>
      (await db
        .selectFrom('pilot_access')
        .selectAll()
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .executeTakeFirst()) ?? null,
    state: async () =>
      (await db
        .selectFrom('pilot_state')
        .select(['started_at', 'last_active_at'])
        .where('id', '=', 1)
        .executeTakeFirst()) ?? null,
    touch: (now) =>
      db
        .insertInto('pilot_state')
        .values({ id: 1, started_at: now, last_active_at: now })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            // The later of the two (MAX() of two values is spelled differently by the engines).
            last_active_at: eb
              .case()
              .when('pilot_state.last_active_at', '>', now)
              .then(eb.ref('pilot_state.last_active_at'))
              .else(now)
              .end(),
          })),
        )
        .returning(['started_at', 'last_active_at'])
        .executeTakeFirstOrThrow(),
    decide: (planId, decision, now) =>
      db.transaction().execute(async (trx): Promise<PilotTradeRecord | null> => {
        const taken = 'taken' in decision;
        const decided = await trx
          .insertInto('pilot_decisions')
          .values({
            plan_id: planId,
            decision: taken ? 'taken' : 'skipped',
            reason: taken ? null : decision.skipped,
            decided_at: now,
          })
          .onConflict((oc) => oc.column('plan_id').doNothing())
          .executeTakeFirst();
        if (changes(decided) === 0 || !taken) return null;
        // Trade numbers are consecutive across the table: one numbering at a time.
        await lockKey(s, trx, 'pilot_trades');
        const { n } = await trx
          .selectFrom('pilot_trades')
          .select((eb) => eb.fn.coalesce(eb.fn.max('trade_index'), eb.val(0)).as('n'))
          .executeTakeFirstOrThrow();
        const trade: PilotTradeRecord = { ...decision.taken, trade_index: Number(n) + 1 };
        await trx.insertInto('pilot_trades').values(tradeRow(trade)).execute();
        return trade;
      }),
    update: async (trade) => {
      const row = tradeRow(trade);
      const r = await db
        .updateTable('pilot_trades')
        .set({
          status: row.status,
          outcome: row.outcome,
          closed_at: row.closed_at,
          exit_price: row.exit_price,
          realized_r: row.realized_r,
          pnl_usd: row.pnl_usd,
          return_on_margin_pct: row.return_on_margin_pct,
          legs: row.legs,
        })
        .where('id', '=', trade.id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return changes(r) > 0;
    },
    openTrades: async () =>
      (await trades(db).where('status', '=', 'open').orderBy('trade_index').execute()).map(tradeOf),
    closedPage: async (limit, before) => {
      const rows = await trades(db)
        .where('status', '=', 'closed')
        .where('trade_index', '<', before ?? Number.MAX_SAFE_INTEGER)
        .orderBy('trade_index', 'desc')
        .limit(limit)
        .execute();
      return rows.map(tradeOf).reverse();
    },
    closedAll: async () =>
      (await trades(db).where('status', '=', 'closed').orderBy('trade_index').execute()).map(tradeOf),
  };
}
