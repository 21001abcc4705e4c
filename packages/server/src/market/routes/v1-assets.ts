import { FavoriteAssetIdParams, LegacyFavoriteRequestSchema, ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import { legacyAssetId } from '../assets.js';

const LEGACY = 'Legacy surface over the same favorites list as `/v2/assets/favorites`.';

const route = routesOf('Assets');

const listRoute = route('market.favorites', {
  method: 'get',
  path: '/v1/assets/coins/favorite',
  operationId: 'listFavoriteCoinsLegacy',
  summary: "The caller's favorite coins (legacy)",
  description: `${LEGACY} Lists coins only, as it always did; stocks and fx favorites are read on /v2.`,
  ok: 'Favorite coins, by 24h volume',
});

const addRoute = route('market.addFavorite', {
  method: 'post',
  path: '/v1/assets/coins/favorite',
  operationId: 'addFavoriteCoinLegacy',
  summary: 'Favorite an asset (legacy; idempotent)',
  description: `${LEGACY} Body: \`asset_id\` (or its earlier name \`coin_id\`).`,
  request: { body: { content: { 'application/json': { schema: LegacyFavoriteRequestSchema } }, required: true } },
  ok: 'Favorited',
  errors: [404],
});

const removeRoute = route('market.removeFavorite', {
  method: 'delete',
  path: '/v1/assets/coins/favorite/{asset_id}',
  operationId: 'removeFavoriteCoinLegacy',
  summary: 'Remove a favorite (legacy; idempotent)',
  description: LEGACY,
  request: { params: FavoriteAssetIdParams },
  ok: 'Not a favorite (any more)',
});

/** The legacy routes serve the favorites operations of `/v2/assets/favorites`, coins only. */
export function registerLegacyAssetRoutes(serve: Serve, run: RunOperation): void {
  serve(listRoute, async (c) => {
    const query = { asset_class: 'coins', sort: 'volume', sort_dir: 'desc', limit: 500 } as const;
    return c.json(ok(await run(c, 'market.favorites', query)), 200);
  });
  serve(addRoute, async (c) =>
    c.json(ok(await run(c, 'market.addFavorite', { asset_id: legacyAssetId(c.req.valid('json')) })), 200),
  );
  serve(removeRoute, async (c) => c.json(ok(await run(c, 'market.removeFavorite', c.req.valid('param'))), 200));
}
