/**
 * @marketlens/server: the hosting shell of the marketlens REST service: storage, accounts,
 * sessions, tiers, API keys, limits, client-version gates, OpenAPI 3.1 and /docs.
 */

export { type Envelope, ErrorResponseSchema, envelopeOf, ok } from '@marketlens/contract';
export {
  DEMO_EMAIL,
  DEMO_PILOT_DAYS,
  type DemoCredentials,
  grantPilotAccess,
  grantUserTier,
  PILOT_GRANT_MAX_DAYS,
  revokePilotAccess,
  seedDemo,
  setUserTier,
} from './admin.js';
export {
  type AdminCampaign,
  type AdminInvitation,
  type AdminPromotion,
  createCampaignAdmin,
  createPromotionAdmin,
  invitePromotionAdmin,
  listCampaignsAdmin,
  listPromotionsAdmin,
} from './admin-promotions.js';
export { type App, type CreateAppOptions, createApp, OPENAPI_PATH, SERVICE_VERSION } from './app.js';
export {
  ConfigError,
  type LoadConfigInput,
  type LogConfig,
  loadConfig,
  type MarketConfig,
  type MarketlensConfig,
} from './config/load.js';
export { SETTINGS, type Setting, type SettingType } from './config/settings.js';
export type { AccountConnection, AppDeps, AppEnv, Caller, ClientInfo, ServerConfig, SyncConfig } from './env.js';
export { DEFAULT_CONFIG } from './env.js';
export { AppError, ERROR_CODES, type ErrorCode, type ErrorName, type ErrorStatus } from './errors/app-error.js';
export { RELEASE_FEED_PATH } from './feed/route.js';
export {
  createMarketlens,
  DATABASE_FILE,
  type Marketlens,
  type MarketlensOverrides,
  startupLines,
} from './marketlens.js';
export { MCP_CLIENT, type McpCaller, mcpBackend } from './mcp/backend.js';
export {
  type AuthSpec,
  authorize,
  OPTIONAL_SESSION_OR_API_KEY,
  PUBLIC,
  requireUser,
  SESSION_ONLY,
  SESSION_OR_API_KEY,
} from './middleware/auth/index.js';
export { clientInfo, compareVersions, parseVersion } from './middleware/client-version/index.js';
export { PLATFORM_SERVER_OPTIONS, PlatformResponse, type RateLimitHeaders } from './middleware/rate-limit/response.js';
export { RATE_LIMIT_WEIGHTS } from './middleware/rate-limit/weights.js';
export { MEMO_ROUTER_MAX_PATH_LENGTH, MEMO_ROUTER_MAX_PATHS, MemoRouter } from './router/memo-router.js';
export { type Operation, operation } from './routes/operation.js';
export { openDataDir, optionsFromEnv, type RunningServer, type ServerOptions, startServer } from './server.js';
export { DEFAULT_FAVORITES } from './services/accounts.js';
export { FREE_ALERT_LIMIT } from './services/alerts/limits.js';
export { AlertScheduler, evaluateAlerts, type TickReport } from './services/alerts/scheduler.js';
export {
  API_KEY_MAX_EXPIRES_DAYS,
  type ApiKeyView,
  createApiKey,
  isKeyActive,
  MAX_ACTIVE_API_KEYS,
  revokeApiKey,
} from './services/api-keys.js';
export {
  ALERT_KINDS,
  CHART_DEPTH,
  DEFAULT_TIMEFRAME,
  FREE_TIMEFRAMES,
  SIGNAL_TIMEFRAMES,
  TIMEFRAMES,
  type Timeframe,
} from './services/catalog.js';
export { configDocument, timeframeNeedsPro } from './services/config-document.js';
export {
  CONNECTABLE_VENUES,
  type ConnectInput,
  connectAccount,
  listConnections,
  MAX_CONNECTIONS_PER_USER,
  type UserConnectionView,
} from './services/connections.js';
export {
  CredentialsDecryptError,
  decryptCredentials,
  encryptCredentials,
  loadOrCreateKeyFile,
  parseCredentialsKey,
} from './services/credentials-crypto.js';
export { isMarketSources } from './services/market.js';
export { startMarketWarmer, WARM_ASSETS, warmMarket } from './services/market-warm.js';
export { type PilotRun, runPilotCycle } from './services/pilot/bot.js';
export { DEFAULT_PILOT_CONFIG, type PilotConfig, type PilotDeps, pilotConfigFromEnv } from './services/pilot/config.js';
export { type PilotScheduler, startPilot } from './services/pilot/scheduler.js';
export { type PlanAtEntryQuery, publishedPlanAtEntry, publishedRecordOf } from './services/plans/lookup.js';
export { advanceOutcomes, PLAN_COST_PCT } from './services/plans/outcomes.js';
export { publishPlans, recordServedPlan } from './services/plans/recorder.js';
export {
  type CampaignInput,
  PromotionAdminError,
  type PromotionAdminErrorCode,
  type PromotionInput,
} from './services/promotions/catalog.js';
export { affiliateThresholdUsd } from './services/promotions/config.js';
export { type EligibilityOptions, pilotEligible } from './services/promotions/eligibility.js';
export {
  AFFILIATE_ELITE_DAYS,
  DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD,
  readVolumeStanding,
  type VolumeStanding,
  volumeFigures,
} from './services/promotions/volume.js';
export { notifyPilotTrade, type PilotTradeNotice } from './services/push/pilot.js';
export { type DeliveryReport, deliverDue } from './services/push/sender.js';
export type { PushRequest, PushResponse, PushTransport } from './services/push/transport.js';
export { SESSION_CACHE_TTL_MS, SessionCache } from './services/session-cache.js';
export { type BackoffOptions, backoffDelay } from './services/sync/backoff.js';
export { type SyncContext, type SyncResult, syncConnection } from './services/sync/job.js';
export { SyncScheduler } from './services/sync/scheduler.js';
export { API_KEY_DAILY_ALLOWANCE, grantTier, PROMOTION_PRO_DAYS, tierStanding } from './services/tiers.js';
export {
  logMailer,
  type MailConfig,
  type Mailer,
  type MailMessage,
  smtpMailer,
} from './services/verification/mailer.js';
export { VERIFICATION_TTL_MS } from './services/verification/verification.js';
export * from './storage/account-types.js';
export type * from './storage/alerts-types.js';
export * from './storage/plans-types.js';
export * from './storage/promotions-types.js';
export { createSqliteStorage, migrate } from './storage/sqlite/sqlite-storage.js';
export * from './storage/types.js';
