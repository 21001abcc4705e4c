import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceTrackRecord, TrackRecordQuery } from '@marketlens/contract';
import { type MarketData, openMarket, sourceName } from '@marketlens/exchanges';
import type { Backend } from '@marketlens/mcp';
import type { Logger } from 'pino';
import { refreshBacktest } from './analysis/backtest/backtest.js';
import { shareInvalidations } from './auth/session-cache.js';
import { mailerOf } from './auth/verification/mailer.js';
import { startWorker } from './background.js';
import { ConfigError, type MarketlensConfig, redact } from './config/load.js';
import { type DemoCredentials, seedDemo } from './demo.js';
import { isMarketSources } from './market/market.js';
import { MCP_CLIENT, type McpCaller, mcpBackend } from './mcp/backend.js';
import { type InvokeOptions, invokeOperation } from './operations.js';
import { pilotSeries } from './pilot/bot.js';
import { clientInfo } from './platform/client-version.js';
import type { AppDeps, Caller } from './platform/deps.js';
import { type JobReporting, queueReporters } from './platform/jobs/report.js';
import type { RunningWorker } from './platform/jobs/worker.js';
import { createLogger } from './platform/observability/logger.js';
import { createMetrics } from './platform/observability/metrics.js';
import { type MetricsListener, startMetricsListener } from './platform/observability/metrics-listener.js';
import { openSharedState, type SharedState } from './platform/redis/shared-state.js';
import { KEY_FILE_NAME, loadOrCreateKeyFile } from './platform/secrets.js';
import { type RunningServer, startServer } from './server.js';
import { createStorage } from './storage/create-storage.js';
import { migrateDatabaseCounting } from './storage/sql/migrate.js';
import type { SqlStorage } from './storage/sql/storage.js';
import { createSqliteStorage } from './storage/sqlite/sqlite-storage.js';
import type { Storage } from './storage/types.js';
import { createUseCases, type UseCases } from './use-cases.js';

/** The SQLite file in the data folder. */
export const DATABASE_FILE = 'marketlens.sqlite';

/** What a test or an embedding program may put in place of what the configuration names. */
export interface MarketlensOverrides {
  storage?: Storage;
  market?: MarketData;
  extra?: Partial<Pick<AppDeps, 'accountFor' | 'verifyCredentials' | 'now' | 'mailer'>>;
  /** Seed the demo user on the embedded default (default true; `marketlens mcp` picks its user itself). */
  demo?: boolean;
  /**
   * Whether {@link Marketlens.listen}'s process works background jobs (default true). False
   * (`marketlens serve --no-worker`) needs `redis.url`: the jobs are then only scheduled, and
   * `marketlens worker` processes work them.
   */
  work?: boolean;
}

/** marketlens, built from one configuration: storage, market data, and the server to start. */
export interface Marketlens {
  readonly config: MarketlensConfig;
  readonly storage: Storage;
  readonly market: MarketData;
  /** State shared with the other instances through Redis; null on one instance (no `redis.url`). */
  readonly shared: SharedState | null;
  /** A fresh session token and API key of the demo user on the embedded default; null in production. */
  readonly demo: DemoCredentials | null;
  /** The process's log (JSON lines in production, readable lines otherwise), on stderr. */
  readonly logger: Logger;
  /** Starts the HTTP server and the background jobs; resolves once it listens. */
  listen(): Promise<RunningServer>;
  /**
   * The MCP tools' backend acting as `caller` (`marketlens mcp` over stdio): the same use cases
   * the REST routes and `/mcp` call, over this instance's storage, market and shared state.
   */
  mcpBackend(caller: McpCaller): Required<Backend>;
  /**
   * Runs the declared operation `id` (`OPERATIONS` of @marketlens/contract: `analysis.get`,
   * `market.assets`, ...) as `caller` with raw `input`, as the CLI does: the input parsed by the
   * operation's schema, the caller checked against what it needs, the same use case REST and MCP run;
   * answers REST's `data`, or throws the `AppError` REST would answer (`InvalidRequest`, `NotFound` for
   * an unknown id, ...). The client is a desktop one (no mobile gates), as for MCP.
   */
  invoke(caller: Caller, id: string, input: unknown, options?: InvokeOptions): Promise<unknown>;
  /**
   * The service's track record as `GET /v2/track-record` answers it (`marketlens track-record`). With
   * `refreshBacktest`, the backtest record's job runs once on this instance first (else the record
   * shows the backtest this instance or, with Redis, the deployment's job last computed).
   */
  trackRecord(query: TrackRecordQuery, options?: { refreshBacktest?: boolean }): Promise<ServiceTrackRecord>;
  /**
   * `marketlens worker`: works the background jobs the instances schedule on Redis; resolves once
   * connected. Needs `redis.url`. With `metricsPort`, it also serves its metrics (the job runs it
   * worked) and `/healthz` there, on the configured host, to `metricsAllow` (loopback by default).
   */
  work(options?: { metricsPort?: number }): Promise<RunningWorker & { metricsUrl: string | null }>;
  /** Releases what {@link listen} did not take over (the market's timers, storage); idempotent. */
  close(): Promise<void>;
}

/**
 * Owner-only files in production: the data folder 0700, its files 0600 (SQLite's WAL and shared
 * memory files included), and a umask so that files created later are born that way.
 */
function protectDataDir(dir: string): void {
  process.umask(0o077);
  chmodSync(dir, 0o700);
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, 'credentials.key']) {
    const path = join(dir, name);
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}

/**
 * The storage the configuration names, migrated: PostgreSQL at `database.url` (pooled), else the
 * SQLite file in the data folder. An unreachable or refusing database fails here, naming it
 * (without its password).
 */
async function openStorage(config: MarketlensConfig): Promise<SqlStorage> {
  const candles = { maxBytes: config.market.storeBytes };
  const url = config.backend.databaseUrl;
  if (url === null) return createSqliteStorage(join(config.server.dataDir, DATABASE_FILE), { candles });
  try {
    return await createStorage({ url, candles, postgres: { max: config.ops.dbPoolMax } });
  } catch (err) {
    throw new ConfigError(`DATABASE_URL ${redact(url)} cannot be opened: ${messageOf(err)}`);
  }
}

function messageOf(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err instanceof Error ? err.message : String(err)}${cause}`;
}

/**
 * Runs the storage migrations the configuration names and nothing else (`marketlens db migrate`):
 * a deployment migrates once, before its instances start. Needs the database alone (load the
 * configuration with `purpose: 'migrate'`: no secret key). Returns the engine, the schema version
 * and how many migrations this run applied (0 when the schema was current).
 */
export async function migrateStorage(
  config: MarketlensConfig,
): Promise<{ engine: 'postgres' | 'sqlite'; version: number; applied: number; where: string }> {
  const url = config.backend.databaseUrl;
  if (url === null) {
    mkdirSync(config.server.dataDir, { recursive: true, mode: 0o700 });
    const file = join(config.server.dataDir, DATABASE_FILE);
    return { engine: 'sqlite', ...(await migrateDatabaseCounting(file)), where: file };
  }
  try {
    return { engine: 'postgres', ...(await migrateDatabaseCounting(url)), where: redact(url) };
  } catch (err) {
    throw new ConfigError(`DATABASE_URL ${redact(url)} cannot be migrated: ${messageOf(err)}`);
  }
}

/**
 * The composition root: builds storage (SQLite in the data folder, with the candle store), the
 * market data the configuration names (the simulated venue, or the real sources through the
 * store), and, on the embedded default only, the demo user. The server main, `marketlens serve`
 * and `marketlens mcp` all start here. A source that cannot be opened (an unreadable folder, a
 * broken file) fails here, before anything listens: the server never starts half-configured.
 */
export async function createMarketlens(
  config: MarketlensConfig,
  overrides: MarketlensOverrides = {},
): Promise<Marketlens> {
  const { dataDir } = config.server;
  if (config.production) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const opened = overrides.storage === undefined ? await openStorage(config) : null;
  const storage: Storage = overrides.storage ?? (opened as SqlStorage);
  const logger = createLogger({ format: config.log.format, level: config.log.level, destination: process.stderr });
  const metrics = createMetrics();
  if (opened !== null && opened.sql.engine === 'postgres') {
    const pool = opened.sql.pool;
    metrics.watchPool(() => ({
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
  }
  // How this process reports its jobs and its stop: `api-<pid>` or `worker-<pid>` (set by work()).
  const reporting: JobReporting = { logger, metrics, process: `api-${process.pid}` };
  let market: MarketData;
  try {
    market =
      overrides.market ??
      (await openMarket(config.market.sources, {
        store: storage.candles,
        stored: {
          backfill: config.market.backfill,
          refreshMs: config.market.refreshMs,
          onRead: (result) => metrics.cache('candles', result),
          onRepair: (key, report) => logger.warn({ series: key, repair: report }, 'upstream candles repaired'),
        },
        timeoutMs: config.market.timeoutMs,
        guard: {
          timeoutMs: config.market.timeoutMs,
          onCall: (call) => {
            metrics.upstream(call.source, call.outcome, call.ms / 1000);
            if (call.outcome !== 'ok') logger.warn({ upstream: call }, 'market source call failed');
          },
        },
        log: (message) => logger.error(message),
      }));
  } catch (err) {
    await storage.close();
    const names = config.market.sources.map(sourceName).join(',');
    throw new ConfigError(`market sources ${names}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let shared: SharedState | null = null;
  let stopSharing: (() => void) | null = null;
  if (config.backend.redisUrl !== null) {
    try {
      shared = await openSharedState(config.backend.redisUrl);
      stopSharing = await shareInvalidations(shared.invalidation);
    } catch (err) {
      await shared?.close();
      if (isMarketSources(market)) market.close();
      await storage.close();
      throw new ConfigError(
        `REDIS_URL ${redact(config.backend.redisUrl)} cannot be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (config.production) protectDataDir(dataDir);
  if (overrides.work === false && config.backend.redisUrl === null) {
    if (isMarketSources(market)) market.close();
    await shared?.close();
    await storage.close();
    throw new ConfigError(
      '--no-worker needs REDIS_URL (config key redis.url): the jobs are worked by `marketlens worker` processes',
    );
  }
  const demo = config.production || overrides.demo === false ? null : await seedDemo(storage);
  let started: RunningServer | null = null;
  let worker: (RunningWorker & { metricsUrl: string | null }) | null = null;
  let closed = false;
  // The one app of this process: its deps (and so its caches and opened venues) and its use cases
  // serve the REST server, the MCP backend and the worker alike; made on first use.
  let built: { deps: AppDeps; useCases: UseCases } | null = null;
  const application = (): { deps: AppDeps; useCases: UseCases } => {
    if (built !== null) return built;
    const deps: AppDeps = {
      storage,
      config: config.server.config,
      now: Date.now,
      market,
      // The key the server encrypts the data folder's connections with.
      credentialsKey: config.server.credentialsKey ?? loadOrCreateKeyFile(join(dataDir, KEY_FILE_NAME)),
      ...(config.server.previousCredentialsKey !== undefined
        ? { previousCredentialsKey: config.server.previousCredentialsKey }
        : {}),
      mailer: mailerOf(config.server.config.mail, (line) => console.error(`[marketlens] ${line}`)),
      ...(shared !== null ? { shared } : {}),
      ...overrides.extra,
    };
    built = { deps, useCases: createUseCases(deps) };
    return built;
  };
  return {
    config,
    storage,
    market,
    shared,
    demo,
    logger,
    async listen() {
      if (started !== null) return started;
      started = await startServer(config.server, storage, market, {
        ...application(),
        warmMs: config.market.warmMs,
        drainMs: config.ops.drainMs,
        readyMarketWindowMs: config.ops.readyMarketWindowMs,
        reporting,
        // With Redis the jobs run on BullMQ, shared with the other instances and the workers.
        ...(config.backend.redisUrl !== null
          ? {
              // BullMQ (and its Redis client) is loaded only by an instance that uses it.
              jobs: new (await import('./platform/jobs/bullmq.js')).BullMqJobs({
                url: config.backend.redisUrl,
                work: overrides.work ?? true,
                name: `marketlens-api-${process.pid}`,
                scheduleCheckMs: config.ops.jobsCheckMs,
                ...queueReporters(reporting),
              }),
            }
          : {}),
        // Request lines go to the log in production (or with MARKETLENS_LOG_FORMAT=json); metrics always count.
        observability: {
          ...(config.log.format === 'json' ? { logger } : {}),
          requests: config.log.requests,
          metrics,
          metricsAllow: config.metricsAllow,
        },
      });
      return started;
    },
    mcpBackend(caller) {
      const { deps, useCases } = application();
      return mcpBackend(deps, caller, useCases);
    },
    invoke(caller, id, input, options) {
      return invokeOperation(application().useCases, { caller, client: MCP_CLIENT }, id, input, options);
    },
    async trackRecord(query, options) {
      const { deps, useCases } = application();
      if (options?.refreshBacktest === true) await refreshBacktest(deps, undefined, pilotSeries);
      return useCases.analysis.serviceTrackRecord(
        { caller: { kind: 'anonymous' }, client: clientInfo(undefined, undefined) },
        query,
      );
    },
    async work(options) {
      if (worker !== null) return worker;
      const redisUrl = config.backend.redisUrl;
      const credentialsKey = config.server.credentialsKey;
      if (redisUrl === null || credentialsKey === undefined) {
        throw new ConfigError(
          'marketlens worker needs REDIS_URL (config key redis.url) and MARKETLENS_SECRET_KEY: it works the jobs the instances queue there',
        );
      }
      const workerReporting: JobReporting = { ...reporting, process: `worker-${process.pid}` };
      const running = await startWorker({
        config: config.server.config,
        storage,
        market,
        redisUrl,
        credentialsKey,
        deps: application().deps,
        warmMs: config.market.warmMs,
        reporting: workerReporting,
        queue: { scheduleCheckMs: config.ops.jobsCheckMs },
      });
      let listener: MetricsListener | null = null;
      if (options?.metricsPort !== undefined) {
        try {
          listener = await startMetricsListener(metrics, {
            host: config.server.host,
            port: options.metricsPort,
            allow: config.metricsAllow,
          });
        } catch (err) {
          await running.stop();
          throw new ConfigError(
            `--metrics-port ${options.metricsPort}: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
      worker = {
        metricsUrl: listener?.url ?? null,
        async stop() {
          await running.stop();
          await listener?.close();
        },
      };
      return worker;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (worker !== null) await worker.stop();
      if (isMarketSources(market)) market.close();
      if (started !== null) await started.close();
      else await storage.close();
      stopSharing?.();
      await shared?.close();
    },
  };
}

/**
 * Says that the server started: in JSON log format (production) one log line whose message is the
 * `marketlens server listening on ...` line of {@link startupLines} (the one operators and
 * supervisors look for, see deploy/README.md) and whose fields are the rest (never the demo
 * credentials, which production has not); otherwise the lines themselves, to `print`.
 */
export function announceStart(
  ml: Marketlens,
  server: RunningServer,
  paths: { openapi: string; feed: string },
  print: (text: string) => void,
): void {
  const lines = startupLines(ml, server, paths);
  if (ml.config.log.format !== 'json') {
    print(`${lines.join('\n')}\n`);
    return;
  }
  const { mail, emailVerification } = ml.config.server.config;
  ml.logger.info(
    {
      url: server.url,
      app: `${server.url}/app`,
      docs: `${server.url}/docs`,
      openapi: `${server.url}${paths.openapi}`,
      dataDir: ml.config.server.dataDir,
      market: ml.config.market.sources.map(sourceName),
      mail: mail?.smtpUrl ? { smtp: new URL(mail.smtpUrl).host } : 'log',
      emailVerification,
      production: ml.config.production,
      // Its credentials never go to a log: `marketlens admin` makes keys for it.
      demoUser: ml.demo?.email ?? null,
    },
    lines.find((line) => line.startsWith('marketlens server listening on ')) ?? 'marketlens server listening',
  );
}

/** What a start prints: where the server is, and on the embedded default the demo credentials. */
export function startupLines(
  ml: Marketlens,
  server: RunningServer,
  paths: { openapi: string; feed: string },
): string[] {
  const sources = ml.config.market.sources.map(sourceName).join(', ');
  const { mail, emailVerification } = ml.config.server.config;
  // The host only: the URL may hold the SMTP password.
  const mailTo = mail?.smtpUrl ? `SMTP ${new URL(mail.smtpUrl).host}` : 'the log (MARKETLENS_SMTP_URL unset)';
  const lines = [
    // The web app first: the address a person opens.
    `marketlens app:  ${server.url}/app`,
    `marketlens server listening on ${server.url}${ml.config.production ? ' (production)' : ''}`,
    `  docs:          ${server.url}/docs`,
    `  openapi:       ${server.url}${paths.openapi}`,
    `  release feed:  ${server.url}${paths.feed}`,
    `  data dir:      ${ml.config.server.dataDir}`,
    `  market:        ${sources}`,
    `  account mail:  ${mailTo}${emailVerification ? ', email verification required' : ''}`,
  ];
  if (ml.demo !== null) {
    lines.push(
      `  demo user:     ${ml.demo.email}`,
      `  session token: ${ml.demo.session_token}`,
      `  api key:       ${ml.demo.api_key}`,
      '',
      `  try: curl -s ${server.url}/v2/config -H 'x-api-key: ${ml.demo.api_key}'`,
      // `pnpm demo` and the server agree: both analyse the last closed candle, never the forming one.
      '  an analysis is for the last closed candle of its timeframe (as_of); the candle still forming is left out',
    );
  }
  return lines;
}
