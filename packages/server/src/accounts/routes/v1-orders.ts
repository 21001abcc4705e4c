import { fillFilterOf, OrdersQuery, ok, TradesQuery } from '@marketlens/contract';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';

const FILTERS =
  "Filters (all optional, all must match): `user_connection_id` (one connected account), `connection_id` (an exchange id: every account of the user's there), `pair` (venue-native), `asset_id` (`coin_id` is its deprecated alias; both given must agree), `side`, `start` / `end` (RFC 3339, inclusive bounds on fill execution time). `limit` defaults to 50 and is clamped to 0..200; `offset` skips rows. Mobile builds below 3.9.26 see fills of tracked assets only.";

const orderRoutes = restTable('Orders', {
  'accounts.orders': [
    { get: '/v1/orders', id: 'listOrders', query: OrdersQuery, ok: ['Orders, newest first', 'OrdersEnvelope'] },
    'Orders aggregated from their fills, newest first, with the total',
    `An order aggregates its fills: side, size-weighted average price, summed size, fee and pnl, and the fills, each with the account \`asset\` (null when the pair maps to no tracked asset). \`start\` / \`end\` select the orders with a fill inside the window; each is built from all its fills, also those outside it. \`limit\` / \`offset\` page orders; \`total\` counts every matching order. ${FILTERS}`,
  ],
  'accounts.trades': [
    { get: '/v1/trades', id: 'listTrades', query: TradesQuery, ok: ['Fills, newest first', 'TradesEnvelope'] },
    'Individual fills, newest first, with the total',
    `\`limit\` / \`offset\` page fills; \`total\` counts every matching fill. ${FILTERS}`,
  ],
});

/** Both lists read the query's filters as the operations' fill filter. */
export function registerOrderRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, orderRoutes, {
    'accounts.orders': async (c) =>
      c.json(ok(await run(c, 'accounts.orders', fillFilterOf(c.req.valid('query')))), 200),
    'accounts.trades': async (c) =>
      c.json(ok(await run(c, 'accounts.trades', fillFilterOf(c.req.valid('query')))), 200),
  });
}
