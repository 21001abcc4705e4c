import { randomUUID } from 'node:crypto';
import type { VenueBalance, VenueFill, VenuePosition } from '@marketlens/exchanges';
import type { PositionSyncRow } from '../../src/storage/account-types.js';
import type { Storage } from '../../src/storage/types.js';

/**
 * Writes account data straight into storage, as a sync would, for route tests that need known rows
 * without a venue: one connection of `userId` on `venue`, and what `seed` puts in it.
 */
export interface AccountSeed {
  positions?: (Partial<VenuePosition> & Pick<VenuePosition, 'pair'>)[];
  /** Protective levels and funding per position, by index. */
  extras?: Partial<Omit<PositionSyncRow, 'position'>>[];
  balances?: (Partial<VenueBalance> & Pick<VenueBalance, 'symbol' | 'total'>)[];
  fills?: (Partial<VenueFill> & Pick<VenueFill, 'external_id' | 'time'>)[];
  /** When the sync ran. */
  at: number;
  /** Stamp the protective-order read as done at `at`. */
  protectiveSynced?: boolean;
}

/** Creates a connection and applies one sync's worth of rows; returns the connection id. */
export async function seedAccount(storage: Storage, userId: string, venue: string, seed: AccountSeed): Promise<string> {
  const id = randomUUID();
  await storage.connections.create({
    id,
    user_id: userId,
    venue,
    label: null,
    credentials: 'seeded',
    created_at: seed.at,
    last_sync_at: seed.at,
    last_success_at: seed.at,
    last_error: null,
    failures: 0,
    next_sync_at: seed.at + 60_000,
    fills_synced_until: null,
    fills_cursor: null,
    fills_cursor_since: null,
    fills_cursor_until: null,
    protective_levels_synced_at: null,
  });
  const rows: PositionSyncRow[] = (seed.positions ?? []).map((p, i) => ({
    position: {
      connection: id,
      asset_id: null,
      market_type: 'derivatives',
      side: 'long',
      size: 1,
      entry_price: 100,
      mark_price: null,
      margin: null,
      leverage: null,
      liquidation_price: null,
      unrealized_pnl: null,
      settle: 'USDT',
      opened_at: null,
      updated_at: seed.at,
      ...p,
    },
    stop_loss: seed.extras?.[i]?.stop_loss ?? null,
    take_profit: seed.extras?.[i]?.take_profit ?? null,
    funding_since_open: seed.extras?.[i]?.funding_since_open ?? null,
  }));
  const owner = { user_id: userId, user_connection_id: id, venue };
  await storage.positions.applySync({
    ...owner,
    rows,
    at: seed.at,
    protective_synced_at: seed.protectiveSynced ? seed.at : null,
  });
  await storage.balances.replace(
    owner,
    (seed.balances ?? []).map((b) => ({
      connection: id,
      asset_id: null,
      account: 'spot',
      free: null,
      used: null,
      ...b,
    })),
    seed.at,
  );
  await storage.fills.commitPage({
    ...owner,
    fills: (seed.fills ?? []).map((f) => ({
      connection: id,
      order_id: null,
      pair: 'BTCUSDT',
      asset_id: 'bitcoin',
      market_type: 'derivatives',
      side: 'buy',
      price: 100,
      amount: 1,
      fee: null,
      fee_currency: null,
      realized_pnl: null,
      ...f,
    })),
    at: seed.at,
    next: { done: true, synced_until: seed.at },
  });
  return id;
}
