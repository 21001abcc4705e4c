import { requireUser } from '../auth/authorize.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import {
  type AssetListQuery,
  addFavorite,
  favoriteAssets,
  listAssets,
  popularAssets,
  removeFavorite,
} from './assets.js';
import { configDocument } from './config-document.js';
import { type AvailablePromotions, exchangeDetail, exchangeViewer, listExchanges } from './exchanges.js';

/**
 * The market data as REST (`/v1/exchanges`, `/v2/assets`, `/v1/assets/coins/favorite`, `/v1/news/`,
 * `/v2/config`) and MCP (`list_assets`, `list_exchanges`, `get_exchange_detail`, the favorites
 * tools) ask for it. Favorites need a signed-in caller; exchange lists are shown as the caller sees
 * them (its connections, and its open promotions as `promotionsOf` gives them: the composition
 * root passes promotions' `availablePromotions`).
 */
export function marketUseCases(deps: AppDeps, promotionsOf: AvailablePromotions) {
  /** What the exchange lists say about the actor: nothing for an anonymous caller. */
  const viewerOf = ({ caller }: Actor) =>
    exchangeViewer(deps, caller.kind === 'anonymous' ? null : caller.user.id, promotionsOf);

  return {
    /** The assets of a class, priced, sorted, at most `limit` (free to every caller). */
    assets: (_actor: Actor, query: AssetListQuery) => listAssets(deps, query),

    /** The assets most users favorite, most first, with the count. */
    popular: (_actor: Actor, limit: number) => popularAssets(deps, limit),

    /** The signed-in caller's favorites as asset rows, filtered and sorted like the asset list. */
    favorites: (actor: Actor, query: AssetListQuery) => favoriteAssets(deps, requireUser(actor.caller).user.id, query),

    /** Favorites an asset for the signed-in caller (idempotent); an unknown asset is refused. */
    addFavorite: (actor: Actor, assetId: string) => addFavorite(deps, requireUser(actor.caller).user.id, assetId),

    /** Removes a favorite of the signed-in caller (idempotent, an absent one included). */
    removeFavorite: (actor: Actor, assetId: string) => removeFavorite(deps, requireUser(actor.caller).user.id, assetId),

    /** The exchange catalog, live volumes for the venues served, connections and promotions of the caller. */
    exchanges: async (actor: Actor) => listExchanges(deps, await viewerOf(actor)),

    /** One exchange with pair counts and tickers, as the caller sees it; an unknown one is refused. */
    exchange: async (actor: Actor, exchangeId: string) => exchangeDetail(deps, exchangeId, await viewerOf(actor)),

    /** The newest news items, at most `limit` (none when no feed is configured). */
    news: (_actor: Actor, limit: number) => deps.news?.latest(limit) ?? [],

    /** The client configuration as the caller and its client see it (tier, gates, controls). */
    config: (actor: Actor) => configDocument(actor.caller, actor.client),
  };
}

/** The use cases of the market feature, as the composition root builds them. */
export type MarketUseCases = ReturnType<typeof marketUseCases>;
