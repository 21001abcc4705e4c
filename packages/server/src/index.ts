/**
 * @marketlens/server: the hosting shell of the marketlens REST service: storage, accounts,
 * sessions, tiers, API keys, limits, client-version gates, OpenAPI 3.1 and /docs.
 */

export { DEMO_EMAIL, type DemoCredentials, grantUserTier, seedDemo, setUserTier } from './admin.js';
export { type App, type CreateAppOptions, createApp, OPENAPI_PATH, SERVICE_VERSION } from './app.js';
export type { AppDeps, AppEnv, Caller, ClientInfo, ServerConfig } from './env.js';
export { DEFAULT_CONFIG } from './env.js';
export { type Envelope, ErrorResponseSchema, envelopeOf, ok } from './envelope/envelope.js';
export { AppError, ERROR_CODES, type ErrorCode, type ErrorName, type ErrorStatus } from './errors/app-error.js';
export { RELEASE_FEED_PATH } from './feed/route.js';
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
export { RATE_LIMIT_WEIGHTS } from './middleware/rate-limit/weights.js';
export { type Operation, operation } from './routes/operation.js';
export { openDataDir, optionsFromEnv, type RunningServer, type ServerOptions, startServer } from './server.js';
export { DEFAULT_FAVORITES } from './services/accounts.js';
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
export { API_KEY_DAILY_ALLOWANCE, grantTier, PROMOTION_PRO_DAYS, tierStanding } from './services/tiers.js';
export { createSqliteStorage, migrate } from './storage/sqlite/sqlite-storage.js';
export * from './storage/types.js';
