import { z } from '@hono/zod-openapi';
import { ExchangeDetailSchema, ExchangeIdParams, ExchangeSchema, envelopeOf, ok } from '@marketlens/contract';
import { json, operation, type RunOperation, type Serve } from '../../platform/operation.js';

const listRoute = operation('market.exchanges', {
  method: 'get',
  path: '/v1/exchanges',
  operationId: 'listExchanges',
  tags: ['Exchanges'],
  summary: 'Exchange catalog',
  description: 'Every venue marketlens can read. Volumes are live for the venue the server reads market data from.',
  responses: { 200: json(envelopeOf(z.array(ExchangeSchema), 'ExchangeListEnvelope'), 'Exchanges') },
});

const detailRoute = operation(
  'market.exchange',
  {
    method: 'get',
    path: '/v1/exchanges/{exchange_id}',
    operationId: 'getExchange',
    tags: ['Exchanges'],
    summary: 'One exchange with pair counts and tickers',
    description:
      'Unknown exchange: 404 `UnknownExchange`. Pair counts are the markets the venue lists (a ccxt venue: its loaded markets) and tickers those of its tracked markets; a ccxt venue the server does not read market data from is read for this answer (at most once a minute), 503 `ServiceUnavailable` when it cannot be. `futures_open_interest_usd` is null where the venue does not report open interest; unknown is null, never 0.',
    request: { params: ExchangeIdParams },
    responses: { 200: json(envelopeOf(ExchangeDetailSchema, 'ExchangeDetailEnvelope'), 'The exchange') },
  },
  [404, 503],
);

export function registerExchangeRoutes(serve: Serve, run: RunOperation): void {
  serve(listRoute, async (c) => c.json(ok(await run(c, 'market.exchanges', {})), 200));
  serve(detailRoute, async (c) => c.json(ok(await run(c, 'market.exchange', c.req.valid('param'))), 200));
}
