/**
 * Every setting of marketlens, once: its key in a JSON config file, its environment variable, its
 * default and what it does. The README's settings table is checked against this list.
 */

/** How a setting's value is written in a config file. */
export type SettingType = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'sources';

/** One setting. */
export interface Setting {
  /** Key in the JSON config file. */
  key: string;
  /** Environment variable; it overrides the file. */
  env: string;
  type: SettingType;
  /** The default, as a person reads it. */
  default: string;
  description: string;
}

const s = (key: string, env: string, type: SettingType, def: string, description: string): Setting => ({
  key,
  env,
  type,
  default: def,
  description,
});

/** All settings, in the order the README lists them. */
export const SETTINGS: readonly Setting[] = [
  s(
    'env',
    'MARKETLENS_ENV',
    'string',
    'development',
    '`production`: no demo user, secrets required, JSON logs, owner-only files',
  ),
  s('host', 'HOST', 'string', '127.0.0.1', 'interface the server listens on'),
  s('port', 'PORT', 'integer', '8080', 'port (0 picks a free one)'),
  s(
    'dataDir',
    'MARKETLENS_DATA_DIR',
    'string',
    './data',
    'folder of the SQLite storage, the key file and the candle store',
  ),
  s(
    'database.url',
    'DATABASE_URL',
    'string',
    'SQLite in the data folder',
    '`postgres://user:password@host:5432/db` selects PostgreSQL 15+ (pooled; run `marketlens db migrate` first)',
  ),
  s(
    'redis.url',
    'REDIS_URL',
    'string',
    'none: state kept in process',
    '`redis://host:6379` (Redis 7 or Valkey): rate limits, allowances, caches and jobs shared by every instance; needs `database.url`',
  ),
  s(
    'secretKey',
    'MARKETLENS_SECRET_KEY',
    'string',
    'a key file in the data folder',
    'AES-256 key (32 bytes, base64) that encrypts exchange credentials; required in production',
  ),
  s(
    'previousSecretKey',
    'MARKETLENS_SECRET_KEY_PREVIOUS',
    'string',
    'none',
    'the key before a rotation: stored credentials that do not open with `secretKey` are tried with it, until `marketlens admin key rotate` re-encrypted them all',
  ),
  s(
    'publicUrl',
    'MARKETLENS_PUBLIC_URL',
    'string',
    "the request origin (loopback or this server's address only)",
    'public base URL (OAuth issuer, token audience); required in production',
  ),
  s(
    'mcpAllowedOrigins',
    'MARKETLENS_MCP_ALLOWED_ORIGINS',
    'list',
    'none',
    'browser origins besides the public one whose pages may call `/mcp`',
  ),
  s(
    'market',
    'MARKETLENS_MARKET',
    'sources',
    'simulated',
    '`simulated`, or sources tried in order: `ccxt:<venue>`, `yahoo`, `files:<dir>`',
  ),
  s(
    'marketRefreshMs',
    'MARKETLENS_MARKET_REFRESH_MS',
    'integer',
    '30000',
    'a stored series younger than this serves without an upstream call',
  ),
  s(
    'marketBackfill',
    'MARKETLENS_MARKET_BACKFILL',
    'integer',
    '5000',
    'candles read on the first use of a series (the deepest chart depth)',
  ),
  s(
    'marketTimeoutMs',
    'MARKETLENS_MARKET_TIMEOUT_MS',
    'integer',
    '10000',
    'an upstream market call slower than this fails (and is retried)',
  ),
  s(
    'candleStoreMb',
    'MARKETLENS_CANDLE_STORE_MB',
    'integer',
    '1024',
    'size bound of the candle store; least recently used series are evicted',
  ),
  s(
    'marketWarmMs',
    'MARKETLENS_MARKET_WARM_MS',
    'integer',
    '60000',
    'how often favorites and popular assets are refreshed in the background (0: never)',
  ),
  s('logLevel', 'MARKETLENS_LOG_LEVEL', 'string', 'info', 'log level: fatal, error, warn, info, debug, trace, silent'),
  s(
    'logFormat',
    'MARKETLENS_LOG_FORMAT',
    'string',
    'pretty (json in production)',
    '`json` (one object per line) or `pretty`',
  ),
  s(
    'logRequests',
    'MARKETLENS_LOG_REQUESTS',
    'string',
    'info',
    'the request lines below 400: `info`, `debug` (written only at log level debug), or a fraction such as `0.1` (that share kept at info); 4xx and 5xx lines are always written',
  ),
  s('metricsAllow', 'MARKETLENS_METRICS_ALLOW', 'list', 'loopback', 'addresses and CIDRs that may read `/metrics`'),
  s(
    'drainMs',
    'MARKETLENS_DRAIN_MS',
    'integer',
    '10000',
    'on SIGTERM, how long requests on open connections are still answered (with `Connection: close`) before idle connections are closed',
  ),
  s(
    'database.poolMax',
    'MARKETLENS_DB_POOL_MAX',
    'integer',
    '10',
    'PostgreSQL connections per process (instances and workers each hold a pool)',
  ),
  s(
    'jobs.checkMs',
    'MARKETLENS_JOBS_CHECK_MS',
    'integer',
    '30000',
    'how often each process checks that every repeatable job is scheduled in Redis (also at start and on each reconnection)',
  ),
  s(
    'readyMarketWindowMs',
    'MARKETLENS_READY_MARKET_WINDOW_MS',
    'integer',
    '600000',
    '`/readyz` needs a real market source to have answered within this window',
  ),
  s(
    'trustedProxies',
    'MARKETLENS_TRUSTED_PROXIES',
    'list',
    'none',
    'reverse proxies whose X-Forwarded-For is believed',
  ),
  s(
    'rateLimit',
    'MARKETLENS_RATE_LIMIT',
    'integer',
    '2000',
    'request units one client address may spend in any 60 s (routes weigh what they cost to serve)',
  ),
  s(
    'rateLimitIpv6Prefix',
    'MARKETLENS_RATE_LIMIT_IPV6_PREFIX',
    'integer',
    '64',
    'IPv6 addresses sharing this many leading bits count as one client (rate limit, login and sign-up, connections)',
  ),
  s(
    'minClientVersion',
    'MARKETLENS_MIN_CLIENT_VERSION',
    'string',
    '3.0.0',
    'mobile builds below it fail the supported-client check',
  ),
  s('newsFeeds', 'MARKETLENS_NEWS_FEEDS', 'list', 'the example feed', 'RSS/Atom URLs or file paths (empty: no news)'),
  s(
    'openaiBaseUrl',
    'MARKETLENS_OPENAI_BASE_URL',
    'string',
    'none',
    'OpenAI-compatible endpoint that rewrites the overview (with the two below)',
  ),
  s('openaiApiKey', 'MARKETLENS_OPENAI_API_KEY', 'string', 'none', 'its API key'),
  s('openaiModel', 'MARKETLENS_OPENAI_MODEL', 'string', 'none', 'its model'),
  s(
    'affiliateVolumeThresholdUsd',
    'MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD',
    'number',
    '10000',
    '30-day affiliate volume that qualifies (promotions, pilot)',
  ),
  s(
    'syncIntervalMs',
    'MARKETLENS_SYNC_INTERVAL_MS',
    'integer',
    '300000',
    'time between two syncs of a connected account',
  ),
  s('syncPollMs', 'MARKETLENS_SYNC_POLL_MS', 'integer', '5000', 'how often the sync looks for due connections'),
  s('syncConcurrency', 'MARKETLENS_SYNC_CONCURRENCY', 'integer', '4', 'connections synced at once'),
  s(
    'syncCallTimeoutMs',
    'MARKETLENS_SYNC_CALL_TIMEOUT_MS',
    'integer',
    '30000',
    'a venue call of a sync slower than this fails',
  ),
  s('syncBackoffBaseMs', 'MARKETLENS_SYNC_BACKOFF_BASE_MS', 'integer', '30000', 'first backoff after a failed sync'),
  s('syncBackoffMaxMs', 'MARKETLENS_SYNC_BACKOFF_MAX_MS', 'integer', '3600000', 'longest backoff'),
  s(
    'vapidPublicKey',
    'MARKETLENS_VAPID_PUBLIC_KEY',
    'string',
    'generated once, kept in storage',
    'Web Push VAPID public key (with the private key)',
  ),
  s('vapidPrivateKey', 'MARKETLENS_VAPID_PRIVATE_KEY', 'string', 'generated once', 'Web Push VAPID private key'),
  s(
    'vapidSubject',
    'MARKETLENS_VAPID_SUBJECT',
    'string',
    'mailto:push@marketlens.local',
    'mailto: or https: contact for push services',
  ),
  s(
    'emailVerification',
    'MARKETLENS_EMAIL_VERIFICATION',
    'string',
    'on in production, off otherwise',
    '`on`: sign-up mails a verification link and answers alike for taken addresses; unverified accounts cannot sign in or create keys, connections or alerts',
  ),
  s(
    'smtpUrl',
    'MARKETLENS_SMTP_URL',
    'string',
    'none',
    'SMTP server of the account mail: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465`; production with verification needs it or `mailFile`',
  ),
  s(
    'mailFile',
    'MARKETLENS_MAIL_FILE',
    'string',
    '`mail.txt` in the data folder (development); none in production',
    'absolute path of a file each mail is appended to, owner-only (0600), when there is no SMTP server; mail is never written to the log',
  ),
  s(
    'mailFrom',
    'MARKETLENS_MAIL_FROM',
    'string',
    'marketlens <no-reply@marketlens.local>',
    'From address of the account mail',
  ),
  s(
    'planCosts',
    'MARKETLENS_PLAN_COSTS',
    'list',
    "core's cost model per asset class",
    'round trip of published plans: `<class>[@<venue>]=<fee %>/<spread %>`, e.g. `coins=0.05/0.02,fx@oanda=0/0.01`',
  ),
  s(
    'signalMinExpectedR',
    'MARKETLENS_SIGNAL_MIN_EXPECTED_R',
    'number',
    '0',
    "a Buy or Sell is published only when its plan's expected R after costs, at the lower end of its 90% interval, is above this (R, -100..100)",
  ),
  s(
    'backtestIntervalMs',
    'MARKETLENS_BACKTEST_INTERVAL_MS',
    'integer',
    '3600000',
    'time between two runs of the backtest record job (the walk-forward beside the live track record); 0: never',
  ),
  s('pilot', 'MARKETLENS_PILOT', 'string', 'on', '`off` stops the plan publishing job and the pilot bot'),
  s(
    'pilotUniverse',
    'MARKETLENS_PILOT_UNIVERSE',
    'list',
    'bitcoin,ethereum,solana,binancecoin,ripple',
    'assets the pilot trades (those the market serves)',
  ),
  s('pilotTimeframe', 'MARKETLENS_PILOT_TIMEFRAME', 'string', 'h1', 'the pilot timeframe'),
  s('pilotIntervalMs', 'MARKETLENS_PILOT_INTERVAL_MS', 'integer', '60000', 'time between two pilot runs'),
  s('pilotEquityUsd', 'MARKETLENS_PILOT_EQUITY_USD', 'integer', '10000', 'the pilot starting equity'),
  s('pilotRiskPct', 'MARKETLENS_PILOT_RISK_PCT', 'number', '1', 'risk per pilot trade, % of equity'),
  s('pilotLeverage', 'MARKETLENS_PILOT_LEVERAGE', 'integer', '5', 'pilot leverage'),
];

/** The setting with this config-file key. */
export const SETTING_BY_KEY: ReadonlyMap<string, Setting> = new Map(SETTINGS.map((x) => [x.key, x]));
