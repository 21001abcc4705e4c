/**
 * SQLite repositories of connected accounts: connections and their sync state, positions,
 * balances and fills. Every write a sync makes is one transaction, so a crash leaves either the
 * state before it or the state after it.
 */
import { randomUUID } from 'node:crypto';
import type { VenueBalance } from '@marketlens/exchanges';
import type Database from 'better-sqlite3';
import type {
  BalanceRecord,
  BalanceRepository,
  ConnectionRecord,
  ConnectionRepository,
  FillFilter,
  FillPageCommit,
  FillRecord,
  FillRepository,
  PositionRecord,
  PositionRepository,
  PositionSync,
} from '../account-types.js';
import type { PageOptions } from '../types.js';

type DB = Database.Database;

/** A page bound as SQLite binds it: a non-negative integer, else `fallback`. */
function pageBound(n: number | undefined, fallback: number): number {
  if (n === undefined) return fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`page bounds must be non-negative integers; got ${n}`);
  return n;
}

/** SQLite repository of connections. */
export function sqliteConnections(db: DB): ConnectionRepository {
  const insert = db.prepare(
    `INSERT INTO user_connections (id, user_id, venue, label, credentials, created_at, last_sync_at, last_success_at,
       last_error, failures, next_sync_at, fills_synced_until, fills_cursor, fills_cursor_since, fills_cursor_until,
       protective_levels_synced_at)
     VALUES (@id, @user_id, @venue, @label, @credentials, @created_at, @last_sync_at, @last_success_at,
       @last_error, @failures, @next_sync_at, @fills_synced_until, @fills_cursor, @fills_cursor_since,
       @fills_cursor_until, @protective_levels_synced_at)`,
  );
  const byId = db.prepare('SELECT * FROM user_connections WHERE id = ?');
  const byUser = db.prepare('SELECT * FROM user_connections WHERE user_id = ? ORDER BY created_at, id');
  const due = db.prepare('SELECT * FROM user_connections WHERE next_sync_at <= ? ORDER BY next_sync_at, id LIMIT ?');
  const success = db.prepare(
    `UPDATE user_connections SET last_sync_at = @at, last_success_at = @at, last_error = NULL, failures = 0,
       next_sync_at = @next_sync_at WHERE id = @id`,
  );
  const failure = db.prepare(
    `UPDATE user_connections SET last_sync_at = @at, last_error = @error, failures = @failures,
       next_sync_at = @next_sync_at WHERE id = @id`,
  );
  const schedule = db.prepare('UPDATE user_connections SET next_sync_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM user_connections WHERE id = ? AND user_id = ?');
  return {
    create: async (c) => {
      insert.run(c);
    },
    byId: async (id) => (byId.get(id) as ConnectionRecord | undefined) ?? null,
    byUser: async (userId) => byUser.all(userId) as ConnectionRecord[],
    due: async (now, limit) => due.all(now, pageBound(limit, -1)) as ConnectionRecord[],
    recordOutcome: async (id, o) => {
      if (o.error === null) success.run({ id, at: o.at, next_sync_at: o.next_sync_at });
      else failure.run({ id, at: o.at, error: o.error, failures: o.failures, next_sync_at: o.next_sync_at });
    },
    scheduleAt: async (id, at) => schedule.run(at, id).changes > 0,
    // Positions, balances and fills go with it (ON DELETE CASCADE, same statement).
    delete: async (userId, id) => remove.run(id, userId).changes > 0,
  };
}

/** SQLite repository of positions. */
export function sqlitePositions(db: DB): PositionRepository {
  const openOf = db.prepare('SELECT * FROM positions WHERE user_connection_id = ? AND closed_at IS NULL');
  const close = db.prepare('UPDATE positions SET closed_at = ? WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO positions (id, user_id, user_connection_id, venue, pair, asset_id, market_type, side, size,
       entry_price, mark_price, margin, leverage, liquidation_price, unrealized_pnl, settle, contract_type,
       maintenance_margin, opened_at, updated_at, stop_loss, take_profit, protective_levels_synced_at,
       funding_since_open, notes, first_seen_at, last_seen_at, closed_at)
     VALUES (@id, @user_id, @user_connection_id, @venue, @pair, @asset_id, @market_type, @side, @size,
       @entry_price, @mark_price, @margin, @leverage, @liquidation_price, @unrealized_pnl, @settle, @contract_type,
       @maintenance_margin, @opened_at, @updated_at, @stop_loss, @take_profit, @protective_levels_synced_at,
       @funding_since_open, @notes, @first_seen_at, @last_seen_at, @closed_at)`,
  );
  const update = db.prepare(
    `UPDATE positions SET asset_id = @asset_id, size = @size, entry_price = @entry_price, mark_price = @mark_price,
       margin = @margin, leverage = @leverage, liquidation_price = @liquidation_price,
       unrealized_pnl = @unrealized_pnl, settle = @settle, contract_type = @contract_type,
       maintenance_margin = @maintenance_margin, opened_at = @opened_at, updated_at = @updated_at,
       stop_loss = @stop_loss, take_profit = @take_profit, protective_levels_synced_at = @protective_levels_synced_at,
       funding_since_open = @funding_since_open, last_seen_at = @last_seen_at
     WHERE id = @id`,
  );
  const connProtective = db.prepare('UPDATE user_connections SET protective_levels_synced_at = ? WHERE id = ?');
  const openByUser = db.prepare(
    'SELECT * FROM positions WHERE user_id = ? AND closed_at IS NULL ORDER BY first_seen_at, user_connection_id, pair, side, market_type',
  );
  const openByConnection = db.prepare(
    'SELECT * FROM positions WHERE user_connection_id = ? AND closed_at IS NULL ORDER BY first_seen_at, user_connection_id, pair, side, market_type',
  );
  const byId = db.prepare('SELECT * FROM positions WHERE user_id = ? AND id = ?');
  const setNotes = db.prepare('UPDATE positions SET notes = ? WHERE user_id = ? AND id = ?');

  const keyOf = (p: { pair: string; side: string; market_type: string }): string =>
    `${p.market_type}\u0000${p.side}\u0000${p.pair}`;

  const apply = db.transaction((s: PositionSync) => {
    const stored = new Map<string, PositionRecord>();
    for (const r of openOf.all(s.user_connection_id) as PositionRecord[]) stored.set(keyOf(r), r);
    const seen = new Set<string>();
    const protective = s.protective_synced_at;
    for (const row of s.rows) {
      const p = row.position;
      const key = keyOf(p);
      // A venue listing the same key twice (two sub-accounts) keeps the first row.
      if (seen.has(key)) continue;
      seen.add(key);
      let prev = stored.get(key);
      // A different opening time is a different position: close the old one, open a new one.
      if (prev !== undefined && prev.opened_at !== null && p.opened_at !== null && prev.opened_at !== p.opened_at) {
        close.run(s.at, prev.id);
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
        last_seen_at: s.at,
      };
      if (prev !== undefined) {
        update.run({ id: prev.id, ...fields });
      } else {
        insert.run({
          id: randomUUID(),
          user_id: s.user_id,
          user_connection_id: s.user_connection_id,
          venue: s.venue,
          pair: p.pair,
          market_type: p.market_type,
          side: p.side,
          notes: '',
          first_seen_at: s.at,
          closed_at: null,
          ...fields,
        });
      }
    }
    for (const [key, r] of stored) if (!seen.has(key)) close.run(s.at, r.id);
    if (protective !== null) connProtective.run(protective, s.user_connection_id);
  });

  return {
    applySync: async (s) => {
      apply(s);
    },
    openByUser: async (userId, assetIds) => {
      const rows = openByUser.all(userId) as PositionRecord[];
      if (assetIds === undefined) return rows;
      const want = new Set(assetIds);
      return rows.filter((r) => r.asset_id !== null && want.has(r.asset_id));
    },
    openByConnection: async (connectionId) => openByConnection.all(connectionId) as PositionRecord[],
    byId: async (userId, id) => (byId.get(userId, id) as PositionRecord | undefined) ?? null,
    setNotes: async (userId, id, notes) => {
      if (setNotes.run(notes, userId, id).changes === 0) return null;
      return (byId.get(userId, id) as PositionRecord | undefined) ?? null;
    },
  };
}

/** SQLite repository of balances. */
export function sqliteBalances(db: DB): BalanceRepository {
  const clear = db.prepare('DELETE FROM balances WHERE user_connection_id = ?');
  const insert = db.prepare(
    `INSERT INTO balances (user_connection_id, symbol, account, user_id, venue, asset_id, total, free, used, synced_at)
     VALUES (@user_connection_id, @symbol, @account, @user_id, @venue, @asset_id, @total, @free, @used, @synced_at)
     ON CONFLICT(user_connection_id, symbol, account) DO UPDATE SET
       asset_id = excluded.asset_id, total = excluded.total, free = excluded.free, used = excluded.used`,
  );
  const byUser = db.prepare('SELECT * FROM balances WHERE user_id = ? ORDER BY user_connection_id, account, symbol');
  const byConnection = db.prepare(
    'SELECT * FROM balances WHERE user_connection_id = ? ORDER BY user_connection_id, account, symbol',
  );
  const replace = db.transaction(
    (c: { user_id: string; user_connection_id: string; venue: string }, lines: readonly VenueBalance[], at: number) => {
      clear.run(c.user_connection_id);
      // A line the venue reports twice under one key (symbols differing in case only) keeps the last.
      for (const l of lines) {
        insert.run({
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
        });
      }
    },
  );
  return {
    replace: async (c, lines, at) => {
      replace(c, lines, at);
    },
    byUser: async (userId) => byUser.all(userId) as BalanceRecord[],
    byConnection: async (id) => byConnection.all(id) as BalanceRecord[],
  };
}

/** The WHERE clause of a fills filter and its parameters. */
function fillWhere(f: FillFilter): { sql: string; params: Record<string, string | number> } {
  const parts = ['user_id = @user_id'];
  const params: Record<string, string | number> = { user_id: f.user_id };
  const add = (column: string, value: string | number | undefined, op = '='): void => {
    if (value === undefined) return;
    const name = `p${parts.length}`;
    parts.push(`${column} ${op} @${name}`);
    params[name] = value;
  };
  add('user_connection_id', f.user_connection_id);
  add('venue', f.venue);
  add('pair', f.pair);
  add('asset_id', f.asset_id);
  add('side', f.side);
  add('time', f.start, '>=');
  add('time', f.end, '<=');
  return { sql: parts.join(' AND '), params };
}

/** SQLite repository of fills. */
export function sqliteFills(db: DB): FillRepository {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO fills (external_id, user_connection_id, user_id, venue, order_id, pair, asset_id,
       market_type, side, price, amount, fee, fee_currency, realized_pnl, time, synced_at)
     VALUES (@external_id, @user_connection_id, @user_id, @venue, @order_id, @pair, @asset_id,
       @market_type, @side, @price, @amount, @fee, @fee_currency, @realized_pnl, @time, @synced_at)`,
  );
  const done = db.prepare(
    `UPDATE user_connections SET fills_synced_until = ?, fills_cursor = NULL, fills_cursor_since = NULL,
       fills_cursor_until = NULL WHERE id = ?`,
  );
  const more = db.prepare(
    'UPDATE user_connections SET fills_cursor = ?, fills_cursor_since = ?, fills_cursor_until = ? WHERE id = ?',
  );
  const count = db.prepare('SELECT COUNT(*) AS n FROM fills WHERE user_connection_id = ?');
  const commit = db.transaction((c: FillPageCommit) => {
    let inserted = 0;
    for (const f of c.fills) {
      inserted += insert.run({
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
      }).changes;
    }
    if (c.next.done) done.run(c.next.synced_until, c.user_connection_id);
    else more.run(c.next.cursor, c.next.since, c.next.until, c.user_connection_id);
    return inserted;
  });
  return {
    commitPage: async (c) => commit(c),
    page: async (filter, page: PageOptions = {}) => {
      const w = fillWhere(filter);
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM fills WHERE ${w.sql}`).get(w.params) as { n: number }).n;
      const fills = db
        .prepare(`SELECT * FROM fills WHERE ${w.sql} ORDER BY time DESC, external_id DESC LIMIT @lim OFFSET @off`)
        .all({ ...w.params, lim: pageBound(page.limit, -1), off: pageBound(page.offset, 0) }) as FillRecord[];
      return { fills, total };
    },
    all: async (filter) => {
      const w = fillWhere(filter);
      return db
        .prepare(`SELECT * FROM fills WHERE ${w.sql} ORDER BY time DESC, external_id DESC`)
        .all(w.params) as FillRecord[];
    },
    countByConnection: async (id) => (count.get(id) as { n: number }).n,
  };
}
