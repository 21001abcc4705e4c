/**
 * @marketlens/server: the hosting shell of the marketlens REST service: storage, accounts,
 * sessions, tiers, API keys, limits, client-version gates, OpenAPI 3.1 and /docs.
 */

// Each feature's slice of ServerConfig and AppDeps is a global declaration in its config.ts (see
// `MarketlensServer` in platform/deps.ts): imported here so that the bundled declaration file holds
// every slice (a slice whose types no export names would be left out).
import './accounts/config.js';
import './alerts/config.js';
import './analysis/config.js';
import './auth/config.js';
import './auth/verification/config.js';
import './live/config.js';
import './market/config.js';
import './mcp/config.js';
import './pilot/config.js';
import './promotions/config.js';

export { type Envelope, ErrorResponseSchema, envelopeOf, ok } from '@marketlens/contract';
export type { AccountConnection, SyncConfig } from './accounts/config.js';
export {
  CONNECTABLE_VENUES,
  type ConnectInput,
  connectAccount,
  listConnections,
  MAX_CONNECTIONS_PER_USER,
  type UserConnectionView,
} from './accounts/connections.js';
export { type KeyRotationReport, rotateCredentialsKey } from './accounts/key-rotation.js';
export { type BackoffOptions, backoffDelay } from './accounts/sync/backoff.js';
export { type SyncContext, type SyncResult, syncConnection } from './accounts/sync/job.js';
export { SyncScheduler } from './accounts/sync/scheduler.js';
export type { AlertTriggeredEvent } from './alerts/config.js';
export { FREE_ALERT_LIMIT } from './alerts/limits.js';
export type { DeliveryReport } from './alerts/push/delivery.js';
export type { PilotTradeNotice } from './alerts/push/pilot.js';
export { deliverDue } from './alerts/push/sender.js';
export type { PushRequest, PushResponse, PushTransport } from './alerts/push/transport.js';
export { AlertScheduler, evaluateAlerts, type TickReport } from './alerts/scheduler.js';
// The analysis questions as REST answers them, for the CLI's `--json` (issue 39 item 5).
export { analysisWire } from './analysis/analysis.js';
export { startMarketWarmer, WARM_ASSETS, warmMarket } from './analysis/market-warm.js';
export { type PlanAtEntryQuery, publishedPlanAtEntry, publishedRecordOf } from './analysis/plans/lookup.js';
export { advanceOutcomes, PLAN_COST_PCT } from './analysis/plans/outcomes.js';
export { publishPlans, recordServedPlan } from './analysis/plans/recorder.js';
export { type AnalysisUseCases, analysisUseCases } from './analysis/use-cases.js';
export { type App, type CreateAppOptions, createApp, OPENAPI_PATH, SERVICE_VERSION } from './app.js';
export {
  disableUser,
  enableUser,
  grantUserTier,
  setUserTier,
  type UserStatusChange,
} from './auth/admin.js';
export {
  type AuthSpec,
  authorize,
  OPTIONAL_SESSION_OR_API_KEY,
  PUBLIC,
  requireUser,
  SESSION_ONLY,
  SESSION_OR_API_KEY,
} from './auth/authorize.js';
export { type AdminOAuthClient, listOAuthClients, removeOAuthClient } from './auth/oauth/admin.js';
export { SESSION_CACHE_TTL_MS, SessionCache } from './auth/session-cache.js';
export {
  API_KEY_DAILY_ALLOWANCE,
  grantTier,
  isKeyActive,
  PROMOTION_PRO_DAYS,
  tierStanding,
} from './auth/tiers.js';
export { DEFAULT_FAVORITES } from './auth/users.js';
export {
  droppingMailer,
  fileMailer,
  type MailConfig,
  type Mailer,
  type MailMessage,
  smtpMailer,
} from './auth/verification/mailer.js';
export { VERIFICATION_TTL_MS } from './auth/verification/verification.js';
// The pilot trade push wired to the pilot's eligibility (the composition root's, alerts import no pilot).
export { notifyPilotTrade } from './background.js';
export {
  ConfigError,
  type LoadConfigInput,
  type LogConfig,
  loadConfig,
  type MarketConfig,
  type MarketlensConfig,
} from './config/load.js';
export { optionsFromEnv } from './config/server-env.js';
export {
  SETTINGS,
  SETTINGS_GROUPS,
  type Setting,
  type SettingsGroup,
  type SettingType,
  settingsMarkdown,
} from './config/settings.js';
export { DEMO_EMAIL, DEMO_PILOT_DAYS, type DemoCredentials, seedDemo } from './demo.js';
export {
  API_KEY_MAX_EXPIRES_DAYS,
  type ApiKeyView,
  createApiKey,
  MAX_ACTIVE_API_KEYS,
  revokeApiKey,
} from './keys/api-keys.js';
export { type Live, type LiveOptions, type LiveTuning, liveIn } from './live/live.js';
export { configDocument, timeframeNeedsPro } from './market/config-document.js';
export { isMarketSources } from './market/market.js';
export {
  announceStart,
  createMarketlens,
  DATABASE_FILE,
  type Marketlens,
  type MarketlensOverrides,
  migrateStorage,
  startupLines,
} from './marketlens.js';
export { MCP_CLIENT, type McpCaller, mcpBackend } from './mcp/backend.js';
export { FairGate, type FairGateOptions, MCP_FAIRNESS } from './mcp/fair-gate.js';
export {
  authOf,
  checkCaller,
  type InvokeOptions,
  invokeOperation,
  type OperationBinding,
  type OperationContext,
  REGISTRY,
  runOperation,
} from './operations.js';
export { grantPilotAccess, PILOT_GRANT_MAX_DAYS, revokePilotAccess } from './pilot/admin.js';
export { type PilotRun, runPilotCycle } from './pilot/bot.js';
export { DEFAULT_PILOT_CONFIG, type PilotConfig, type PilotDeps, pilotConfigFromEnv } from './pilot/config.js';
export { type PilotScheduler, startPilot } from './pilot/scheduler.js';
export { clientInfo, compareVersions, parseVersion } from './platform/client-version.js';
export type { AppDeps, AppEnv, Caller, ClientInfo, ServerConfig } from './platform/deps.js';
export { DEFAULT_CONFIG } from './platform/deps.js';
export {
  AppError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorName,
  type ErrorStatus,
} from './platform/errors/app-error.js';
export { fromVenueError } from './platform/errors/venue-error.js';
export { RELEASE_FEED_PATH } from './platform/feed/route.js';
export { type Operation, operation } from './platform/operation.js';
export {
  ALERT_KINDS,
  CHART_DEPTH,
  DEFAULT_TIMEFRAME,
  FREE_TIMEFRAMES,
  SIGNAL_TIMEFRAMES,
  TIMEFRAMES,
  type Timeframe,
} from './platform/product-rules.js';
export { PLATFORM_SERVER_OPTIONS, PlatformResponse, type RateLimitHeaders } from './platform/rate-limit/response.js';
export { RATE_LIMIT_WEIGHTS } from './platform/rate-limit/weights.js';
export { openSharedState, type SharedState } from './platform/redis/shared-state.js';
export { MEMO_ROUTER_MAX_PATH_LENGTH, MEMO_ROUTER_MAX_PATHS, MemoRouter } from './platform/router/memo-router.js';
export {
  CredentialsDecryptError,
  decryptCredentials,
  encryptCredentials,
  loadOrCreateKeyFile,
  parseCredentialsKey,
} from './platform/secrets.js';
export {
  type AdminCampaign,
  type AdminInvitation,
  type AdminPromotion,
  createCampaignAdmin,
  createPromotionAdmin,
  invitePromotionAdmin,
  listCampaignsAdmin,
  listPromotionsAdmin,
} from './promotions/admin.js';
export { affiliateThresholdUsd } from './promotions/config.js';
export { type EligibilityOptions, pilotEligible } from './promotions/eligibility.js';
export {
  type CampaignInput,
  PromotionAdminError,
  type PromotionAdminErrorCode,
  type PromotionInput,
} from './promotions/promotions.js';
export {
  AFFILIATE_ELITE_DAYS,
  DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD,
  readVolumeStanding,
  type VolumeStanding,
  volumeFigures,
} from './promotions/volume.js';
export { openDataDir, type RunningServer, type ServerOptions, startServer } from './server.js';
export * from './storage/account-types.js';
export type * from './storage/alerts-types.js';
export { createStorage, type StorageConfig } from './storage/create-storage.js';
export * from './storage/plans-types.js';
export * from './storage/promotions-types.js';
export { createSqliteStorage, migrate } from './storage/sqlite/sqlite-storage.js';
export * from './storage/types.js';
export { createUseCases, type UseCases } from './use-cases.js';
