import { assetIdsOf, type BalancesQuery, type FillFilter, type PositionsQuery } from '@marketlens/contract';
import { requireUser } from '../auth/authorize.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { type ConnectInput, connectAccount, listConnections } from './connections.js';
import {
  analyzePosition,
  editPositionNotes,
  legacyBalances,
  legacyPositions,
  listBalances,
  listOrders,
  listPositions,
  listTrades,
  type PositionAnalysisRequest,
  portfolioSummary,
} from './portfolio.js';

/**
 * A signed-in user's exchange accounts, as REST (`/v1/connections`, `/v2/positions`,
 * `/v2/balances`, `/v2/portfolio/summary`, `/v1/orders`, `/v1/trades`) and MCP (the portfolio
 * tools) ask for them. Every use case needs a user; a mobile build below 3.9.26 (`legacyShapes`)
 * gets the earlier split shapes and the fills of tracked assets only.
 */
export function accountUseCases(deps: AppDeps) {
  const userOf = (actor: Actor) => requireUser(actor.caller).user.id;

  return {
    /**
     * Connects an exchange account: a verified address where that is required, safe and complete
     * credential fields, a connectable exchange, at most 20 connections, and credentials the venue
     * accepts; they are stored encrypted and a first sync is requested.
     */
    connect: async (actor: Actor, input: ConnectInput) => connectAccount(deps, userOf(actor), input),

    /** The user's connections, oldest first, with their open positions and sync state. */
    connections: async (actor: Actor) => listConnections(deps, userOf(actor)),

    /** Removes one of the user's connections with what was synced from it; another's or an unknown id is `ConnectionNotFound`. */
    async disconnect(actor: Actor, connectionId: string): Promise<void> {
      if (!(await deps.storage.connections.delete(userOf(actor), connectionId))) {
        throw new AppError('ConnectionNotFound', `No connection ${connectionId}`);
      }
    },

    /** The user's open positions (of the query's assets) with the portfolio totals, in the client's shape. */
    async positions(actor: Actor, query: PositionsQuery) {
      const view = await listPositions(deps, userOf(actor), assetIdsOf(query));
      return actor.client.legacyShapes ? legacyPositions(view) : view;
    },

    /** The user's balances matching the query, priced, with their USD total, in the client's shape. */
    async balances(actor: Actor, query: BalancesQuery) {
      const sheet = await listBalances(deps, userOf(actor), { ...query, asset_ids: assetIdsOf(query) });
      return actor.client.legacyShapes ? legacyBalances(sheet) : sheet;
    },

    /** Portfolio totals, the balance total and the accounts' sync standing. */
    summary: async (actor: Actor) => portfolioSummary(deps, userOf(actor)),

    /** The user's orders aggregated from their fills, a page of them, and how many match. */
    async orders(actor: Actor, filter: FillFilter) {
      return listOrders(deps, userOf(actor), filter, { trackedOnly: actor.client.legacyShapes });
    },

    /** The user's fills, a page of them, and how many match. */
    async trades(actor: Actor, filter: FillFilter) {
      return listTrades(deps, userOf(actor), filter, { trackedOnly: actor.client.legacyShapes });
    },

    /** Sets the notes of the user's open position; a missing, closed or foreign one is `PositionNotFound`. */
    async editPosition(actor: Actor, positionId: string, notes: string) {
      return editPositionNotes(deps, userOf(actor), positionId, notes);
    },

    /**
     * The assessment of the user's open position against the analysis zones, under the analysis
     * gates by tier and client (timeframe, depth); `PositionNotFound`, or 422 when it cannot be made.
     */
    async analyzePosition(actor: Actor, positionId: string, request: PositionAnalysisRequest) {
      return analyzePosition(deps, requireUser(actor.caller), actor.client, positionId, request);
    },
  };
}

/** The use cases of the accounts feature, as the composition root builds them. */
export type AccountUseCases = ReturnType<typeof accountUseCases>;
