/** Test fixtures of the promotions feature: users, connections with fills, promotions. Test code only. */
import { randomUUID } from 'node:crypto';
import type { VenueFill } from '@marketlens/exchanges';
import { createPromotion } from '../../src/promotions/promotions.js';
import type { Storage } from '../../src/storage/types.js';

export const DAY = 86_400_000;

/** A user row (no password: these users never log in). */
export async function seedUser(storage: Storage, email: string, now: number): Promise<string> {
  const id = randomUUID();
  await storage.users.create({ id, email, password_hash: 'x', tier: 'free', created_at: now }, []);
  return id;
}

/** A connection of the user on `venue`; its id. */
export async function seedConnection(storage: Storage, userId: string, venue: string, now: number): Promise<string> {
  const id = randomUUID();
  await storage.connections.create({
    id,
    user_id: userId,
    venue,
    label: null,
    credentials: 'sealed',
    created_at: now,
    last_sync_at: null,
    last_success_at: null,
    last_error: null,
    failures: 0,
    next_sync_at: now,
    fills_synced_until: null,
    fills_cursor: null,
    fills_cursor_since: null,
    fills_cursor_until: null,
    protective_levels_synced_at: null,
  });
  return id;
}

/** A fill as a sync stores it: `[pair, price, amount, time]`. */
export type FillSpec = readonly [pair: string, price: number, amount: number, time: number];

let external = 0;

/** Stores fills on a connection, as one committed page of a sync. */
export async function seedFills(
  storage: Storage,
  userId: string,
  connectionId: string,
  venue: string,
  fills: readonly FillSpec[],
  now: number,
): Promise<void> {
  const rows: VenueFill[] = fills.map(([pair, price, amount, time]) => ({
    connection: connectionId,
    external_id: `t${++external}`,
    order_id: null,
    pair,
    asset_id: null,
    market_type: pair.includes(':') || pair.endsWith('-SWAP') ? 'derivatives' : 'spot',
    side: 'buy',
    price,
    amount,
    fee: null,
    fee_currency: null,
    realized_pnl: null,
    time,
  }));
  await storage.fills.commitPage({
    user_id: userId,
    user_connection_id: connectionId,
    venue,
    fills: rows,
    at: now,
    next: { done: true, synced_until: now },
  });
}

/** The Bybit promotion with defaults from the catalog (UID: 5..20 digits). */
export function seedBybitPromotion(storage: Storage, now: number) {
  return createPromotion(
    storage,
    {
      connection_id: 'bybit',
      title: 'Trade on Bybit, get Pro',
      description: 'Open a Bybit account through marketlens and receive 30 days of Pro.',
      promotional_value: '30 days of Pro',
    },
    now,
  );
}
