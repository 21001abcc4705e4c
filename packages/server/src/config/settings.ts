/**
 * Every setting of marketlens, once: the one table of settings (key in a JSON config file,
 * environment variable, type, default, what it does), assembled from the rows each owner declares
 * in its `config.ts` (the convention of platform/settings.ts) and the process's own rows below.
 * config/load.ts reads the config file with it, each group's reader makes its slice of the
 * server's configuration (config/server-env.ts), and the README's Settings section is generated
 * from it (`settingsMarkdown`; `node packages/server/scripts/settings-table.mjs --write`) and checked.
 */
import { ACCOUNTS_SETTINGS } from '../accounts/config.js';
import { ALERTS_SETTINGS } from '../alerts/config.js';
import { ANALYSIS_SETTINGS } from '../analysis/config.js';
import { VERIFICATION_SETTINGS } from '../auth/verification/config.js';
import { MARKET_SETTINGS } from '../market/config.js';
import { MCP_SETTINGS } from '../mcp/config.js';
import { PILOT_SETTINGS } from '../pilot/config.js';
import { PLATFORM_SETTINGS } from '../platform/config.js';
import { type Setting, type SettingsGroup, setting } from '../platform/settings.js';
import { PROMOTIONS_SETTINGS } from '../promotions/config.js';

export type { Setting, SettingsGroup, SettingType } from '../platform/settings.js';

/**
 * The process's own settings: how it runs and where it keeps things (mode, address, data folder,
 * storage and shared-state engines, the credentials keys, the market data sources, logs, metrics,
 * shutdown, pool, jobs, readiness). config/load.ts and config/server-env.ts read them.
 */
export const PROCESS_SETTINGS: SettingsGroup = {
  owner: 'config/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('env', 'MARKETLENS_ENV', 'string', 'development', '`production`: no demo user, secrets required, JSON logs, owner-only files'),
    setting('host', 'HOST', 'string', '127.0.0.1', 'interface the server listens on'),
    setting('port', 'PORT', 'integer', '8080', 'port (0 picks a free one)'),
    setting('dataDir', 'MARKETLENS_DATA_DIR', 'string', './data', 'folder of the SQLite storage, the key file and the candle store'),
    setting('database.url', 'DATABASE_URL', 'string', 'SQLite in the data folder', '`postgres://user:password@host:5432/db` selects PostgreSQL 15+ (pooled; run `marketlens db migrate` first)'),
    setting('redis.url', 'REDIS_URL', 'string', 'none: state kept in process', '`redis://host:6379` (Redis 7 or Valkey): rate limits, allowances, caches and jobs shared by every instance; needs `database.url`'),
    setting('secretKey', 'MARKETLENS_SECRET_KEY', 'string', 'a key file in the data folder', 'AES-256 key (32 bytes, base64) that encrypts exchange credentials; required in production'),
    setting('previousSecretKey', 'MARKETLENS_SECRET_KEY_PREVIOUS', 'string', 'none', 'the key before a rotation: stored credentials that do not open with `secretKey` are tried with it, until `marketlens admin key rotate` re-encrypted them all'),
    setting('market', 'MARKETLENS_MARKET', 'sources', 'simulated', '`simulated`, or sources tried in order: `ccxt:<venue>`, `yahoo`, `files:<dir>`'),
    setting('marketRefreshMs', 'MARKETLENS_MARKET_REFRESH_MS', 'integer', '30000', 'a stored series younger than this serves without an upstream call'),
    setting('marketBackfill', 'MARKETLENS_MARKET_BACKFILL', 'integer', '5000', 'candles read on the first use of a series (the deepest chart depth)'),
    setting('marketTimeoutMs', 'MARKETLENS_MARKET_TIMEOUT_MS', 'integer', '10000', 'an upstream market call slower than this fails (and is retried)'),
    setting('candleStoreMb', 'MARKETLENS_CANDLE_STORE_MB', 'integer', '1024', 'size bound of the candle store; least recently used series are evicted'),
    setting('marketWarmMs', 'MARKETLENS_MARKET_WARM_MS', 'integer', '60000', 'how often favorites and popular assets are refreshed in the background (0: never)'),
    setting('logLevel', 'MARKETLENS_LOG_LEVEL', 'string', 'info', 'log level: fatal, error, warn, info, debug, trace, silent'),
    setting('logFormat', 'MARKETLENS_LOG_FORMAT', 'string', 'pretty (json in production)', '`json` (one object per line) or `pretty`'),
    setting('logRequests', 'MARKETLENS_LOG_REQUESTS', 'string', 'info', 'the request lines below 400: `info`, `debug` (written only at log level debug), or a fraction such as `0.1` (that share kept at info); 4xx and 5xx lines are always written'),
    setting('metricsAllow', 'MARKETLENS_METRICS_ALLOW', 'list', 'loopback', 'addresses and CIDRs that may read `/metrics`'),
    setting('drainMs', 'MARKETLENS_DRAIN_MS', 'integer', '10000', 'on SIGTERM, how long requests on open connections are still answered (with `Connection: close`) before idle connections are closed'),
    setting('database.poolMax', 'MARKETLENS_DB_POOL_MAX', 'integer', '10', 'PostgreSQL connections per process (instances and workers each hold a pool)'),
    setting('jobs.checkMs', 'MARKETLENS_JOBS_CHECK_MS', 'integer', '30000', 'how often each process checks that every repeatable job is scheduled in Redis (also at start and on each reconnection)'),
    setting('readyMarketWindowMs', 'MARKETLENS_READY_MARKET_WINDOW_MS', 'integer', '600000', '`/readyz` needs a real market source to have answered within this window'),
  ],
};

/**
 * The groups of the table, in the order the README lists them: the process's, then the
 * platform's, then each feature's.
 */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  PROCESS_SETTINGS,
  PLATFORM_SETTINGS,
  MCP_SETTINGS,
  MARKET_SETTINGS,
  ANALYSIS_SETTINGS,
  PROMOTIONS_SETTINGS,
  ACCOUNTS_SETTINGS,
  ALERTS_SETTINGS,
  VERIFICATION_SETTINGS,
  PILOT_SETTINGS,
];

/** All settings, in the order the README lists them. */
export const SETTINGS: readonly Setting[] = SETTINGS_GROUPS.flatMap((group) => group.rows);

/** The setting with this config-file key. */
export const SETTING_BY_KEY: ReadonlyMap<string, Setting> = new Map(SETTINGS.map((x) => [x.key, x]));

/**
 * The README's settings table (Markdown, the header and one row per setting), as
 * `node packages/server/scripts/settings-table.mjs --write` writes it between its markers.
 */
export function settingsMarkdown(settings: readonly Setting[] = SETTINGS): string {
  const lines = ['| config key | environment | type | default | what |', '|---|---|---|---|---|'];
  for (const x of settings) lines.push(`| \`${x.key}\` | \`${x.env}\` | ${x.type} | ${x.default} | ${x.description} |`);
  return lines.join('\n');
}
