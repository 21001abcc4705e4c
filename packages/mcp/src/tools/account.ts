/** Account tools: who you are, and your favorites. */

import { AssetListInput } from '@marketlens/contract';
import { lines } from '../render.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import { renderAssetRows } from './market.js';

const getAccountInfo = defineTool({
  name: 'get_account_info',
  title: 'Account',
  description:
    'The signed-in account: email, subscription tier (free, pro, elite) and when a granted tier ends, and favorites.',
  operation: 'auth.accountInfo',
  text: (a) =>
    lines(
      `Account ${a.user.email} (id ${a.user.id}), since ${a.user.created_at}`,
      `Tier: ${a.tier ?? 'unavailable (served as free)'}${a.tier_expires_at ? `, until ${a.tier_expires_at}` : ''}`,
      `Favorites: ${a.favorites.length > 0 ? a.favorites.join(', ') : 'none'}`,
    ),
});

const getFavoriteAssets = defineTool({
  name: 'get_favorite_assets',
  title: 'Favorite assets',
  description: 'Your favorite assets across coins, stocks and fx, with price and change columns.',
  input: AssetListInput.extend({ asset_class: AssetListInput.shape.asset_class.unwrap().default('all') }),
  operation: 'market.favorites',
  list: 'assets',
  text: (rows) => renderAssetRows('Favorites', rows),
});

const addFavoriteAsset = defineTool({
  name: 'add_favorite_asset',
  title: 'Add a favorite',
  description: 'Adds an asset to your favorites. Favoriting an asset twice succeeds and changes nothing.',
  operation: 'market.addFavorite',
  text: (s) => `${s.asset_id} is a favorite.`,
});

const removeFavoriteAsset = defineTool({
  name: 'remove_favorite_asset',
  title: 'Remove a favorite',
  description: 'Removes an asset from your favorites. Removing one that is not a favorite succeeds.',
  operation: 'market.removeFavorite',
  text: (s) => `${s.asset_id} is not a favorite.`,
});

/** The account tools, in catalog order. */
export const ACCOUNT_TOOLS: readonly ToolDefinition[] = [
  getAccountInfo,
  getFavoriteAssets,
  addFavoriteAsset,
  removeFavoriteAsset,
];
