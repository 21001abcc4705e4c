import { FavoriteAssetIdParams, LegacyFavoriteRequestSchema, ok } from '@marketlens/contract';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';
import { legacyAssetId } from '../assets.js';

const LEGACY = 'Legacy surface over the same favorites list as `/v2/assets/favorites`.';

const legacyAssetRoutes = restTable('Assets', {
  'market.favorites': [
    { get: '/v1/assets/coins/favorite', id: 'listFavoriteCoinsLegacy', ok: 'Favorite coins, by 24h volume' },
    "The caller's favorite coins (legacy)",
    `${LEGACY} Lists coins only, as it always did; stocks and fx favorites are read on /v2.`,
  ],
  'market.addFavorite': [
    {
      post: '/v1/assets/coins/favorite',
      id: 'addFavoriteCoinLegacy',
      json: LegacyFavoriteRequestSchema,
      ok: 'Favorited',
      errors: [404],
    },
    'Favorite an asset (legacy; idempotent)',
    `${LEGACY} Body: \`asset_id\` (or its earlier name \`coin_id\`).`,
  ],
  'market.removeFavorite': [
    {
      delete: '/v1/assets/coins/favorite/{asset_id}',
      id: 'removeFavoriteCoinLegacy',
      params: FavoriteAssetIdParams,
      ok: 'Not a favorite (any more)',
    },
    'Remove a favorite (legacy; idempotent)',
    LEGACY,
  ],
});

const COINS_BY_VOLUME = { asset_class: 'coins', sort: 'volume', sort_dir: 'desc', limit: 500 } as const;

/** The legacy routes serve the favorites operations of `/v2/assets/favorites`, coins only. */
export function registerLegacyAssetRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, legacyAssetRoutes, {
    'market.favorites': async (c) => c.json(ok(await run(c, 'market.favorites', COINS_BY_VOLUME)), 200),
    'market.addFavorite': async (c) => {
      const asset_id = legacyAssetId(c.req.valid('json'));
      return c.json(ok(await run(c, 'market.addFavorite', { asset_id })), 200);
    },
  });
}
