/**
 * The server's implementation of the MCP `Backend` (@marketlens/mcp) for one signed-in user: its
 * runner runs the operation of the registry (`operations.ts`) a tool names, the same use case a
 * REST route runs, with the same gates (tier, eligibility), so a tool answers what the route answers,
 * and fails with the route's error code.
 */

import { STREAM_SUBSCRIPTION_CAP } from '@marketlens/contract';
import { type Backend, type Followed, type OperationRunner, RUNS_EVERY_OPERATION } from '@marketlens/mcp';
import { tierOf } from '../analysis/analysis.js';
import { liveOf } from '../live/live.js';
import { REGISTRY, runOperation } from '../operations.js';
import type { AppDeps, Caller, ClientInfo } from '../platform/deps.js';
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
 * The `Backend` of `caller` over the registry of operations: it runs every declared operation
 * (`REGISTRY`), with its caller check and the same use case a REST route runs. With
 * `charge`, every call first pays the weight the operation names (the REST route that does the same
 * work: an analysis over MCP costs what `GET /v2/analysis/{asset_id}` costs; MCP-only operations are
 * listed in the weight table as `MCP <tool>`), so a tool call is charged by what it does, not one
 * unit per message.
 */
export function mcpBackend(
  deps: AppDeps,
  caller: McpCaller,
  useCases: UseCases = createUseCases(deps),
  charge?: McpCharge,
): Required<Backend> {
  const ctx = { useCases, actor: { caller, client: MCP_CLIENT } };
  /** Runs an operation after paying its weight. */
  const run: OperationRunner = async (id, input) => {
    if (charge) for (const route of REGISTRY[id].weight) await charge(route);
    return runOperation(ctx, id, input);
  };

  return {
    run,
    runs: RUNS_EVERY_OPERATION,
    live: {
      // The stream's rules, one subscription at a time (each asset resolved, analysed, its timeframe
      // within the tier's gate), then the tier's cap on the session's distinct candles.
      checkFollow: async (followed: readonly Followed[]) => {
        if (charge) await charge('MCP resources/subscribe');
        const resolved = followed.map((f) => {
          // `follow` is a comma-separated list: an id holding a comma names no asset.
          if (f.asset_id.includes(',')) throw new AppError('UnknownAsset', `Unknown asset '${f.asset_id}'`);
          const [s] = useCases.live.subscriptions(ctx.actor, `${f.asset_id}:${f.timeframe}`);
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
      },
    },
  };
}
