/**
 * The server's implementation of the MCP `Backend` (@marketlens/mcp) for one signed-in user: every
 * method calls the same service a REST route calls, with the same gates (tier, eligibility), so a
 * tool answers what the route answers, and fails with the route's error code.
 */

import { assetIdsOf } from '@marketlens/contract';
import { parseSignalControls } from '@marketlens/core';
import type { Backend } from '@marketlens/mcp';
import {
  analyzePosition,
  editPositionNotes,
  listBalances,
  listOrders,
  listPositions,
  listTrades,
} from '../accounts/portfolio.js';
import { alertViews, createAlert, deleteAlert, listAlerts } from '../alerts/alerts.js';
import { listWebhooks, registerWebhook, removeWebhook } from '../alerts/push/webhooks.js';
import {
  analysisOf,
  analysisWire,
  checkAnalysisAccess,
  marketsOf,
  overviewOf,
  requireAsset,
  signalOf,
  tierOf,
} from '../analysis/analysis.js';
import { fearGreedListOf } from '../analysis/insights.js';
import { serviceTrackRecord } from '../analysis/plans/service-record.js';
import { mayUseSignalControls, screenerOf, signalListOf } from '../analysis/screener.js';
import { addFavorite, favoriteAssets, listAssets, removeFavorite } from '../market/assets.js';
import { exchangeDetail, exchangeViewer, listExchanges } from '../market/exchanges.js';
import { iso, isoOrNull, marketFor } from '../market/market.js';
import { requirePilotEligible } from '../pilot/eligibility.js';
import { spectateOverview, spectateTrackRecord } from '../pilot/views.js';
import type { AppDeps, Caller, ClientInfo } from '../platform/deps.js';

/** A signed-in caller (the user of the access token). */
export type McpCaller = Exclude<Caller, { kind: 'anonymous' }>;

/**
 * MCP clients are not the mobile app: no client-version gates apply (h1 is not free, shapes are
 * current), exactly as for a desktop REST client without `x-platform`.
 */
export const MCP_CLIENT: ClientInfo = {
  platform: null,
  version: null,
  mobile: false,
  h1Free: false,
  legacyShapes: false,
};

/** The `Backend` of `caller` over the app's services. */
export function mcpBackend(deps: AppDeps, caller: McpCaller): Required<Backend> {
  const userId = caller.user.id;
  const tier = tierOf(caller);

  /** Resolves venue and asset and applies the analysis gates (timeframe and depth by tier), as the REST routes do. */
  async function gated(request: Parameters<Backend['market']['analysis']>[0]) {
    const market = await marketFor(deps, request.connection);
    const asset = requireAsset(deps, request.asset_id, market);
    checkAnalysisAccess(asset, request, caller, MCP_CLIENT);
    return { market, asset };
  }

  const requireEligible = () => requirePilotEligible(deps, userId);

  return {
    market: {
      async analysis(request) {
        const { market, asset } = await gated(request);
        return analysisWire(await analysisOf(deps, market, asset, request));
      },
      async signal(request) {
        const { market, asset } = await gated(request);
        return signalOf(deps, market, asset, request);
      },
      async overview(request) {
        const { market, asset } = await gated(request);
        return overviewOf(deps, market, asset, request, request.locale);
      },
      async assetMarkets(request) {
        const market = await marketFor(deps, request.connection);
        return marketsOf(market, requireAsset(deps, request.asset_id, market), request.market_type);
      },
      async tradingSignals(request) {
        // The tool names none of the ten paid controls, so every caller may call it; free callers get the top rows.
        return signalListOf(deps, request, parseSignalControls({}), mayUseSignalControls(caller));
      },
      screener: (request) => screenerOf(deps, request.asset_class),
      fearGreed: (request) =>
        fearGreedListOf(deps, {
          ...(request.zone === undefined ? {} : { zone: request.zone }),
          ...(request.min_volume === undefined ? {} : { min_volume: request.min_volume }),
          exclude_stables: request.exclude_stables,
          sort: request.sort,
          sort_dir: request.sort_dir,
          limit: request.limit,
        }),
      listAssets: (request) => listAssets(deps, request),
      listExchanges: async () => listExchanges(deps, await exchangeViewer(deps, caller.user.id)),
      exchangeDetail: async (id) => exchangeDetail(deps, id, await exchangeViewer(deps, caller.user.id)),
      trackRecord: (request) => serviceTrackRecord(deps, request),
    },
    account: {
      async accountInfo() {
        return {
          user: { id: caller.user.id, email: caller.user.email, created_at: iso(caller.user.created_at) },
          tier: caller.tier,
          tier_expires_at: isoOrNull(caller.tier_expires_at),
          favorites: await deps.storage.favorites.list(userId),
        };
      },
      favorites: (request) => favoriteAssets(deps, userId, request),
      addFavorite: (assetId) => addFavorite(deps, userId, assetId),
      removeFavorite: (assetId) => removeFavorite(deps, userId, assetId),
    },
    portfolio: {
      positions: (query) => listPositions(deps, userId, assetIdsOf(query)),
      balances: (query) =>
        listBalances(deps, userId, {
          user_connection_id: query.user_connection_id,
          connection_id: query.connection_id,
          asset_ids: assetIdsOf(query),
        }),
      orders: (filter) => listOrders(deps, userId, filter, { trackedOnly: false }),
      trades: (filter) => listTrades(deps, userId, filter, { trackedOnly: false }),
      positionAnalysis: (positionId, query) =>
        analyzePosition(deps, caller, MCP_CLIENT, userId, positionId, {
          timeframe: query.timeframe,
          limit: query.limit,
        }),
      editPosition: (input) => editPositionNotes(deps, userId, input.position_id, input.notes),
    },
    alerts: {
      alerts: async () => alertViews(deps, await listAlerts(deps, userId)),
      async createAlert(payload) {
        const [view] = await alertViews(deps, [await createAlert(deps, userId, tier, payload)]);
        return view;
      },
      deleteAlert: (id) => deleteAlert(deps, userId, id),
      notificationPreferences: () => deps.storage.notificationPreferences.get(userId),
      updateNotificationPreferences: (patch) => deps.storage.notificationPreferences.update(userId, patch, deps.now()),
    },
    webhooks: {
      registerWebhook: (input) => registerWebhook(deps, userId, input),
      webhooks: () => listWebhooks(deps, userId),
      deleteWebhook: (id) => removeWebhook(deps, userId, id),
    },
    pilot: {
      async pilotSpectate() {
        await requireEligible();
        return spectateOverview(deps);
      },
      async pilotTrackRecord(request) {
        await requireEligible();
        return spectateTrackRecord(deps, request.before_trade);
      },
    },
  };
}
