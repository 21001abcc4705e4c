// Account storage types (connections, positions, balances, fills, sync state).
/**
 * Records and repositories of connected exchange accounts: a connection (one user's account on one
 * venue, with its encrypted credentials and sync state), the positions, balances and fills the sync
 * job read from it. Times are epoch milliseconds; ids are UUIDs. A value the venue did not report
 * is null, never 0.
 */
import type { ConnectionPositionSource } from '@marketlens/contract';
import type {
  MarketType,
  OrderSide,
  PositionSide,
  VenueBalance,
  VenueFill,
  VenuePosition,
} from '@marketlens/exchanges';
import type { PageOptions } from './records.js';

/**
 * One connected exchange account. `id` is the `user_connection_id` of the API; `venue` is the
 * exchange id (a ccxt venue id or the simulated venue id), the `connection_id` of the API.
 */
export interface ConnectionRecord {
  id: string;
  user_id: string;
  venue: string;
  /** A name the user gave the account, or null. */
  label: string | null;
  /** The encrypted credentials (platform/secrets.ts); never leaves storage and services. */
  credentials: string;
  created_at: number;
  /** When the last sync attempt ended (success or failure); null before the first. */
  last_sync_at: number | null;
  /** When the last sync succeeded; null before the first success. */
  last_success_at: number | null;
  /** The venue's message of the last failed sync; null after a success. */
  last_error: string | null;
  /** Consecutive failed syncs; 0 after a success. */
  failures: number;
  /** The next sync is due at or after this time. */
  next_sync_at: number;
  /** Every fill up to this time has been stored; null before the first complete fills read. */
  fills_synced_until: number | null;
  /**
   * An interrupted fills read, resumed by the next sync: the venue cursor after the last stored page,
   * the `since` it read from and the time it started (which becomes `fills_synced_until` when it ends).
   * All null when no read is under way.
   */
  fills_cursor: string | null;
  fills_cursor_since: number | null;
  fills_cursor_until: number | null;
  /** When a protective-order read last succeeded; null when none ever has. */
  protective_levels_synced_at: number | null;
}

/** What a successful or failed sync writes on its connection. */
export interface SyncOutcome {
  at: number;
  next_sync_at: number;
  /** Null on success; the error message on failure. */
  error: string | null;
  /** Consecutive failures after this outcome. */
  failures: number;
}

/** The sync state that moves on every attempt; synced data is untouched by it. */
export interface ConnectionRepository {
  create(connection: ConnectionRecord): Promise<void>;
  byId(id: string): Promise<ConnectionRecord | null>;
  /** The user's connections, oldest first (ties by id). */
  byUser(userId: string): Promise<ConnectionRecord[]>;
  /** Connections whose next sync is due at `now`, most overdue first; at most `limit`. Disabled accounts' are skipped. */
  due(now: number, limit: number): Promise<ConnectionRecord[]>;
  /** Records the end of a sync attempt (success: failures 0, last_success_at = at). */
  recordOutcome(id: string, outcome: SyncOutcome): Promise<void>;
  /** Moves the next sync (a "sync now" after connecting); false when absent. */
  scheduleAt(id: string, at: number): Promise<boolean>;
  /**
   * Removes the user's connection with its positions, balances and fills (one transaction);
   * false when the user has no such connection.
   */
  delete(userId: string, id: string): Promise<boolean>;
}

/**
 * A stored position: the venue's row under a stable id, plus what marketlens adds to it. The fields
 * a connection's view shows are the contract's {@link ConnectionPositionSource}: the id (assigned
 * when (connection, pair, side, market_type) is first seen open, kept across syncs), the venue's
 * figures (null when not reported), the protective levels (set only by a successful protective-order
 * read; `protective_levels_synced_at` null: never read, so a null stop proves nothing), the funding
 * since open (settlement currency, negative = received), the user's notes ('' when none), and when
 * the venue last updated it.
 */
export interface PositionRecord extends ConnectionPositionSource {
  user_id: string;
  user_connection_id: string;
  venue: string;
  market_type: MarketType;
  side: PositionSide;
  contract_type: 'linear' | 'inverse';
  maintenance_margin: number | null;
  first_seen_at: number;
  /** When a sync last saw the position open. */
  last_seen_at: number;
  /** When a sync first found it gone (or replaced by a new opening); null while open. */
  closed_at: number | null;
}

/** One position as a sync read it, with its protective levels and funding. */
export interface PositionSyncRow {
  position: VenuePosition;
  stop_loss: number | null;
  take_profit: number | null;
  /** Funding since open; `undefined` when the read failed (the stored value is kept). */
  funding_since_open: number | null | undefined;
}

/** The positions half of one sync, applied in one transaction. */
export interface PositionSync {
  user_id: string;
  user_connection_id: string;
  venue: string;
  rows: readonly PositionSyncRow[];
  at: number;
  /**
   * When protective orders were read successfully in this sync: stop_loss / take_profit and
   * protective_levels_synced_at are written then (and on the connection); null keeps the stored ones.
   */
  protective_synced_at: number | null;
}

export interface PositionRepository {
  /**
   * Applies a sync: open rows are matched on (pair, side, market_type) and updated under their id
   * (a row whose opened_at changed is a new position: the old one is closed); new rows get a new id;
   * stored open positions the venue no longer reports are closed at `at`. One transaction.
   */
  applySync(sync: PositionSync): Promise<void>;
  /** The user's open positions, optionally only those on the given assets; oldest first, then by connection and pair. */
  openByUser(userId: string, assetIds?: readonly string[]): Promise<PositionRecord[]>;
  /** Open positions of one connection, oldest first. */
  openByConnection(connectionId: string): Promise<PositionRecord[]>;
  /** A position of the user (open or closed); null when absent or someone else's. */
  byId(userId: string, id: string): Promise<PositionRecord | null>;
  /** Sets the notes of the user's position; the updated record, or null when absent. */
  setNotes(userId: string, id: string, notes: string): Promise<PositionRecord | null>;
}

/** A stored balance line, keyed on (user_connection_id, symbol, account). */
export interface BalanceRecord {
  user_id: string;
  user_connection_id: string;
  venue: string;
  /** The venue's currency code, uppercased. */
  symbol: string;
  asset_id: string | null;
  account: string;
  total: number;
  free: number | null;
  used: number | null;
  /** When the sync that wrote it ran. */
  synced_at: number;
}

export interface BalanceRepository {
  /** Replaces the connection's balances with a sync's lines, in one transaction. */
  replace(
    connection: { user_id: string; user_connection_id: string; venue: string },
    lines: readonly VenueBalance[],
    at: number,
  ): Promise<void>;
  /** The user's balance lines, by connection, account, symbol. */
  byUser(userId: string): Promise<BalanceRecord[]>;
  byConnection(connectionId: string): Promise<BalanceRecord[]>;
}

/**
 * A stored fill; unique on (external_id, user_connection_id): the venue's fill ({@link VenueFill},
 * whose `connection` is stored as `user_connection_id`), its owner and venue, and when a sync
 * stored it.
 */
export interface FillRecord extends Omit<VenueFill, 'connection'> {
  user_id: string;
  user_connection_id: string;
  venue: string;
  /** When a sync stored it. */
  synced_at: number;
}

/** Which fills of a user a query reads; every field but user_id is optional, all must match. */
export interface FillFilter {
  user_id: string;
  user_connection_id?: string;
  /** The exchange id (`connection_id` in the API): spans all the user's accounts there. */
  venue?: string;
  pair?: string;
  asset_id?: string;
  side?: OrderSide;
  /** Inclusive bounds on execution time. */
  start?: number;
  end?: number;
}

/** One page of fills the sync read, stored with the cursor that follows it. */
export interface FillPageCommit {
  user_id: string;
  user_connection_id: string;
  venue: string;
  fills: readonly VenueFill[];
  at: number;
  /**
   * The fills read state after this page: when `done`, `synced_until` becomes fills_synced_until
   * and the cursor is cleared; otherwise `cursor` / `since` / `until` are the read to resume.
   */
  next: { done: true; synced_until: number } | { done: false; cursor: string; since: number; until: number };
}

export interface FillRepository {
  /**
   * Stores a page (INSERT OR IGNORE on (external_id, user_connection_id)) and advances the
   * connection's fills cursor, in one transaction. Returns how many fills were new.
   */
  commitPage(commit: FillPageCommit): Promise<number>;
  /** A page of the fills matching the filter, newest first (ties by external_id), and the total. */
  page(filter: FillFilter, page?: PageOptions): Promise<{ fills: FillRecord[]; total: number }>;
  /** Every fill matching the filter, newest first (for grouping into orders). */
  all(filter: FillFilter): Promise<FillRecord[]>;
  /** How many fills a connection holds. */
  countByConnection(connectionId: string): Promise<number>;
}
