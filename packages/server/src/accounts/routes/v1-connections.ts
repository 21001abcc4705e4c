import { ConnectionIdParams, connectExchangeSchema, envelopeOf, ok, UserConnectionSchema } from '@marketlens/contract';
import { SESSION_ONLY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { json, operation, type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import { CONNECTABLE_VENUES } from '../connections.js';
import type { AccountUseCases } from '../use-cases.js';

const ConnectBody = connectExchangeSchema(CONNECTABLE_VENUES);

const connectRoute = operation(
  SESSION_ONLY,
  {
    method: 'post',
    path: '/v1/connections/user',
    operationId: 'connectExchange',
    tags: ['Connections'],
    summary: 'Connect an exchange account',
    description:
      "Missing credential fields answer 400 'Invalid credentials: ...'; a wallet address is format-checked before " +
      "any call to the exchange. The exchange's refusal answers 422 with its message; an exchange that cannot be " +
      'reached, 503. The first sync starts at once.',
    request: { body: { content: { 'application/json': { schema: ConnectBody } }, required: true } },
    responses: { 200: json(envelopeOf(UserConnectionSchema), 'Connected (credentials are not returned)') },
  },
  [404, 422, 503],
);

const route = routesOf('Connections');

const listRoute = route('accounts.connections', {
  method: 'get',
  path: '/v1/connections/user',
  operationId: 'listConnections',
  summary: "The user's connections with their positions and sync state",
  description:
    'Each read-only exchange connection with its last sync, its error if the sync failed, and the positions it holds. Credentials are never returned.',
  ok: 'Connections, oldest first',
});

const deleteRoute = route('accounts.disconnect', {
  method: 'delete',
  path: '/v1/connections/user/{connection_id}',
  operationId: 'disconnectExchange',
  summary: 'Disconnect an exchange account',
  description:
    "Removes the connection with its stored credentials, positions, balances and fills. Another user's or an unknown id: 404 `ConnectionNotFound`.",
  request: {
    params: ConnectionIdParams,
  },
  ok: ['Disconnected', 'DisconnectEnvelope'],
  errors: [404],
});

export function registerConnectionRoutes(serve: Serve, run: RunOperation, accounts: AccountUseCases): void {
  serve(deleteRoute, async (c) => {
    return c.json(ok(await run(c, 'accounts.disconnect', c.req.valid('param'))), 200);
  });
  serve(connectRoute, async (c) => {
    const view = await accounts.connect(actorOf(c), c.req.valid('json'));
    c.header('cache-control', 'no-store');
    return c.json(ok(view), 200);
  });
  serve(listRoute, async (c) => {
    const views = await run(c, 'accounts.connections', {});
    c.header('cache-control', 'no-store');
    return c.json(ok(views), 200);
  });
}
