import {
  AssetListQuery,
  FavoriteAssetIdParams,
  FavoriteRequestSchema,
  ok,
  PopularAssetsQuery,
} from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('Assets');

const listRoute = route('market.assets', {
  method: 'get',
  path: '/v2/assets/',
  operationId: 'listAssets',
  summary: 'Assets of a class with price and 1h/24h/7d change columns',
  description:
    'Sorted by `sort` (`volume` by default, 24h USD volume) in `sort_dir`; rows missing the value come last, ties by id. Stocks and fx without a spot listing are priced from their derivatives.',
  request: { query: AssetListQuery },
  ok: ['Asset rows', 'AssetListEnvelope'],
});

const popularRoute = route('market.popular', {
  method: 'get',
  path: '/v2/assets/popular',
  operationId: 'listPopularAssets',
  summary: 'Most popular assets by community favorites',
  description: 'Assets ranked by how many accounts hold them among their favorites; `limit` caps the list.',
  request: { query: PopularAssetsQuery },
  ok: 'Most favorited first (ties by id)',
});

const listFavoritesRoute = route('market.favorites', {
  method: 'get',
  path: '/v2/assets/favorites',
  operationId: 'listFavoriteAssets',
  summary: "The caller's favorites across coins, stocks and fx",
  description: 'Same filters and sort as `GET /v2/assets/`, except that `asset_class` defaults to `all`.',
  request: { query: AssetListQuery.extend({ asset_class: AssetListQuery.shape.asset_class.unwrap().default('all') }) },
  ok: 'Favorite asset rows',
});

const addFavoriteRoute = route('market.addFavorite', {
  method: 'post',
  path: '/v2/assets/favorites',
  operationId: 'addFavoriteAsset',
  summary: 'Favorite an asset (idempotent)',
  description: 'Favoriting an asset already favorited succeeds and changes nothing. Unknown asset: 400 `UnknownAsset`.',
  request: { body: { content: { 'application/json': { schema: FavoriteRequestSchema } }, required: true } },
  ok: ['Favorited', 'FavoriteStateEnvelope'],
  errors: [404],
});

const removeFavoriteRoute = route('market.removeFavorite', {
  method: 'delete',
  path: '/v2/assets/favorites/{asset_id}',
  operationId: 'removeFavoriteAsset',
  summary: 'Remove a favorite (idempotent)',
  description: 'Removing a favorite that is absent succeeds.',
  request: { params: FavoriteAssetIdParams },
  ok: 'Not a favorite (any more)',
});

export function registerAssetRoutes(serve: Serve, run: RunOperation): void {
  serve(listRoute, async (c) => c.json(ok(await run(c, 'market.assets', c.req.valid('query'))), 200));
  serve(popularRoute, async (c) => c.json(ok(await run(c, 'market.popular', c.req.valid('query'))), 200));
  serve(listFavoritesRoute, async (c) => c.json(ok(await run(c, 'market.favorites', c.req.valid('query'))), 200));
  serve(addFavoriteRoute, async (c) => c.json(ok(await run(c, 'market.addFavorite', c.req.valid('json'))), 200));
  serve(removeFavoriteRoute, async (c) => c.json(ok(await run(c, 'market.removeFavorite', c.req.valid('param'))), 200));
}
