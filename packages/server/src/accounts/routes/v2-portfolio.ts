import { z } from '@hono/zod-openapi';
import { BalancesQuery, BalancesSchema, envelopeOf, LegacyBalancesSchema, ok } from '@marketlens/contract';
import { json, operation, type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const balancesRoute = operation('accounts.balances', {
  method: 'get',
  path: '/v2/balances',
  operationId: 'listBalances',
  tags: ['Positions'],
  summary: "Balances of the user's connected accounts, with their USD total",
  description:
    "One balance per (account, currency, venue account), symbols uppercased. USD figures use the service's market data (USD and USD stablecoins at 1); an unpriced balance has null USD figures (never 0) and is left out of `total_usd`. Filters: `user_connection_id`, `connection_id` (exchange id), `asset_ids` (`coin_ids` alias). Mobile builds below 3.9.26 get the earlier split shape (`LegacyBalances`: tracked currencies only, unpriced ones apart).",
  request: { query: BalancesQuery },
  responses: {
    200: json(envelopeOf(z.union([BalancesSchema, LegacyBalancesSchema]), 'BalancesEnvelope'), 'Balances'),
  },
});

const route = routesOf('Positions');

const summaryRoute = route('accounts.summary', {
  method: 'get',
  path: '/v2/portfolio/summary',
  operationId: 'getPortfolioSummary',
  summary: 'Portfolio totals, balance total and sync standing of the connected accounts',
  description:
    'The totals of `GET /v2/positions` (unpriced positions counted, not summed), the USD total of `GET /v2/balances`, and how fresh the accounts are.',
  ok: ['The summary', 'PortfolioSummaryEnvelope'],
});

export function registerPortfolioRoutes(serve: Serve, run: RunOperation): void {
  serve(balancesRoute, async (c) => c.json(ok(await run(c, 'accounts.balances', c.req.valid('query'))), 200));
  serve(summaryRoute, async (c) => c.json(ok(await run(c, 'accounts.summary', {})), 200));
}
