import { NewsQuery, ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('News');

const newsRoute = route('market.news', {
  method: 'get',
  path: '/v1/news/',
  operationId: 'listNews',
  summary: 'News, newest first',
  description:
    'Items of the configured RSS and Atom feeds, fetched in the background and served from memory; the same story in two feeds (same guid or link) is listed once. Before the first fetch, or with no feeds configured, the list is empty.',
  request: { query: NewsQuery },
  ok: ['News items, newest first', 'NewsListEnvelope'],
});

export function registerNewsRoutes(serve: Serve, run: RunOperation): void {
  serve(newsRoute, async (c) => c.json(ok(await run(c, 'market.news', c.req.valid('query'))), 200));
}
