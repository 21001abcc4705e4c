/**
 * The server's implementation of the MCP `Backend` (@marketlens/mcp) for one signed-in user: every
 * method calls the same service a REST route calls, with the same gates (tier, eligibility), so a
 * tool answers what the route answers, and fails with the route's error code.
 */

import { STREAM_SUBSCRIPTION_CAP } from '@marketlens/contract';
import type { Backend, Followed } from '@marketlens/mcp';
import { analysisWire, tierOf } from '../analysis/analysis.js';
import { liveOf } from '../live/live.js';
import type { Actor, AppDeps, Caller, ClientInfo } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
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

/**
 * Spends the weight of the REST route `METHOD path` (hono syntax, as in the weight table) from the
 * caller's request budget, or refuses with 429 `RateLimited`; the MCP route passes one bound to
 * its request.
 */
export type McpCharge = (route: string) => Promise<void>;

/**
 * The `Backend` of `caller` over the app's services. With `charge`, every method first pays the
 * weight of the REST route that does the same work (an analysis over MCP costs what
 * `GET /v2/analysis/{asset_id}` costs; MCP-only operations are listed in the weight table as
 * `MCP <tool>`), so a tool call is charged by what it does, not one unit per message.
 */
export function mcpBackend(
  deps: AppDeps,
  caller: McpCaller,
  useCases: UseCases = createUseCases(deps),
  charge?: McpCharge,
): Required<Backend> {
  const actor: Actor = { caller, client: MCP_CLIENT };
  const { analysis } = useCases;
  /** `run`, after paying for `routes` (each the weight of its REST route). */
  const paid =
    <A extends unknown[], R>(routes: string | readonly string[], run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (charge) for (const route of typeof routes === 'string' ? [routes] : routes) await charge(route);
      return run(...args);
    };

  return {
    market: {
      analysis: paid('GET /v2/analysis/:asset_id', async (request) => analysisWire(await analysis.get(actor, request))),
      signal: paid('GET /v2/analysis/:asset_id/signal', (request) => analysis.signal(actor, request)),
      overview: paid('GET /v2/analysis/:asset_id/overview', (request) =>
        analysis.overview(actor, request, request.locale),
      ),
      assetMarkets: paid('GET /v2/analysis/:asset_id/markets', (request) => analysis.markets(actor, request)),
      // The tool names none of the ten paid controls, so every caller may call it; free callers get the top rows.
      tradingSignals: paid('GET /v2/assets/signals', (request) => analysis.signals(actor, request)),
      screener: paid('GET /v2/assets/screener', (request) => analysis.screener(actor, request.asset_class)),
      fearGreed: paid('GET /v2/insights/fear_greed', (request) => analysis.fearGreed(actor, request)),
      listAssets: paid('GET /v2/assets/', (request) => useCases.market.assets(actor, request)),
      listExchanges: paid('GET /v1/exchanges', () => useCases.market.exchanges(actor)),
      exchangeDetail: paid('GET /v1/exchanges/:exchange_id', (id) => useCases.market.exchange(actor, id)),
      trackRecord: paid('GET /v2/track-record', (request) => analysis.serviceTrackRecord(actor, request)),
    },
    account: {
      accountInfo: paid(['GET /v1/auth/me', 'GET /v2/assets/favorites'], () => useCases.auth.accountInfo(actor)),
      favorites: paid('GET /v2/assets/favorites', (request) => useCases.market.favorites(actor, request)),
      addFavorite: paid('POST /v2/assets/favorites', (assetId) => useCases.market.addFavorite(actor, assetId)),
      removeFavorite: paid('DELETE /v2/assets/favorites/:asset_id', (assetId) =>
        useCases.market.removeFavorite(actor, assetId),
      ),
    },
    portfolio: {
      positions: paid('GET /v2/positions', (query) => useCases.accounts.positions(actor, query)),
      balances: paid('GET /v2/balances', (query) => useCases.accounts.balances(actor, query)),
      orders: paid('GET /v1/orders', (filter) => useCases.accounts.orders(actor, filter)),
      trades: paid('GET /v1/trades', (filter) => useCases.accounts.trades(actor, filter)),
      positionAnalysis: paid('GET /v2/positions/:position_id/analysis', (positionId, query) =>
        useCases.accounts.analyzePosition(actor, positionId, query),
      ),
      editPosition: paid('PATCH /v2/positions/:position_id', (input) =>
        useCases.accounts.editPosition(actor, input.position_id, input.notes),
      ),
    },
    alerts: {
      alerts: paid('GET /v1/notifications', () => useCases.alerts.list(actor)),
      createAlert: paid('POST /v1/notifications', (payload) => useCases.alerts.create(actor, payload)),
      deleteAlert: paid('DELETE /v1/notifications/:notification_id', (id) => useCases.alerts.delete(actor, id)),
      notificationPreferences: paid('GET /v1/users/notification_preferences', () => useCases.alerts.preferences(actor)),
      updateNotificationPreferences: paid('PATCH /v1/users/notification_preferences', (patch) =>
        useCases.alerts.updatePreferences(actor, patch),
      ),
    },
    webhooks: {
      registerWebhook: paid('MCP register_alert_webhook', (input) => useCases.alerts.registerWebhook(actor, input)),
      webhooks: paid('MCP list_alert_webhooks', () => useCases.alerts.webhooks(actor)),
      deleteWebhook: paid('MCP delete_alert_webhook', (id) => useCases.alerts.deleteWebhook(actor, id)),
    },
    live: {
      // The stream's rules, one subscription at a time (each asset resolved, analysed, its timeframe
      // within the tier's gate), then the tier's cap on the session's distinct candles.
      checkFollow: paid('MCP resources/subscribe', async (followed: readonly Followed[]) => {
        const resolved = followed.map((f) => {
          // `follow` is a comma-separated list: an id holding a comma names no asset.
          if (f.asset_id.includes(',')) throw new AppError('UnknownAsset', `Unknown asset '${f.asset_id}'`);
          const [s] = useCases.live.subscriptions(actor, `${f.asset_id}:${f.timeframe}`);
          return s;
        });
        const distinct = new Set(resolved.map((s) => `${s.asset_id}:${s.timeframe}`)).size;
        const tier = tierOf(caller);
        if (distinct > STREAM_SUBSCRIPTION_CAP[tier]) {
          throw new AppError(
            'StreamSubscriptionLimitExceeded',
            `${distinct} subscriptions asked; the ${tier} tier follows at most ${STREAM_SUBSCRIPTION_CAP[tier]} in one session`,
          );
        }
        return { followed: resolved, watch: (f: Followed, onClose: () => void) => liveOf(deps).watch(f, onClose) };
      }),
    },
    pilot: {
      pilotSpectate: paid('GET /pilot/spectate', () => useCases.pilot.spectate(actor)),
      pilotTrackRecord: paid('GET /pilot/spectate/track-record', (request) =>
        useCases.pilot.trackRecord(actor, request),
      ),
    },
  };
}
