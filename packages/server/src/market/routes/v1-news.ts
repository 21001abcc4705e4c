import { z } from '@hono/zod-openapi';
import { envelopeOf, NewsItemSchema, NewsQuery, ok } from '@marketlens/contract';
import { SESSION_ONLY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { operation, type Serve } from '../../platform/operation.js';
import type { MarketUseCases } from '../use-cases.js';

const newsRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/news/',
  operationId: 'listNews',
  tags: ['News'],
  summary: 'News, newest first',
  description:
    'Items of the configured RSS and Atom feeds, fetched in the background and served from memory; the same story in two feeds (same guid or link) is listed once. Before the first fetch, or with no feeds configured, the list is empty.',
  request: { query: NewsQuery },
  responses: {
    200: {
      description: 'News items, newest first',
      content: { 'application/json': { schema: envelopeOf(z.array(NewsItemSchema), 'NewsListEnvelope') } },
    },
  },
});

export function registerNewsRoutes(serve: Serve, market: MarketUseCases): void {
  serve(newsRoute, (c) => c.json(ok(market.news(actorOf(c), c.req.valid('query').limit)), 200));
}
