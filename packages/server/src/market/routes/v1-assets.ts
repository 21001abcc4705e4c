import { z } from '@hono/zod-openapi';
import {
  AssetRowSchema,
  envelopeOf,
  FavoriteAssetIdParams,
  FavoriteStateSchema,
  LegacyFavoriteRequestSchema,
  ok,
} from '@marketlens/contract';
import { SESSION_ONLY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { json, operation, type Serve } from '../../platform/operation.js';
import { legacyAssetId } from '../assets.js';
import type { MarketUseCases } from '../use-cases.js';

const LEGACY = 'Legacy surface over the same favorites list as `/v2/assets/favorites`.';

const listRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/assets/coins/favorite',
  operationId: 'listFavoriteCoinsLegacy',
  tags: ['Assets'],
  summary: "The caller's favorite coins (legacy)",
  description: `${LEGACY} Lists coins only, as it always did; stocks and fx favorites are read on /v2.`,
  responses: { 200: json(envelopeOf(z.array(AssetRowSchema)), 'Favorite coins, by 24h volume') },
});

const addRoute = operation(
  SESSION_ONLY,
  {
    method: 'post',
    path: '/v1/assets/coins/favorite',
    operationId: 'addFavoriteCoinLegacy',
    tags: ['Assets'],
    summary: 'Favorite an asset (legacy; idempotent)',
    description: `${LEGACY} Body: \`asset_id\` (or its earlier name \`coin_id\`).`,
    request: { body: { content: { 'application/json': { schema: LegacyFavoriteRequestSchema } }, required: true } },
    responses: { 200: json(envelopeOf(FavoriteStateSchema), 'Favorited') },
  },
  [404],
);

const removeRoute = operation(SESSION_ONLY, {
  method: 'delete',
  path: '/v1/assets/coins/favorite/{asset_id}',
  operationId: 'removeFavoriteCoinLegacy',
  tags: ['Assets'],
  summary: 'Remove a favorite (legacy; idempotent)',
  description: LEGACY,
  request: { params: FavoriteAssetIdParams },
  responses: { 200: json(envelopeOf(FavoriteStateSchema), 'Not a favorite (any more)') },
});

export function registerLegacyAssetRoutes(serve: Serve, market: MarketUseCases): void {
  serve(listRoute, async (c) => {
    const query = { asset_class: 'coins', sort: 'volume', sort_dir: 'desc', limit: 500 } as const;
    return c.json(ok(await market.favorites(actorOf(c), query)), 200);
  });
  serve(addRoute, async (c) =>
    c.json(ok(await market.addFavorite(actorOf(c), legacyAssetId(c.req.valid('json')))), 200),
  );
  serve(removeRoute, async (c) =>
    c.json(ok(await market.removeFavorite(actorOf(c), c.req.valid('param').asset_id)), 200),
  );
}
