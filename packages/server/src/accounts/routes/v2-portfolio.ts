import { z } from '@hono/zod-openapi';
import { BalancesQuery, BalancesSchema, envelopeOf, LegacyBalancesSchema, ok } from '@marketlens/contract';
import { json, operation, type RunOperation, type Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';

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

const portfolioRoutes = restTable('Positions', {
  'accounts.summary': [
    { get: '/v2/portfolio/summary', id: 'getPortfolioSummary', ok: ['The summary', 'PortfolioSummaryEnvelope'] },
    'Portfolio totals, balance total and sync standing of the connected accounts',
    'The totals of `GET /v2/positions` (unpriced positions counted, not summed), the USD total of `GET /v2/balances`, and how fresh the accounts are.',
  ],
});

export function registerPortfolioRoutes(serve: Serve, run: RunOperation): void {
  serve(balancesRoute, async (c) => c.json(ok(await run(c, 'accounts.balances', c.req.valid('query'))), 200));
  serveTable(serve, run, portfolioRoutes);
}
