import { z } from '@hono/zod-openapi';
import { BalancesQuery, BalancesSchema, LegacyBalancesSchema } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

/** Balances (and their legacy shape for old mobile builds) and the portfolio summary. */
export const portfolioRoutes = restTable('Positions', {
  'accounts.balances': [
    {
      get: '/v2/balances',
      id: 'listBalances',
      query: BalancesQuery,
      ok: ['Balances', 'BalancesEnvelope'],
      data: z.union([BalancesSchema, LegacyBalancesSchema]),
    },
    "Balances of the user's connected accounts, with their USD total",
    "One balance per (account, currency, venue account), symbols uppercased. USD figures use the service's market data (USD and USD stablecoins at 1); an unpriced balance has null USD figures (never 0) and is left out of `total_usd`. Filters: `user_connection_id`, `connection_id` (exchange id), `asset_ids` (`coin_ids` alias). Mobile builds below 3.9.26 get the earlier split shape (`LegacyBalances`: tracked currencies only, unpriced ones apart).",
  ],
  'accounts.summary': [
    { get: '/v2/portfolio/summary', id: 'getPortfolioSummary', ok: ['The summary', 'PortfolioSummaryEnvelope'] },
    'Portfolio totals, balance total and sync standing of the connected accounts',
    'The totals of `GET /v2/positions` (unpriced positions counted, not summed), the USD total of `GET /v2/balances`, and how fresh the accounts are.',
  ],
});
