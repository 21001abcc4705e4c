/**
 * The server's implementation of the MCP `Backend` (@marketlens/mcp) for one signed-in user: every
 * method calls the same service a REST route calls, with the same gates (tier, eligibility), so a
 * tool answers what the route answers, and fails with the route's error code.
 */

import type { Backend } from '@marketlens/mcp';
import { analysisWire } from '../analysis/analysis.js';
import type { Actor, AppDeps, Caller, ClientInfo } from '../platform/deps.js';
import { createUseCases, type UseCases } from '../use-cases.js';

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
export function mcpBackend(
  deps: AppDeps,
  caller: McpCaller,
  useCases: UseCases = createUseCases(deps),
): Required<Backend> {
  const actor: Actor = { caller, client: MCP_CLIENT };
  const { analysis } = useCases;

  return {
    market: {
      analysis: async (request) => analysisWire(await analysis.get(actor, request)),
      signal: (request) => analysis.signal(actor, request),
      overview: (request) => analysis.overview(actor, request, request.locale),
      assetMarkets: (request) => analysis.markets(actor, request),
      // The tool names none of the ten paid controls, so every caller may call it; free callers get the top rows.
      tradingSignals: (request) => analysis.signals(actor, request),
      screener: (request) => analysis.screener(actor, request.asset_class),
      fearGreed: (request) => analysis.fearGreed(actor, request),
      listAssets: (request) => useCases.market.assets(actor, request),
      listExchanges: () => useCases.market.exchanges(actor),
      exchangeDetail: (id) => useCases.market.exchange(actor, id),
      trackRecord: (request) => analysis.serviceTrackRecord(actor, request),
    },
    account: {
      accountInfo: () => useCases.auth.accountInfo(actor),
      favorites: (request) => useCases.market.favorites(actor, request),
      addFavorite: (assetId) => useCases.market.addFavorite(actor, assetId),
      removeFavorite: (assetId) => useCases.market.removeFavorite(actor, assetId),
    },
    portfolio: {
      positions: (query) => useCases.accounts.positions(actor, query),
      balances: (query) => useCases.accounts.balances(actor, query),
      orders: (filter) => useCases.accounts.orders(actor, filter),
      trades: (filter) => useCases.accounts.trades(actor, filter),
      positionAnalysis: (positionId, query) => useCases.accounts.analyzePosition(actor, positionId, query),
      editPosition: (input) => useCases.accounts.editPosition(actor, input.position_id, input.notes),
    },
    alerts: {
      alerts: () => useCases.alerts.list(actor),
      createAlert: (payload) => useCases.alerts.create(actor, payload),
      deleteAlert: (id) => useCases.alerts.delete(actor, id),
      notificationPreferences: () => useCases.alerts.preferences(actor),
      updateNotificationPreferences: (patch) => useCases.alerts.updatePreferences(actor, patch),
    },
    webhooks: {
      registerWebhook: (input) => useCases.alerts.registerWebhook(actor, input),
      webhooks: () => useCases.alerts.webhooks(actor),
      deleteWebhook: (id) => useCases.alerts.deleteWebhook(actor, id),
    },
    pilot: {
      pilotSpectate: () => useCases.pilot.spectate(actor),
      pilotTrackRecord: (request) => useCases.pilot.trackRecord(actor, request),
    },
  };
}
