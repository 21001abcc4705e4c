import {
  type CallerNeed,
  isOperationId,
  OPERATIONS,
  type OperationId,
  type OperationInput,
  type OperationOutput,
  pushDeviceWire,
} from '@marketlens/contract';
import type { Context } from 'hono';
import { servedAnalysisWire } from './analysis/analysis.js';
import { baseUrlOf } from './auth/oauth/base.js';
import { actorOf } from './platform/actor.js';
import type { Actor, AppEnv } from './platform/deps.js';
import { AppError } from './platform/errors/app-error.js';
import type { RunOperation } from './platform/operation.js';
import type { UseCases } from './use-cases.js';

export { authOf } from './platform/operation.js';

/** Who runs an operation: the app's use cases and the actor asking. */
export interface OperationContext {
  useCases: UseCases;
  actor: Actor;
}

/** How the server serves one declared operation. */
export interface OperationBinding<K extends OperationId> {
  /**
   * The rows of the rate-limit weight table a call pays when it does not come through its REST
   * route (an MCP tool): the REST route that does the same work (`GET /v2/analysis/:asset_id`), or
   * `MCP <tool>` for an operation REST does not serve.
   */
  weight: readonly string[];
  /** The use case, called with the parsed input. */
  run(ctx: OperationContext, input: OperationInput<K>): Promise<OperationOutput<K>>;
  /**
   * The answer when the use case has it at hand without waiting (a cache hit), else undefined; only
   * where the use case has such a path (`analysis.get`).
   */
  cached?(ctx: OperationContext, input: OperationInput<K>): OperationOutput<K> | undefined;
}

const bind = <K extends OperationId>(
  weight: string | readonly string[],
  run: OperationBinding<K>['run'],
  cached?: OperationBinding<K>['cached'],
): OperationBinding<K> => ({ weight: typeof weight === 'string' ? [weight] : weight, run, ...(cached && { cached }) });

/**
 * The registry of operations: each operation the contract declares (`OPERATIONS`: input, output,
 * caller, effect), bound to the one use case that serves it. REST routes, the MCP backend and the
 * CLI's {@link invokeOperation} all run an operation through here; a declared operation without a
 * binding does not compile.
 */
export const REGISTRY: { readonly [K in OperationId]: OperationBinding<K> } = {
  // ---- market data ----
  'market.assets': bind('GET /v2/assets/', ({ useCases, actor }, input) => useCases.market.assets(actor, input)),
  'market.popular': bind('GET /v2/assets/popular', ({ useCases, actor }, input) =>
    useCases.market.popular(actor, input.limit),
  ),
  'market.exchanges': bind('GET /v1/exchanges', ({ useCases, actor }) => useCases.market.exchanges(actor)),
  'market.exchange': bind('GET /v1/exchanges/:exchange_id', ({ useCases, actor }, input) =>
    useCases.market.exchange(actor, input.exchange_id),
  ),
  'market.favorites': bind('GET /v2/assets/favorites', ({ useCases, actor }, input) =>
    useCases.market.favorites(actor, input),
  ),
  'market.addFavorite': bind('POST /v2/assets/favorites', ({ useCases, actor }, input) =>
    useCases.market.addFavorite(actor, input.asset_id),
  ),
  'market.news': bind('GET /v1/news/', async ({ useCases, actor }, input) => useCases.market.news(actor, input.limit)),
  'market.removeFavorite': bind('DELETE /v2/assets/favorites/:asset_id', ({ useCases, actor }, input) =>
    useCases.market.removeFavorite(actor, input.asset_id),
  ),
  'market.config': bind('GET /v2/config', async ({ useCases, actor }) => useCases.market.config(actor)),
  // ---- analysis ----
  'analysis.get': bind(
    'GET /v2/analysis/:asset_id',
    async ({ useCases, actor }, input) => servedAnalysisWire(await useCases.analysis.get(actor, input)),
    ({ useCases, actor }, input) => {
      const hit = useCases.analysis.cached(actor, input);
      return hit === undefined ? undefined : servedAnalysisWire(hit);
    },
  ),
  'analysis.signal': bind('GET /v2/analysis/:asset_id/signal', ({ useCases, actor }, input) =>
    useCases.analysis.signal(actor, input),
  ),
  'analysis.overview': bind('GET /v2/analysis/:asset_id/overview', ({ useCases, actor }, input) =>
    useCases.analysis.overview(actor, input, input.locale),
  ),
  'analysis.candles': bind('GET /v2/analysis/:asset_id/candles', ({ useCases, actor }, input) =>
    useCases.analysis.candles(actor, input),
  ),
  'analysis.markets': bind('GET /v2/analysis/:asset_id/markets', ({ useCases, actor }, input) =>
    useCases.analysis.markets(actor, input),
  ),
  // The paid controls only when named (REST's query; MCP names none): free callers get the top rows.
  'analysis.signals': bind('GET /v2/assets/signals', ({ useCases, actor }, input) =>
    useCases.analysis.signals(actor, input, input.controls),
  ),
  'analysis.screener': bind('GET /v2/assets/screener', ({ useCases, actor }, input) =>
    useCases.analysis.screener(actor, input.asset_class),
  ),
  'analysis.fearGreed': bind('GET /v2/insights/fear_greed', ({ useCases, actor }, input) =>
    useCases.analysis.fearGreed(actor, input),
  ),
  'analysis.insights': bind('GET /v2/insights', ({ useCases, actor }) => useCases.analysis.insights(actor)),
  'analysis.assetTrackRecord': bind('GET /v2/analysis/:asset_id/track-record', ({ useCases, actor }, input) =>
    useCases.analysis.trackRecord(actor, input.asset_id, input.timeframe),
  ),
  'analysis.trackRecord': bind('GET /v2/track-record', ({ useCases, actor }, input) =>
    useCases.analysis.serviceTrackRecord(actor, input),
  ),
  // ---- accounts and sessions ----
  'auth.signup': bind('POST /v1/auth/signup', ({ useCases, actor }, input) => useCases.auth.signup(actor, input)),
  'auth.login': bind('POST /v1/auth/login', ({ useCases, actor }, input) => useCases.auth.login(actor, input)),
  'auth.logout': bind('POST /v1/auth/logout', async ({ useCases, actor }, input) => {
    await useCases.auth.logout(actor, input.session_token);
    return null;
  }),
  'auth.verifyEmail': bind('GET /v1/auth/verify', ({ useCases, actor }, input) =>
    useCases.auth.verify(actor, input.token),
  ),
  'auth.resendVerification': bind('POST /v1/auth/verify/resend', ({ useCases, actor }, input) =>
    useCases.auth.resendVerification(actor, input.email),
  ),
  'auth.requestPasswordReset': bind('POST /v1/auth/password/reset', ({ useCases, actor }, input) =>
    useCases.auth.requestPasswordReset(actor, input.email),
  ),
  'auth.confirmPasswordReset': bind('POST /v1/auth/password/reset/confirm', ({ useCases, actor }, input) =>
    useCases.auth.confirmPasswordReset(actor, input.token, input.password),
  ),
  'auth.deleteAccount': bind('DELETE /v1/users/me', ({ useCases, actor }, input) =>
    useCases.auth.deleteAccount(actor, input.password),
  ),
  // ---- the signed-in user ----
  'auth.me': bind('GET /v1/auth/me', ({ useCases, actor }) => useCases.auth.me(actor)),
  'auth.accountInfo': bind(['GET /v1/auth/me', 'GET /v2/assets/favorites'], ({ useCases, actor }) =>
    useCases.auth.accountInfo(actor),
  ),
  // ---- the user's exchange accounts ----
  'accounts.positions': bind('GET /v2/positions', ({ useCases, actor }, input) =>
    useCases.accounts.positions(actor, input),
  ),
  'accounts.summary': bind('GET /v2/portfolio/summary', ({ useCases, actor }) => useCases.accounts.summary(actor)),
  'accounts.balances': bind('GET /v2/balances', ({ useCases, actor }, input) =>
    useCases.accounts.balances(actor, input),
  ),
  'accounts.orders': bind('GET /v1/orders', ({ useCases, actor }, input) => useCases.accounts.orders(actor, input)),
  'accounts.trades': bind('GET /v1/trades', ({ useCases, actor }, input) => useCases.accounts.trades(actor, input)),
  'accounts.positionAnalysis': bind('GET /v2/positions/:position_id/analysis', ({ useCases, actor }, input) =>
    useCases.accounts.analyzePosition(actor, input.position_id, { timeframe: input.timeframe, limit: input.limit }),
  ),
  'accounts.editPosition': bind('PATCH /v2/positions/:position_id', ({ useCases, actor }, input) =>
    useCases.accounts.editPosition(actor, input.position_id, input.notes),
  ),
  'accounts.connections': bind('GET /v1/connections/user', ({ useCases, actor }) =>
    useCases.accounts.connections(actor),
  ),
  'accounts.connect': bind('POST /v1/connections/user', ({ useCases, actor }, input) =>
    useCases.accounts.connect(actor, input),
  ),
  'accounts.disconnect': bind('DELETE /v1/connections/user/:connection_id', async ({ useCases, actor }, input) => {
    await useCases.accounts.disconnect(actor, input.connection_id);
    return null;
  }),
  // ---- API keys ----
  'keys.list': bind('GET /v1/users/api_keys', ({ useCases, actor }) => useCases.keys.list(actor)),
  'keys.create': bind('POST /v1/users/api_keys', ({ useCases, actor }, input) => useCases.keys.create(actor, input)),
  'keys.credits': bind('GET /v1/users/api_keys/credits', ({ useCases, actor }) => useCases.keys.credits(actor)),
  'keys.revoke': bind('DELETE /v1/users/api_keys/:key_id', async ({ useCases, actor }, input) => {
    await useCases.keys.revoke(actor, input.key_id);
    return null;
  }),
  // ---- alerts ----
  'alerts.list': bind('GET /v1/notifications', ({ useCases, actor }) => useCases.alerts.list(actor)),
  'alerts.create': bind('POST /v1/notifications', ({ useCases, actor }, input) => useCases.alerts.create(actor, input)),
  'alerts.update': bind('PATCH /v1/notifications/:notification_id', ({ useCases, actor }, input) =>
    useCases.alerts.update(actor, input.alert_id, input.payload),
  ),
  'alerts.delete': bind('DELETE /v1/notifications/:notification_id', async ({ useCases, actor }, input) => {
    await useCases.alerts.delete(actor, input.alert_id);
    return null;
  }),
  'alerts.limits': bind('GET /v1/notifications/config', ({ useCases, actor }) => useCases.alerts.limits(actor)),
  'alerts.preferences': bind('GET /v1/users/notification_preferences', ({ useCases, actor }) =>
    useCases.alerts.preferences(actor),
  ),
  'alerts.updatePreferences': bind('PATCH /v1/users/notification_preferences', ({ useCases, actor }, input) =>
    useCases.alerts.updatePreferences(actor, input),
  ),
  'alerts.registerWebhook': bind('MCP register_alert_webhook', ({ useCases, actor }, input) =>
    useCases.alerts.registerWebhook(actor, input),
  ),
  'alerts.webhooks': bind('MCP list_alert_webhooks', ({ useCases, actor }) => useCases.alerts.webhooks(actor)),
  'alerts.deleteWebhook': bind('MCP delete_alert_webhook', async ({ useCases, actor }, input) => {
    await useCases.alerts.deleteWebhook(actor, input.webhook_id);
    return null;
  }),
  // ---- push devices ----
  'alerts.vapidPublicKey': bind('GET /v1/devices/vapid_public_key', async ({ useCases, actor }) => ({
    public_key: await useCases.alerts.vapidPublicKey(actor),
  })),
  'alerts.registerDevice': bind('POST /v1/devices', async ({ useCases, actor }, input) =>
    pushDeviceWire(await useCases.alerts.registerDevice(actor, input)),
  ),
  'alerts.devices': bind('GET /v1/devices', async ({ useCases, actor }) =>
    (await useCases.alerts.devices(actor)).map(pushDeviceWire),
  ),
  'alerts.removeDevice': bind('DELETE /v1/devices/:device_id', async ({ useCases, actor }, input) => {
    await useCases.alerts.removeDevice(actor, input.device_id);
    return null;
  }),
  // ---- the pilot ----
  'pilot.spectate': bind('GET /pilot/spectate', ({ useCases, actor }) => useCases.pilot.spectate(actor)),
  'pilot.trackRecord': bind('GET /pilot/spectate/track-record', ({ useCases, actor }, input) =>
    useCases.pilot.trackRecord(actor, input),
  ),
  // ---- promotions ----
  'promotions.available': bind('GET /v1/promotions/available', ({ useCases, actor }) =>
    useCases.promotions.available(actor),
  ),
  'promotions.campaigns': bind('GET /v1/promotions/campaigns', ({ useCases, actor }) =>
    useCases.promotions.campaigns(actor),
  ),
  'promotions.random': bind('GET /v1/promotions/random', ({ useCases, actor }) => useCases.promotions.random(actor)),
  'promotions.volume': bind('GET /v1/promotions/volume', ({ useCases, actor }) => useCases.promotions.volume(actor)),
  'promotions.get': bind('GET /v1/promotions/:connection_id', ({ useCases, actor }, input) =>
    useCases.promotions.get(actor, input.connection_id),
  ),
  'promotions.signUpShown': bind('GET /v1/promotions/:connection_id/sign_up', ({ useCases, actor }, input) =>
    useCases.promotions.signUpShown(actor, input.connection_id),
  ),
  'promotions.signUp': bind('POST /v1/promotions/:connection_id/sign_up', ({ useCases, actor }, input) =>
    useCases.promotions.signUp(actor, input.connection_id, input.uid),
  ),
  // ---- the operator: no REST route, no MCP tool, so no weight row ----
  'admin.user': bind([], ({ useCases }, input) => useCases.admin.user(input)),
  'admin.users': bind([], ({ useCases }) => useCases.admin.users()),
  'admin.setTier': bind([], ({ useCases }, input) => useCases.admin.setTier(input)),
  'admin.grantTier': bind([], ({ useCases }, input) => useCases.admin.grantTier(input)),
  'admin.apiKeys': bind([], ({ useCases }, input) => useCases.admin.apiKeys(input)),
  'admin.createApiKey': bind([], ({ useCases }, input) => useCases.admin.createApiKey(input)),
  'admin.revokeApiKey': bind([], ({ useCases }, input) => useCases.admin.revokeApiKey(input)),
  'admin.grantPilot': bind([], ({ useCases }, input) => useCases.admin.grantPilot(input)),
  'admin.revokePilot': bind([], ({ useCases }, input) => useCases.admin.revokePilot(input)),
  'admin.revokeSessions': bind([], ({ useCases }, input) => useCases.admin.revokeSessions(input)),
  'admin.deleteUser': bind([], ({ useCases }, input) => useCases.admin.deleteUser(input)),
  'admin.disableUser': bind([], ({ useCases }, input) => useCases.admin.disableUser(input)),
  'admin.enableUser': bind([], ({ useCases }, input) => useCases.admin.enableUser(input)),
  'admin.oauthClients': bind([], ({ useCases }) => useCases.admin.oauthClients()),
  'admin.removeOAuthClient': bind([], ({ useCases }, input) => useCases.admin.removeOAuthClient(input)),
  'admin.promotions': bind([], ({ useCases }) => useCases.admin.promotions()),
  'admin.createPromotion': bind([], ({ useCases }, input) => useCases.admin.createPromotion(input)),
  'admin.campaigns': bind([], ({ useCases }) => useCases.admin.campaigns()),
  'admin.createCampaign': bind([], ({ useCases }, input) => useCases.admin.createCampaign(input)),
  'admin.invite': bind([], ({ useCases }, input) => useCases.admin.invite(input)),
};

/** Who may call an operation: the CLI's admin commands say they are the operator. */
export interface InvokeOptions {
  /** The caller is the operator (a `marketlens admin` command): `admin` operations are allowed. */
  operator?: boolean;
}

/**
 * Refuses a caller the operation does not accept, with the code REST answers for the same refusal:
 * no credential where one is needed (`Unauthorized`), an API key where only a session is
 * (`ApiKeyNotAccepted`), anyone but the operator for an `admin` operation (`Unauthorized`).
 */
export function checkCaller(need: CallerNeed, actor: Actor, options: InvokeOptions = {}): void {
  const { kind } = actor.caller;
  if (need === 'none' || need === 'optional') return;
  if (need === 'admin') {
    if (options.operator !== true) throw new AppError('Unauthorized', 'Only the operator runs this operation');
    return;
  }
  if (kind === 'anonymous') throw new AppError('Unauthorized', 'A valid credential is required');
  if (need === 'session' && kind === 'api_key') {
    throw new AppError('ApiKeyNotAccepted', 'API keys do not reach this operation; use a session');
  }
}

/** Runs `id` for `ctx.actor` with input already parsed by its schema, after the caller check. */
export function runOperation<K extends OperationId>(
  ctx: OperationContext,
  id: K,
  input: OperationInput<K>,
  options: InvokeOptions = {},
): Promise<OperationOutput<K>> {
  checkCaller(OPERATIONS[id].caller, ctx.actor, options);
  return REGISTRY[id].run(ctx, input);
}

/**
 * Invokes an operation by its id with raw input (the CLI, a script): the id is checked, the input
 * parsed with the operation's schema (a refusal is `InvalidRequest` naming the first five issues,
 * as REST answers a 400), the caller checked, and the use case run. Answers what REST answers in
 * `data`.
 */
export async function invokeOperation(
  useCases: UseCases,
  actor: Actor,
  id: string,
  input: unknown,
  options: InvokeOptions = {},
): Promise<unknown> {
  if (!isOperationId(id)) throw new AppError('NotFound', `Unknown operation '${id}'`);
  const parsed = OPERATIONS[id].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'input'}: ${i.message}`)
      .join('; ');
    throw new AppError('InvalidRequest', `Invalid input: ${issues}`);
  }
  return runOperation({ useCases, actor }, id, parsed.data as OperationInput<typeof id>, options);
}

/**
 * The runner the REST routes are given: runs `id` for the actor of the request (with the base URL
 * of the links mailed for it: `baseUrlOf` the request), with the input its route parsed, through
 * {@link runOperation}.
 */
export function restRunner(useCases: UseCases): RunOperation {
  const actor = (c: Context<AppEnv>): Actor => ({ ...actorOf(c), baseUrl: () => baseUrlOf(c) });
  const run = <K extends OperationId>(c: Context<AppEnv>, id: K, input: OperationInput<K>) =>
    runOperation({ useCases, actor: actor(c) }, id, input);
  const cached = <K extends OperationId>(c: Context<AppEnv>, id: K, input: OperationInput<K>) => {
    const asking = actorOf(c);
    checkCaller(OPERATIONS[id].caller, asking);
    return REGISTRY[id].cached?.({ useCases, actor: asking }, input);
  };
  return Object.assign(run, { cached });
}
