import { ExchangeIdParams, ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('Exchanges');

const listRoute = route('market.exchanges', {
  method: 'get',
  path: '/v1/exchanges',
  operationId: 'listExchanges',
  summary: 'Exchange catalog',
  description: 'Every venue marketlens can read. Volumes are live for the venue the server reads market data from.',
  ok: ['Exchanges', 'ExchangeListEnvelope'],
});

const detailRoute = route('market.exchange', {
  method: 'get',
  path: '/v1/exchanges/{exchange_id}',
  operationId: 'getExchange',
  summary: 'One exchange with pair counts and tickers',
  description:
    'Unknown exchange: 404 `UnknownExchange`. Pair counts are the markets the venue lists (a ccxt venue: its loaded markets) and tickers those of its tracked markets; a ccxt venue the server does not read market data from is read for this answer (at most once a minute), 503 `ServiceUnavailable` when it cannot be. `futures_open_interest_usd` is null where the venue does not report open interest; unknown is null, never 0.',
  request: { params: ExchangeIdParams },
  ok: ['The exchange', 'ExchangeDetailEnvelope'],
  errors: [404, 503],
});

export function registerExchangeRoutes(serve: Serve, run: RunOperation): void {
  serve(listRoute, async (c) => c.json(ok(await run(c, 'market.exchanges', {})), 200));
  serve(detailRoute, async (c) => c.json(ok(await run(c, 'market.exchange', c.req.valid('param'))), 200));
}
