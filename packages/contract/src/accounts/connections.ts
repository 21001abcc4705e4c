/**
 * Wire schemas of a user's exchange connections (`/v1/connections/user`): the account, its sync
 * state and the positions its last sync stored. Credentials are never part of them.
 */
import { z } from 'zod';

const time = z.iso.datetime();

export const ConnectionPositionSchema = z
  .object({
    id: z.uuid(),
    pair: z.string().meta({ description: "The venue's native instrument name" }),
    asset_id: z.string().nullable(),
    market_type: z.enum(['spot', 'derivatives']),
    side: z.enum(['long', 'short']),
    size: z.number(),
    entry_price: z.number(),
    mark_price: z.number().nullable(),
    margin: z.number().nullable(),
    leverage: z.number().nullable(),
    liquidation_price: z.number().nullable(),
    unrealized_pnl: z.number().nullable(),
    settle: z.string().nullable(),
    stop_loss: z.number().nullable(),
    take_profit: z.number().nullable(),
    protective_levels_synced_at: time.nullable(),
    funding_since_open: z.number().nullable(),
    notes: z.string(),
    opened_at: time.nullable(),
    updated_at: time,
  })
  .meta({ id: 'ConnectionPosition' });
export type ConnectionPosition = z.output<typeof ConnectionPositionSchema>;

export const ConnectionSyncSchema = z
  .object({
    status: z.enum(['pending', 'ok', 'error']),
    last_sync_at: time.nullable(),
    last_success_at: time.nullable(),
    last_error: z.string().nullable().meta({ description: "The venue's message of the last failed sync" }),
    failures: z.number().int().meta({ description: 'Consecutive failed syncs' }),
    next_sync_at: time,
    fills_synced_until: time.nullable(),
    protective_levels_synced_at: time.nullable(),
  })
  .meta({ id: 'ConnectionSync' });

export const UserConnectionSchema = z
  .object({
    id: z.uuid().meta({ description: 'The user_connection_id' }),
    exchange_id: z.string().meta({ description: 'The exchange (connection_id elsewhere)' }),
    label: z.string().nullable(),
    created_at: time,
    sync: ConnectionSyncSchema,
    positions: z.array(ConnectionPositionSchema),
  })
  .meta({ id: 'UserConnection' });
export type UserConnection = z.output<typeof UserConnectionSchema>;

const credential = (description: string) => z.string().max(4096).optional().meta({ description });

/**
 * What connecting an exchange account takes (the operation `accounts.connect`): the exchange and
 * the credential fields it needs, named as ccxt names them. Which exchanges may be connected is
 * the server's to say (see {@link connectExchangeSchema}); the use case refuses any other.
 */
export const ConnectExchangeInput = z.object({
  exchange_id: z.string().min(1).max(64),
  label: z.string().max(64).nullable().optional().meta({ description: 'A name for the account' }),
  apiKey: credential('API key (binance, bybit, okx, kraken, coinbase)'),
  secret: credential('API secret (binance, bybit, okx, kraken, coinbase)'),
  password: credential('API passphrase (okx)'),
  walletAddress: credential('Public wallet address, 0x followed by 40 hex digits (hyperliquid)'),
});

/**
 * `POST /v1/connections/user` body: {@link ConnectExchangeInput} with the venues a caller may
 * connect named. They are the server's (they follow the exchange adapters it is built with), so
 * the schema is made from their list. Call it once: two schemas under the one component id
 * `ConnectExchange` would publish only one of them.
 */
export function connectExchangeSchema(venues: readonly string[]) {
  return ConnectExchangeInput.extend({
    exchange_id: ConnectExchangeInput.shape.exchange_id.meta({
      description: `The exchange to connect: ${venues.join(', ')}`,
      example: 'bybit',
    }),
  }).meta({
    id: 'ConnectExchange',
    description:
      'Credential fields are named as ccxt names them; send the ones the exchange needs (read-only keys suffice). ' +
      'They are verified against the exchange, stored encrypted and never returned.',
  });
}

/** `{connection_id}` of `DELETE /v1/connections/user/{connection_id}`. */
export const ConnectionIdParams = z.object({ connection_id: z.uuid() });
