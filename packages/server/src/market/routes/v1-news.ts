import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { envelopeOf, ok } from '@marketlens/contract';
import { SESSION_ONLY } from '../../auth/authorize.js';
import type { AppEnv } from '../../platform/deps.js';
import { operation } from '../../platform/operation.js';

export const NewsItemSchema = z
  .object({
    id: z.string().openapi({ description: 'Stable id (a hash of the guid, else the link)' }),
    source: z.string().openapi({ description: 'Title of the feed the item came from' }),
    title: z.string(),
    description: z.string().openapi({ description: 'Plain text, at most 500 characters' }),
    url: z.string(),
    date: z.iso.datetime().openapi({ description: 'Published (else updated, else first seen)' }),
    icon: z.string().nullable().optional(),
  })
  .openapi('NewsItem');

const NewsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(5).openapi({ description: '1..100, default 5', example: 5 }),
  _asset_id: z.string().max(128).optional().openapi({ description: 'Reserved; accepted and ignored' }),
});

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

export function registerNewsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(newsRoute, (c) => {
    const news = c.get('deps').news;
    return c.json(ok(news ? news.latest(c.req.valid('query').limit) : []), 200);
  });
}
