import { z } from 'zod';
import { ConnectExchangeInput, ConnectionIdParams, UserConnectionSchema } from './accounts/connections.js';
import { AccountInfoSchema, MeSchema } from './accounts/me.js';
import {
  BalancesQuery,
  EditPositionInput,
  fillFilterOf,
  OrdersQuery,
  PositionAnalysisInput,
  PositionsQuery,
  TradesQuery,
} from './accounts/requests.js';
import {
  BalancesSchema,
  OrdersSchema,
  PortfolioSummarySchema,
  PositionAnalysisSchema,
  PositionSchema,
  PositionsSchema,
  TradesSchema,
} from './accounts/responses.js';
import { DeviceIdParams, PushDeviceSchema, PushSubscriptionSchema, VapidPublicKeySchema } from './alerts/devices.js';
import { NotificationLimitsSchema } from './alerts/limits.js';
import {
  NotificationIdSchema,
  NotificationPayloadSchema,
  NotificationPreferencesPatchSchema,
  NotificationPreferencesSchema,
} from './alerts/requests.js';
import { NotificationSchema } from './alerts/responses.js';
import {
  AlertWebhookIdSchema,
  AlertWebhookSchema,
  RegisterAlertWebhookInput,
  RegisteredAlertWebhookSchema,
} from './alerts/webhooks.js';
import {
  AdminApiKeysSchema,
  AdminCreateApiKeyInput,
  AdminCreatedApiKeySchema,
  AdminGrantPilotInput,
  AdminGrantTierInput,
  AdminOAuthClientRef,
  AdminOAuthClientRemovedSchema,
  AdminOAuthClientSchema,
  AdminPilotAccessSchema,
  AdminPilotRevokedSchema,
  AdminRevokeApiKeyInput,
  AdminRevokedApiKeySchema,
  AdminSessionsRevokedSchema,
  AdminSetTierInput,
  AdminUserDeletedSchema,
  AdminUserRef,
  AdminUserSchema,
  AdminUserStatusSchema,
} from './auth/admin.js';
import {
  AccountDeletedSchema,
  CredentialsSchema,
  DeleteAccountSchema,
  EmailAddressSchema,
  EmailVerifiedSchema,
  LogoutInput,
  PasswordResetConfirmSchema,
  PasswordResetDoneSchema,
  PasswordResetRequestedSchema,
  PendingVerificationSchema,
  SessionSchema,
  VerifyEmailQuery,
} from './auth/session.js';
import {
  ApiKeyCreditsSchema,
  ApiKeyIdParams,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
} from './keys/api-keys.js';
import { ConfigSchema } from './market/config.js';
import { FearGreedListSchema, InsightsSchema } from './market/insights.js';
import { ScreenerSchema, SignalListSchema } from './market/lists.js';
import { AssetIdParams, NewsItemSchema, NewsQuery, PopularAssetsQuery } from './market/queries.js';
import {
  AssetAnalysisInput,
  AssetListInput,
  AssetMarketsInput,
  AssetOverviewInput,
  ExchangeDetailInput,
  FavoriteInput,
  FearGreedInput,
  NoInput,
  PilotHistoryInput,
  ScreenerInput,
  SignalListInput,
} from './market/requests.js';
import {
  AnalysisSchema,
  AssetRowSchema,
  CandlesSchema,
  ExchangeDetailSchema,
  ExchangeSchema,
  FavoriteStateSchema,
  MarketsSchema,
  OverviewSchema,
  PopularAssetSchema,
  SignalResponseSchema,
} from './market/responses.js';
import {
  AssetTrackRecordQuery,
  PlanTrackRecordSchema,
  ServiceTrackRecordSchema,
  TrackRecordInput,
} from './market/track-record.js';
import { PilotSpectateSchema, PilotTrackRecordSchema } from './pilot/responses.js';
import {
  AdminCampaignSchema,
  AdminCreateCampaignInput,
  AdminCreatePromotionInput,
  AdminInvitationSchema,
  AdminInviteInput,
  AdminPromotionSchema,
} from './promotions/admin.js';
import { PromotionConnectionParams, PromotionSignUpWithUIDSchema } from './promotions/requests.js';
import {
  CampaignSchema,
  PromotionSchema,
  PromotionSignUpResultSchema,
  PromotionSignUpShowSchema,
  PromotionVolumeStandingSchema,
} from './promotions/responses.js';

/**
 * The caller an operation needs: `none` (anyone, no credential), `optional` (anyone; a credential
 * sent is checked and names the caller, whose standing the answer may reflect), `key` (a signed-in
 * user, by session or API key), `session` (a signed-in user by session only: API keys never reach
 * account data), `admin` (the operator, through the CLI only).
 */
export type CallerNeed = 'none' | 'optional' | 'key' | 'session' | 'admin';

/**
 * What an operation does to the service's state: `read` changes nothing, `write` adds or changes
 * the caller's data, `destructive` deletes it.
 */
export type OperationEffect = 'read' | 'write' | 'destructive';

/**
 * One use case of the service, declared once: its id (what the CLI invokes), its input (parsed)
 * and output (answered) schemas, the caller it needs and its effect. The server binds each id to
 * its use case; REST routes, MCP tools and the CLI are adapters over the declaration.
 */
export interface OperationDeclaration<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly summary: string;
  readonly input: I;
  readonly output: O;
  readonly caller: CallerNeed;
  readonly effect: OperationEffect;
  /** Whether repeating the call with the same input changes nothing more (every read is). */
  readonly idempotent: boolean;
  /** Whether the operation reaches outside the service (a webhook calls a URL the caller names). */
  readonly openWorld: boolean;
}

type Options = Partial<Pick<OperationDeclaration, 'idempotent' | 'openWorld'>>;

const read = <I extends z.ZodType, O extends z.ZodType>(
  summary: string,
  caller: CallerNeed,
  input: I,
  output: O,
): OperationDeclaration<I, O> => ({
  summary,
  input,
  output,
  caller,
  effect: 'read',
  idempotent: true,
  openWorld: false,
});

const change = <I extends z.ZodType, O extends z.ZodType>(
  effect: 'write' | 'destructive',
  summary: string,
  caller: CallerNeed,
  input: I,
  output: O,
  options: Options = {},
): OperationDeclaration<I, O> => ({
  summary,
  input,
  output,
  caller,
  effect,
  idempotent: options.idempotent ?? true,
  openWorld: options.openWorld ?? false,
});

/** What a deletion answers: nothing (REST `data: null`). */
const Deleted = z.null();

/**
 * Every operation the service's edges share, by id (`<feature>.<use case>`). The inputs are the
 * contract's request schemas as the use case takes them (timeframes in the REST spelling, fill
 * bounds in ms once parsed); the outputs are what REST answers in `data`.
 */
export const OPERATIONS = {
  // ---- market data ----
  'market.assets': read('The assets of a class, priced and sorted', 'key', AssetListInput, z.array(AssetRowSchema)),
  'market.popular': read('The assets most accounts favorite', 'key', PopularAssetsQuery, z.array(PopularAssetSchema)),
  'market.exchanges': read('The exchange catalog', 'key', NoInput, z.array(ExchangeSchema)),
  'market.exchange': read(
    'One exchange with pair counts and tickers',
    'key',
    ExchangeDetailInput,
    ExchangeDetailSchema,
  ),
  'market.favorites': read("The caller's favorite assets", 'session', AssetListInput, z.array(AssetRowSchema)),
  'market.addFavorite': change('write', 'Favorites an asset', 'session', FavoriteInput, FavoriteStateSchema),
  'market.news': read('News, newest first', 'session', NewsQuery, z.array(NewsItemSchema)),
  'market.removeFavorite': change('write', 'Removes a favorite', 'session', FavoriteInput, FavoriteStateSchema),
  'market.config': read(
    "The client configuration: timeframes, gates, signal controls, alert kinds, the caller's tier",
    'optional',
    NoInput,
    ConfigSchema,
  ),
  // ---- analysis ----
  'analysis.get': read('Analysis of an asset with zones and plan', 'key', AssetAnalysisInput, AnalysisSchema),
  'analysis.signal': read('Buy/Hold/Sell signal of an asset', 'key', AssetAnalysisInput, SignalResponseSchema),
  'analysis.overview': read('Narrative overview of an asset', 'key', AssetOverviewInput, OverviewSchema),
  'analysis.candles': read(
    'The candles an analysis reads, the live one apart',
    'key',
    AssetAnalysisInput,
    CandlesSchema,
  ),
  'analysis.markets': read('The markets of an asset', 'key', AssetMarketsInput, MarketsSchema),
  'analysis.signals': read('The signal list of an asset class', 'key', SignalListInput, SignalListSchema),
  'analysis.screener': read('Screener of an asset class', 'key', ScreenerInput, ScreenerSchema),
  'analysis.fearGreed': read('Assets ranked by Fear & Greed', 'key', FearGreedInput, FearGreedListSchema),
  'analysis.insights': read('Live prices of the top coins, funding, breadth', 'key', NoInput, InsightsSchema),
  'analysis.assetTrackRecord': read(
    "The service's track record on an asset",
    'key',
    z.object({ ...AssetIdParams.shape, ...AssetTrackRecordQuery.shape }),
    PlanTrackRecordSchema,
  ),
  'analysis.trackRecord': read("The service's track record", 'none', TrackRecordInput, ServiceTrackRecordSchema),
  // ---- accounts and sessions ----
  'auth.signup': change(
    'write',
    'Creates an account: a session, or a mailed verification link where verification is required',
    'none',
    CredentialsSchema,
    z.union([SessionSchema, PendingVerificationSchema]),
    { idempotent: false, openWorld: true },
  ),
  'auth.login': change('write', 'Opens a session', 'none', CredentialsSchema, SessionSchema, { idempotent: false }),
  'auth.logout': change('destructive', 'Ends a session', 'session', LogoutInput, z.null()),
  'auth.verifyEmail': change(
    'write',
    'Verifies an email address with the token of its mailed link',
    'none',
    VerifyEmailQuery,
    EmailVerifiedSchema,
    { idempotent: false },
  ),
  'auth.resendVerification': change(
    'write',
    'Mails a new verification link',
    'none',
    EmailAddressSchema,
    PendingVerificationSchema,
    { idempotent: false, openWorld: true },
  ),
  'auth.requestPasswordReset': change(
    'write',
    'Mails a password reset link',
    'none',
    EmailAddressSchema,
    PasswordResetRequestedSchema,
    { idempotent: false, openWorld: true },
  ),
  'auth.confirmPasswordReset': change(
    'write',
    'Sets a new password with a mailed reset token; every session of the account ends',
    'none',
    PasswordResetConfirmSchema,
    PasswordResetDoneSchema,
    { idempotent: false },
  ),
  'auth.deleteAccount': change(
    'destructive',
    'Deletes the account and everything of it, the password given again',
    'session',
    DeleteAccountSchema,
    AccountDeletedSchema,
    { idempotent: false },
  ),
  // ---- the signed-in user ----
  'auth.me': read('The account of the current session', 'session', NoInput, MeSchema),
  'auth.accountInfo': read('The signed-in user, its tier and favorites', 'session', NoInput, AccountInfoSchema),
  // ---- the user's exchange accounts ----
  'accounts.positions': read('Open positions with totals', 'session', PositionsQuery, PositionsSchema),
  'accounts.summary': read(
    'Portfolio totals, balance total and sync standing',
    'session',
    NoInput,
    PortfolioSummarySchema,
  ),
  'accounts.balances': read('Balances with their total', 'session', BalancesQuery, BalancesSchema),
  'accounts.orders': read('Orders aggregated from fills', 'session', OrdersQuery.transform(fillFilterOf), OrdersSchema),
  'accounts.trades': read('Individual fills', 'session', TradesQuery.transform(fillFilterOf), TradesSchema),
  'accounts.positionAnalysis': read(
    'Descriptive analysis of a position',
    'session',
    PositionAnalysisInput,
    PositionAnalysisSchema,
  ),
  'accounts.editPosition': change('write', "Edits a position's notes", 'session', EditPositionInput, PositionSchema),
  'accounts.connections': read(
    "The caller's connected exchange accounts",
    'session',
    NoInput,
    z.array(UserConnectionSchema),
  ),
  'accounts.connect': change(
    'write',
    'Connects an exchange account (read-only credentials, verified against the exchange)',
    'session',
    ConnectExchangeInput,
    UserConnectionSchema,
    { idempotent: false, openWorld: true },
  ),
  'accounts.disconnect': change(
    'destructive',
    'Disconnects an exchange account',
    'session',
    ConnectionIdParams,
    Deleted,
  ),
  // ---- API keys ----
  'keys.list': read("The caller's API keys", 'session', NoInput, z.array(ApiKeySchema)),
  'keys.create': change('write', 'Creates an API key', 'session', CreateApiKeySchema, CreatedApiKeySchema, {
    idempotent: false,
  }),
  'keys.credits': read('Live daily API-key allowance', 'session', NoInput, ApiKeyCreditsSchema),
  'keys.revoke': change('destructive', 'Revokes an API key', 'session', ApiKeyIdParams, Deleted),
  // ---- alerts ----
  'alerts.list': read("The caller's alerts", 'session', NoInput, z.array(NotificationSchema)),
  'alerts.create': change('write', 'Creates an alert', 'session', NotificationPayloadSchema, NotificationSchema, {
    idempotent: false,
  }),
  'alerts.update': change(
    'write',
    "Replaces an alert's payload (re-arms it)",
    'session',
    z.object({ alert_id: NotificationIdSchema, payload: NotificationPayloadSchema }),
    NotificationSchema,
  ),
  'alerts.delete': change(
    'destructive',
    'Deletes an alert',
    'session',
    z.object({ alert_id: NotificationIdSchema }),
    Deleted,
  ),
  'alerts.limits': read('Active alerts against the account cap', 'session', NoInput, NotificationLimitsSchema),
  'alerts.preferences': read('Notification preferences', 'session', NoInput, NotificationPreferencesSchema),
  'alerts.updatePreferences': change(
    'write',
    'Changes notification preferences',
    'session',
    NotificationPreferencesPatchSchema,
    NotificationPreferencesSchema,
  ),
  'alerts.registerWebhook': change(
    'write',
    'Registers a signed alert webhook',
    'session',
    RegisterAlertWebhookInput,
    RegisteredAlertWebhookSchema,
    { idempotent: false, openWorld: true },
  ),
  'alerts.webhooks': read("The caller's alert webhooks", 'session', NoInput, z.array(AlertWebhookSchema)),
  'alerts.deleteWebhook': change(
    'destructive',
    'Deletes an alert webhook',
    'session',
    z.object({ webhook_id: AlertWebhookIdSchema }),
    Deleted,
  ),
  // ---- push devices ----
  'alerts.vapidPublicKey': read('The VAPID public key to subscribe with', 'none', NoInput, VapidPublicKeySchema),
  'alerts.registerDevice': change(
    'write',
    'Registers (or refreshes) a Web Push subscription',
    'session',
    PushSubscriptionSchema,
    PushDeviceSchema,
  ),
  'alerts.devices': read(
    "The caller's push devices, inactive ones included",
    'session',
    NoInput,
    z.array(PushDeviceSchema),
  ),
  'alerts.removeDevice': change('destructive', 'Removes a push device', 'session', DeviceIdParams, Deleted),
  // ---- the pilot ----
  'pilot.spectate': read("The pilot's open positions", 'session', NoInput, PilotSpectateSchema),
  'pilot.trackRecord': read("The pilot's closed trades, a page", 'session', PilotHistoryInput, PilotTrackRecordSchema),
  // ---- promotions ----
  'promotions.available': read('Promotions the caller has not claimed', 'session', NoInput, z.array(PromotionSchema)),
  'promotions.campaigns': read('Live campaigns in random order', 'session', NoInput, z.array(CampaignSchema)),
  'promotions.random': read('One promotion the caller has not claimed, at random', 'session', NoInput, PromotionSchema),
  'promotions.volume': read(
    'The 30-day affiliate volume standing (grants Elite while it qualifies)',
    'session',
    NoInput,
    PromotionVolumeStandingSchema,
  ),
  'promotions.get': read('The promotion of an exchange', 'session', PromotionConnectionParams, PromotionSchema),
  'promotions.signUpShown': read(
    'Whether to show the promotion sign-up form',
    'session',
    PromotionConnectionParams,
    PromotionSignUpShowSchema,
  ),
  'promotions.signUp': change(
    'write',
    'Verifies the exchange UID and claims the promotion',
    'session',
    z.object({ ...PromotionConnectionParams.shape, ...PromotionSignUpWithUIDSchema.shape }),
    PromotionSignUpResultSchema,
  ),
  // ---- the operator (`marketlens admin ...`; served neither over REST nor over MCP) ----
  'admin.user': read('A user: base and effective tier, the grant in force', 'admin', AdminUserRef, AdminUserSchema),
  'admin.users': read('Every user, oldest first', 'admin', NoInput, z.array(AdminUserSchema)),
  'admin.setTier': change('write', "Sets a user's base tier", 'admin', AdminSetTierInput, AdminUserSchema),
  'admin.grantTier': change(
    'write',
    'Grants a user a tier for some days',
    'admin',
    AdminGrantTierInput,
    AdminUserSchema,
    {
      idempotent: false,
    },
  ),
  'admin.apiKeys': read("A user's API keys (revoked ones kept for audit)", 'admin', AdminUserRef, AdminApiKeysSchema),
  'admin.createApiKey': change(
    'write',
    'Creates an API key for a user, shown once',
    'admin',
    AdminCreateApiKeyInput,
    AdminCreatedApiKeySchema,
    { idempotent: false },
  ),
  'admin.revokeApiKey': change(
    'destructive',
    "Revokes one of a user's API keys",
    'admin',
    AdminRevokeApiKeyInput,
    AdminRevokedApiKeySchema,
  ),
  'admin.grantPilot': change(
    'write',
    'Lets a user spectate the pilot for some days',
    'admin',
    AdminGrantPilotInput,
    AdminPilotAccessSchema,
    { idempotent: false },
  ),
  'admin.revokePilot': change(
    'destructive',
    "Ends a user's pilot grant",
    'admin',
    AdminUserRef,
    AdminPilotRevokedSchema,
  ),
  'admin.revokeSessions': change(
    'destructive',
    'Ends every session of a user',
    'admin',
    AdminUserRef,
    AdminSessionsRevokedSchema,
  ),
  'admin.deleteUser': change(
    'destructive',
    'Deletes a user and everything of theirs',
    'admin',
    AdminUserRef,
    AdminUserDeletedSchema,
    { idempotent: false },
  ),
  'admin.disableUser': change('write', 'Disables a user', 'admin', AdminUserRef, AdminUserStatusSchema),
  'admin.enableUser': change('write', 'Enables a disabled user again', 'admin', AdminUserRef, AdminUserStatusSchema),
  'admin.oauthClients': read(
    'Every OAuth client (MCP app), oldest first',
    'admin',
    NoInput,
    z.array(AdminOAuthClientSchema),
  ),
  'admin.removeOAuthClient': change(
    'destructive',
    'Removes an OAuth client with its codes and tokens',
    'admin',
    AdminOAuthClientRef,
    AdminOAuthClientRemovedSchema,
  ),
  'admin.promotions': read(
    'Every promotion, oldest first, with its invited and claimed counts',
    'admin',
    NoInput,
    z.array(AdminPromotionSchema),
  ),
  'admin.createPromotion': change(
    'write',
    "Publishes an exchange's promotion (one per exchange)",
    'admin',
    AdminCreatePromotionInput,
    AdminPromotionSchema,
    { idempotent: false },
  ),
  'admin.campaigns': read(
    'Every campaign, closed ones too, by registration close',
    'admin',
    NoInput,
    z.array(AdminCampaignSchema),
  ),
  'admin.createCampaign': change(
    'write',
    'Publishes a campaign banner, live until its registration closes',
    'admin',
    AdminCreateCampaignInput,
    AdminCampaignSchema,
    { idempotent: false },
  ),
  'admin.invite': change(
    'write',
    "Invites an account to an exchange's promotion (again: nothing changes)",
    'admin',
    AdminInviteInput,
    AdminInvitationSchema,
  ),
} as const satisfies Record<string, OperationDeclaration>;

/** The id of a declared operation. */
export type OperationId = keyof typeof OPERATIONS;

/** What the use case of `K` takes: its input schema's output (defaults applied, spellings normalized). */
export type OperationInput<K extends OperationId> = z.output<(typeof OPERATIONS)[K]['input']>;

/** What `K` answers: REST's `data`, MCP's structured content (before a list is wrapped). */
export type OperationOutput<K extends OperationId> = z.output<(typeof OPERATIONS)[K]['output']>;

/** Whether `id` names a declared operation. */
export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(OPERATIONS, id);
}
