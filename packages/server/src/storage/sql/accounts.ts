/**
 * Repositories of connected accounts: connections and their sync state, positions, balances and
 * fills. Every write a sync makes is one transaction, so a crash leaves either the state before it
 * or the state after it; on PostgreSQL it holds the connection's row lock, so two instances
 * syncing one connection apply their writes one after the other.
 */
import { randomUUID } from 'node:crypto';
import type { SelectQueryBuilder } from 'kysely';
import type {
  BalanceRepository,
  ConnectionRepository,
  FillFilter,
  FillRecord,
  FillRepository,
  PositionRecord,
  PositionRepository,
} from '../account-types.js';
import type { PageOptions } from '../types.js';
import { changes, type Db, pageBound, type Sql } from './query.js';
import type { Schema } from './schema.js';
import { columnsOf } from './schema.js';

/** Locks a connection's row until the transaction ends (PostgreSQL; SQLite runs one writer at a time). */
async function lockConnection(s: Sql, trx: Db, id: string): Promise<void> {
  if (s.engine !== 'postgres') return;
  await trx.selectFrom('user_connections').select('id').where('id', '=', id).forUpdate().execute();
}

/** Connections and their sync state. */
export function sqlConnections({ db }: Sql): ConnectionRepository {
  return {
    create: async (c) => {
      await db.insertInto('user_connections').values(columnsOf('user_connections', c)).execute();
    },
    byId: async (id) =>
      (await db.selectFrom('user_connections').selectAll().where('id', '=', id).executeTakeFirst()) ?? null,
    byUser: (userId) =>
      db
        .selectFrom('user_connections')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    due: (now, limit) =>
      db
        .selectFrom('user_connections')
        .selectAll()
        .where('next_sync_at', '<=', now)
        // A disabled account's connections are not synced; enabled again, they are due at once.
        .where(({ exists, not, selectFrom }) =>
          not(
            exists(
              selectFrom('users as u')
                .select('u.id')
                .whereRef('u.id', '=', 'user_connections.user_id')
                .where('u.disabled_at', 'is not', null),
            ),
          ),
        )
        .orderBy('next_sync_at')
        .orderBy('id')
        .limit(pageBound(limit) ?? 0)
        .execute(),
    recordOutcome: async (id, o) => {
      const set =
        o.error === null
          ? { last_sync_at: o.at, last_success_at: o.at, last_error: null, failures: 0, next_sync_at: o.next_sync_at }
          : { last_sync_at: o.at, last_error: o.error, failures: o.failures, next_sync_at: o.next_sync_at };
      await db.updateTable('user_connections').set(set).where('id', '=', id).execute();
    },
    scheduleAt: async (id, at) =>
      changes(
        await db.updateTable('user_connections').set({ next_sync_at: at }).where('id', '=', id).executeTakeFirst(),
      ) > 0,
    // Positions, balances and fills go with it (ON DELETE CASCADE, same statement).
    delete: async (userId, id) =>
      changes(
        await db.deleteFrom('user_connections').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst(),
      ) > 0,
  };
}

const keyOf = (p: { pair: string; side: string; market_type: string }): string =>
  `${p.market_type}\u0000${p.side}\u0000${p.pair}`;

/** Positions: a sync matches open rows on (pair, side, market type) and keeps their ids. */
export function sqlPositions(s: Sql): PositionRepository {
  const { db } = s;
  const open = (q: Db) =>
    q
      .selectFrom('positions')
      .selectAll()
      .where('closed_at', 'is', null)
      .orderBy('first_seen_at')
      .orderBy('user_connection_id')
      .orderBy('pair')
      .orderBy('side')
      .orderBy('market_type');
  const byId = (userId: string, id: string) =>
    db.selectFrom('positions').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return {
    applySync: (sync) =>
      db.transaction().execute(async (trx) => {
        await lockConnection(s, trx, sync.user_connection_id);
        const close = (id: string) =>
          trx.updateTable('positions').set({ closed_at: sync.at }).where('id', '=', id).execute();
        const stored = new Map<string, PositionRecord>();
        const rows = await trx
          .selectFrom('positions')
          .selectAll()
          .where('user_connection_id', '=', sync.user_connection_id)
          .where('closed_at', 'is', null)
          .execute();
        for (const r of rows) stored.set(keyOf(r), r);
        const seen = new Set<string>();
        const protective = sync.protective_synced_at;
        for (const row of sync.rows) {
          const p = row.position;
          const key = keyOf(p);
          // A venue listing the same key twice (two sub-accounts) keeps the first row.
          if (seen.has(key)) continue;
          seen.add(key);
          let prev = stored.get(key);
          // A different opening time is a different position: close the old one, open a new one.
          if (prev !== undefined && prev.opened_at !== null && p.opened_at !== null && prev.opened_at !== p.opened_at) {
            await close(prev.id);
            prev = undefined;
          }
          const fields = {
            asset_id: p.asset_id,
            size: p.size,
            entry_price: p.entry_price,
            mark_price: p.mark_price,
            margin: p.margin,
            leverage: p.leverage,
            liquidation_price: p.liquidation_price,
            unrealized_pnl: p.unrealized_pnl,
            settle: p.settle,
            contract_type: p.contract_type ?? 'linear',
            maintenance_margin: p.maintenance_margin ?? null,
            opened_at: p.opened_at ?? prev?.opened_at ?? null,
            updated_at: p.updated_at,
            stop_loss: protective !== null ? row.stop_loss : (prev?.stop_loss ?? null),
            take_profit: protective !== null ? row.take_profit : (prev?.take_profit ?? null),
            protective_levels_synced_at: protective ?? prev?.protective_levels_synced_at ?? null,
            funding_since_open:
              row.funding_since_open !== undefined ? row.funding_since_open : (prev?.funding_since_open ?? null),
            last_seen_at: sync.at,
          };
          if (prev !== undefined) {
            await trx.updateTable('positions').set(fields).where('id', '=', prev.id).execute();
          } else {
            await trx
              .insertInto('positions')
              .values({
                id: randomUUID(),
                user_id: sync.user_id,
                user_connection_id: sync.user_connection_id,
                venue: sync.venue,
                pair: p.pair,
                market_type: p.market_type,
                side: p.side,
                notes: '',
                first_seen_at: sync.at,
                closed_at: null,
                ...fields,
              })
              .execute();
          }
        }
        for (const [key, r] of stored) if (!seen.has(key)) await close(r.id);
        if (protective !== null) {
          await trx
            .updateTable('user_connections')
            .set({ protective_levels_synced_at: protective })
            .where('id', '=', sync.user_connection_id)
            .execute();
        }
      }),
    openByUser: async (userId, assetIds) => {
      const rows = await open(db).where('user_id', '=', userId).execute();
      if (assetIds === undefined) return rows;
      const want = new Set(assetIds);
      return rows.filter((r) => r.asset_id !== null && want.has(r.asset_id));
    },
    openByConnection: (connectionId) => open(db).where('user_connection_id', '=', connectionId).execute(),
    byId: async (userId, id) => (await byId(userId, id)) ?? null,
    setNotes: async (userId, id, notes) => {
      const r = await db
        .updateTable('positions')
        .set({ notes })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (changes(r) === 0) return null;
      return (await byId(userId, id)) ?? null;
    },
  };
}

/** Balances: a sync replaces a connection's lines. */
export function sqlBalances(s: Sql): BalanceRepository {
  const { db } = s;
  const ordered = (q: Db) =>
    q.selectFrom('balances').selectAll().orderBy('user_connection_id').orderBy('account').orderBy('symbol');
  return {
    replace: (c, lines, at) =>
      db.transaction().execute(async (trx) => {
        await lockConnection(s, trx, c.user_connection_id);
        await trx.deleteFrom('balances').where('user_connection_id', '=', c.user_connection_id).execute();
        // A line the venue reports twice under one key (symbols differing in case only) keeps the last.
        for (const l of lines) {
          await trx
            .insertInto('balances')
            .values({
              user_connection_id: c.user_connection_id,
              // Symbols are matched case-normalized: the key is the uppercased code.
              symbol: l.symbol.toUpperCase(),
              account: l.account,
              user_id: c.user_id,
              venue: c.venue,
              asset_id: l.asset_id,
              total: l.total,
              free: l.free,
              used: l.used,
              synced_at: at,
            })
            .onConflict((oc) =>
              oc.columns(['user_connection_id', 'symbol', 'account']).doUpdateSet((eb) => ({
                asset_id: eb.ref('excluded.asset_id'),
                total: eb.ref('excluded.total'),
                free: eb.ref('excluded.free'),
                used: eb.ref('excluded.used'),
              })),
            )
            .execute();
        }
      }),
    byUser: (userId) => ordered(db).where('user_id', '=', userId).execute(),
    byConnection: (id) => ordered(db).where('user_connection_id', '=', id).execute(),
  };
}

/** The fills a filter selects. */
function filtered<O>(q: SelectQueryBuilder<Schema, 'fills', O>, f: FillFilter): SelectQueryBuilder<Schema, 'fills', O> {
  let w = q.where('user_id', '=', f.user_id);
  if (f.user_connection_id !== undefined) w = w.where('user_connection_id', '=', f.user_connection_id);
  if (f.venue !== undefined) w = w.where('venue', '=', f.venue);
  if (f.pair !== undefined) w = w.where('pair', '=', f.pair);
  if (f.asset_id !== undefined) w = w.where('asset_id', '=', f.asset_id);
  if (f.side !== undefined) w = w.where('side', '=', f.side);
  if (f.start !== undefined) w = w.where('time', '>=', f.start);
  if (f.end !== undefined) w = w.where('time', '<=', f.end);
  return w;
}

// Rows per multi-row insert: 16 columns each stay far below both engines' parameter limits.
const FILL_CHUNK = 500;

/** Fills: unique on (external_id, connection), stored a page at a time with the read cursor. */
export function sqlFills(s: Sql): FillRepository {
  const { db } = s;
  const newestFirst = (q: Db, f: FillFilter) =>
    filtered(q.selectFrom('fills').selectAll(), f).orderBy('time', 'desc').orderBy('external_id', 'desc');
  return {
    commitPage: (c) =>
      db.transaction().execute(async (trx) => {
        await lockConnection(s, trx, c.user_connection_id);
        let inserted = 0;
        for (let i = 0; i < c.fills.length; i += FILL_CHUNK) {
          const rows: FillRecord[] = c.fills.slice(i, i + FILL_CHUNK).map((f) => ({
            external_id: f.external_id,
            user_connection_id: c.user_connection_id,
            user_id: c.user_id,
            venue: c.venue,
            order_id: f.order_id,
            pair: f.pair,
            asset_id: f.asset_id,
            market_type: f.market_type,
            side: f.side,
            price: f.price,
            amount: f.amount,
            fee: f.fee,
            fee_currency: f.fee_currency,
            realized_pnl: f.realized_pnl,
            time: f.time,
            synced_at: c.at,
          }));
          inserted += changes(
            await trx
              .insertInto('fills')
              .values(rows)
              .onConflict((oc) => oc.doNothing())
              .executeTakeFirst(),
          );
        }
        const cursor = c.next.done
          ? {
              fills_synced_until: c.next.synced_until,
              fills_cursor: null,
              fills_cursor_since: null,
              fills_cursor_until: null,
            }
          : { fills_cursor: c.next.cursor, fills_cursor_since: c.next.since, fills_cursor_until: c.next.until };
        await trx.updateTable('user_connections').set(cursor).where('id', '=', c.user_connection_id).execute();
        return inserted;
      }),
    page: async (filter, page: PageOptions = {}) => {
      const limit = pageBound(page.limit);
      const offset = pageBound(page.offset) ?? 0;
      const { n } = await filtered(
        db.selectFrom('fills').select((eb) => eb.fn.countAll<number>().as('n')),
        filter,
      ).executeTakeFirstOrThrow();
      const fills = await newestFirst(db, filter)
        .$if(limit !== undefined || offset > 0, (q) => q.limit(limit ?? Number.MAX_SAFE_INTEGER))
        .$if(offset > 0, (q) => q.offset(offset))
        .execute();
      return { fills, total: Number(n) };
    },
    all: (filter) => newestFirst(db, filter).execute(),
    countByConnection: async (id) =>
      Number(
        (
          await db
            .selectFrom('fills')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_connection_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
