/**
 * One sync of one connection: positions with their protective levels and funding since open,
 * balances, then fills. Every write is one transaction, so a crash (even SIGKILL) leaves each part
 * in its old or its new state: positions and balances are replaced whole, and each page of fills
 * is stored together with the venue cursor that follows it, so the next sync resumes after the
 * last stored page. Fills are unique on (external_id, connection): re-reading never duplicates.
 *
 * A failure (timeouts, 5xx, 429, rejected credentials) ends the sync without touching what is
 * stored, and moves the connection's next sync out by an exponential backoff.
 */
import {
  type AccountData,
  type FundingSinceOpen,
  type ProtectiveOrder,
  VenueError,
  type VenuePosition,
} from '@marketlens/exchanges';
import type { ConnectionRecord, PositionSyncRow } from '../../storage/account-types.js';
import type { Storage } from '../../storage/types.js';
import type { SyncConfig } from '../config.js';
import { redact, withTimeout } from '../connections.js';
import { backoffDelay } from './backoff.js';

/** The first fills read of a connection goes this far back. */
export const FILLS_LOOKBACK_MS = 30 * 86_400_000;
/** Incremental reads start this much before the last read's end: venues report some fills late. */
export const FILLS_OVERLAP_MS = 60 * 60_000;
/** Fills pages one sync reads at most; a longer history continues in the next sync (the cursor is kept). */
export const DEFAULT_MAX_FILL_PAGES = 200;

/** What the sync job needs. */
export interface SyncContext {
  storage: Storage;
  now: () => number;
  config: SyncConfig;
  /** Opens a connection's account; `secrets` are redacted from every stored message. */
  open: (connection: ConnectionRecord) => Promise<{ account: AccountData; secrets: readonly string[] }>;
  /** Jitter source of the backoff; default Math.random. */
  random?: () => number;
  maxFillPages?: number;
  /** Page size asked of the venue (adapters clamp it). */
  fillPageSize?: number;
  /** True once the server is stopping: a fills read ends after the page it is on (its cursor is kept). */
  shouldStop?: () => boolean;
  /** Unexpected (non-venue) failures are reported here; the message is already redacted. */
  log?: (message: string) => void;
  /** Told of every finished sync of a connection (the owner's live streams get a `sync` event). */
  onSynced?: (connection: ConnectionRecord, result: SyncResult) => void;
}

/** What one sync did. */
export interface SyncResult {
  connection_id: string;
  ok: boolean;
  /** The stored error message on failure. */
  error: string | null;
  positions: number;
  balances: number;
  /** Fills newly stored (re-read ones are not counted). */
  new_fills: number;
  fill_pages: number;
  /** True when the fills read stopped at the page cap and continues next sync. */
  more_fills: boolean;
  next_sync_at: number;
}

/** The protective legs of one position: the nearest resting stop and take-profit on its closing side. */
export function protectiveLevels(
  position: VenuePosition,
  orders: readonly ProtectiveOrder[],
): { stop_loss: number | null; take_profit: number | null } {
  const closing = position.side === 'long' ? 'sell' : 'buy';
  const reference = position.mark_price ?? position.entry_price;
  const nearest = (kind: ProtectiveOrder['kind']): number | null => {
    let best: number | null = null;
    for (const o of orders) {
      if (o.pair !== position.pair || o.side !== closing || o.kind !== kind) continue;
      if (!(o.trigger_price > 0)) continue;
      // Several stops: the one nearest the price fires first, so it is the position's stop.
      if (best === null || Math.abs(o.trigger_price - reference) < Math.abs(best - reference)) best = o.trigger_price;
    }
    return best;
  };
  return { stop_loss: nearest('stop_loss'), take_profit: nearest('take_profit') };
}

/** A venue failure that should fail the whole sync (and back off) rather than skip one optional read. */
function failsSync(err: unknown): boolean {
  return !(err instanceof VenueError) || err.retryable || err.code === 'authentication_failed';
}

/** The message stored for a failure. */
function describe(err: unknown, secrets: readonly string[]): string {
  if (err instanceof VenueError) return redact(err.message, secrets);
  if (err instanceof Error && err.name === 'CredentialsDecryptError') return err.message;
  return 'Internal error while syncing';
}

/** Runs one sync of `connection` and records its outcome on the connection. Never throws for venue failures. */
export async function syncConnection(ctx: SyncContext, connection: ConnectionRecord): Promise<SyncResult> {
  const started = ctx.now();
  const timeout = ctx.config.callTimeoutMs;
  let secrets: readonly string[] = [];
  const result: SyncResult = {
    connection_id: connection.id,
    ok: false,
    error: null,
    positions: 0,
    balances: 0,
    new_fills: 0,
    fill_pages: 0,
    more_fills: false,
    next_sync_at: started,
  };
  try {
    const opened = await ctx.open(connection);
    secrets = opened.secrets;
    const account = opened.account;
    const call = <T>(work: () => Promise<T>): Promise<T> => withTimeout(work(), timeout, connection.venue);
    const owner = { user_id: connection.user_id, user_connection_id: connection.id, venue: connection.venue };

    // Positions, their protective levels and funding: read everything first, then one transaction.
    const positions = await call(() => account.positions());
    let orders: ProtectiveOrder[] | null = null;
    try {
      orders = await call(() => account.protectiveOrders());
    } catch (err) {
      if (failsSync(err)) throw err;
      // The venue cannot list protective orders: the stored levels stay, marked by their old sync time.
    }
    const protectiveAt = orders === null ? null : ctx.now();
    const rows: PositionSyncRow[] = [];
    for (const p of positions) {
      let funding: number | null | undefined;
      if (p.market_type !== 'derivatives') funding = null;
      else if (p.opened_at !== null) {
        const openedAt = p.opened_at;
        try {
          const f: FundingSinceOpen = await call(() => account.fundingSinceOpen(p.pair, openedAt));
          funding = f.amount;
        } catch (err) {
          if (failsSync(err)) throw err;
          funding = undefined;
        }
      }
      const levels = orders === null ? { stop_loss: null, take_profit: null } : protectiveLevels(p, orders);
      rows.push({ position: p, ...levels, funding_since_open: funding });
    }
    await ctx.storage.positions.applySync({ ...owner, rows, at: ctx.now(), protective_synced_at: protectiveAt });
    result.positions = positions.length;

    const balances = await call(() => account.balances());
    await ctx.storage.balances.replace(owner, balances, ctx.now());
    result.balances = balances.length;

    await readFills(ctx, connection, account, call, result);

    result.ok = true;
    // A fills history longer than one sync's pages continues at the next tick.
    result.next_sync_at = result.more_fills ? ctx.now() : ctx.now() + ctx.config.intervalMs;
    await ctx.storage.connections.recordOutcome(connection.id, {
      at: ctx.now(),
      next_sync_at: result.next_sync_at,
      error: null,
      failures: 0,
    });
    return result;
  } catch (err) {
    const message = describe(err, secrets);
    if (!(err instanceof VenueError) && ctx.log !== undefined) {
      const detail = err instanceof Error ? redact(err.message, secrets) : 'non-error thrown';
      ctx.log(`sync of connection ${connection.id} failed unexpectedly: ${detail}`);
    }
    const failures = connection.failures + 1;
    const retryAfter = err instanceof VenueError ? err.retryAfterMs : undefined;
    const delay = backoffDelay(
      failures,
      { baseMs: ctx.config.backoffBaseMs, maxMs: ctx.config.backoffMaxMs },
      ctx.random,
      retryAfter,
    );
    const at = ctx.now();
    result.error = message;
    result.next_sync_at = at + delay;
    await ctx.storage.connections.recordOutcome(connection.id, {
      at,
      next_sync_at: result.next_sync_at,
      error: message,
      failures,
    });
    return result;
  }
}

/**
 * Reads fills page by page, storing each page with the cursor after it. Resumes an interrupted
 * read from its stored cursor; else reads from a month back (first read) or from the end of the
 * last complete read minus an overlap.
 */
async function readFills(
  ctx: SyncContext,
  connection: ConnectionRecord,
  account: AccountData,
  call: <T>(work: () => Promise<T>) => Promise<T>,
  result: SyncResult,
): Promise<void> {
  const now = ctx.now();
  let cursor: string | undefined;
  let since: number;
  let until: number;
  if (
    connection.fills_cursor !== null &&
    connection.fills_cursor_since !== null &&
    connection.fills_cursor_until !== null
  ) {
    cursor = connection.fills_cursor;
    since = connection.fills_cursor_since;
    until = connection.fills_cursor_until;
  } else {
    since =
      connection.fills_synced_until === null
        ? now - FILLS_LOOKBACK_MS
        : connection.fills_synced_until - FILLS_OVERLAP_MS;
    until = now;
  }
  const maxPages = ctx.maxFillPages ?? DEFAULT_MAX_FILL_PAGES;
  let restarted = false;
  while (result.fill_pages < maxPages && ctx.shouldStop?.() !== true) {
    let page: Awaited<ReturnType<AccountData['fills']>>;
    try {
      const request = { since, cursor, limit: ctx.fillPageSize };
      page = await call(() => account.fills(request));
    } catch (err) {
      // A stored cursor the venue no longer understands (an adapter upgrade): read the window again.
      if (cursor !== undefined && !restarted && err instanceof VenueError && err.code === 'bad_request') {
        restarted = true;
        cursor = undefined;
        until = ctx.now();
        continue;
      }
      throw err;
    }
    result.fill_pages++;
    const next = page.next_cursor;
    result.new_fills += await ctx.storage.fills.commitPage({
      user_id: connection.user_id,
      user_connection_id: connection.id,
      venue: connection.venue,
      fills: page.fills,
      at: ctx.now(),
      next: next === null ? { done: true, synced_until: until } : { done: false, cursor: next, since, until },
    });
    if (next === null) return;
    cursor = next;
  }
  result.more_fills = true;
}
