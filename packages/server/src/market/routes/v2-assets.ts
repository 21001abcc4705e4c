import { AssetListQuery, FavoriteAssetIdParams, FavoriteRequestSchema, PopularAssetsQuery } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

const FavoritesQuery = AssetListQuery.extend({ asset_class: AssetListQuery.shape.asset_class.unwrap().default('all') });

export const assetRoutes = restTable('Assets', {
  'market.assets': [
    { get: '/v2/assets/', id: 'listAssets', query: AssetListQuery, ok: ['Asset rows', 'AssetListEnvelope'] },
    'Assets of a class with price and 1h/24h/7d change columns',
    'Sorted by `sort` (`volume` by default, 24h USD volume) in `sort_dir`; rows missing the value come last, ties by id. Stocks and fx without a spot listing are priced from their derivatives.',
  ],
  'market.popular': [
    {
      get: '/v2/assets/popular',
      id: 'listPopularAssets',
      query: PopularAssetsQuery,
      ok: 'Most favorited first (ties by id)',
    },
    'Most popular assets by community favorites',
    'Assets ranked by how many accounts hold them among their favorites; `limit` caps the list.',
  ],
  'market.favorites': [
    { get: '/v2/assets/favorites', id: 'listFavoriteAssets', query: FavoritesQuery, ok: 'Favorite asset rows' },
    "The caller's favorites across coins, stocks and fx",
    'Same filters and sort as `GET /v2/assets/`, except that `asset_class` defaults to `all`.',
  ],
  'market.addFavorite': [
    {
      post: '/v2/assets/favorites',
      id: 'addFavoriteAsset',
      json: FavoriteRequestSchema,
      ok: ['Favorited', 'FavoriteStateEnvelope'],
      errors: [404],
    },
    'Favorite an asset (idempotent)',
    'Favoriting an asset already favorited succeeds and changes nothing. Unknown asset: 400 `UnknownAsset`.',
  ],
  'market.removeFavorite': [
    {
      delete: '/v2/assets/favorites/{asset_id}',
      id: 'removeFavoriteAsset',
      params: FavoriteAssetIdParams,
      ok: 'Not a favorite (any more)',
    },
    'Remove a favorite (idempotent)',
    'Removing a favorite that is absent succeeds.',
  ],
});
