import { ConnectionIdParams, connectExchangeSchema } from '@marketlens/contract';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';
import { CONNECTABLE_VENUES } from '../connections.js';

/** The user's read-only exchange connections. */
export const connectionRoutes = restTable('Connections', {
  'accounts.disconnect': [
    {
      delete: '/v1/connections/user/{connection_id}',
      id: 'disconnectExchange',
      params: ConnectionIdParams,
      ok: ['Disconnected', 'DisconnectEnvelope'],
      errors: [404],
    },
    'Disconnect an exchange account',
    "Removes the connection with its stored credentials, positions, balances and fills. Another user's or an unknown id: 404 `ConnectionNotFound`.",
  ],
  'accounts.connect': [
    {
      post: '/v1/connections/user',
      id: 'connectExchange',
      // The venues a caller may connect are the server's: the body names them.
      json: connectExchangeSchema(CONNECTABLE_VENUES),
      ok: 'Connected (credentials are not returned)',
      errors: [404, 422, 503],
      cacheControl: 'no-store',
    },
    'Connect an exchange account',
    "Missing credential fields answer 400 'Invalid credentials: ...'; a wallet address is format-checked before " +
      "any call to the exchange. The exchange's refusal answers 422 with its message; an exchange that cannot be " +
      'reached, 503. The first sync starts at once.',
  ],
  'accounts.connections': [
    {
      get: '/v1/connections/user',
      id: 'listConnections',
      ok: 'Connections, oldest first',
      cacheControl: 'no-store',
    },
    "The user's connections with their positions and sync state",
    'Each read-only exchange connection with its last sync, its error if the sync failed, and the positions it holds. Credentials are never returned.',
  ],
});

export function registerConnectionRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, connectionRoutes);
}
