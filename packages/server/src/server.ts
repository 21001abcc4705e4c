import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import { createSimulatedVenue, type MarketData } from '@marketlens/exchanges';
import { type App, createApp, type Observability } from './app.js';
import { mailerOf } from './auth/verification/mailer.js';
import { startBackgroundJobs } from './background.js';
import { liveIn } from './live/live.js';
import { isMarketSources } from './market/market.js';
import { NewsFeeds } from './market/news/news.js';
import { mcpSessionsIn } from './mcp/sessions.js';
import { addressGroup, DEFAULT_IPV6_PREFIX } from './platform/client-ip.js';
import type { AppDeps, ServerConfig } from './platform/deps.js';
import { answerClientError } from './platform/errors/client-error.js';
import { InProcessJobs } from './platform/jobs/in-process.js';
import { type JobReporting, jobRunReporter } from './platform/jobs/report.js';
import type { JobRunner } from './platform/jobs/runner.js';
import { drain, trackResponses } from './platform/observability/drain.js';
import type { Readiness } from './platform/observability/health.js';
import { OBSERVED_SERVER_OPTIONS } from './platform/observability/response.js';
import { PLATFORM_SERVER_OPTIONS } from './platform/rate-limit/response.js';
import { guarded } from './platform/redis/client.js';
import type { SharedState } from './platform/redis/shared-state.js';
import { KEY_FILE_NAME, loadOrCreateKeyFile } from './platform/secrets.js';
import { createSqliteStorage } from './storage/sqlite/sqlite-storage.js';
import type { Storage } from './storage/types.js';
import type { UseCases } from './use-cases.js';

export interface ServerOptions {
  port: number;
  host: string;
  dataDir: string;
  config: ServerConfig;
  /** The credentials key (MARKETLENS_SECRET_KEY); absent: the key file in the data directory, created once. */
  credentialsKey?: Buffer;
  /** The key before a rotation (MARKETLENS_SECRET_KEY_PREVIOUS), still accepted for reading. */
  previousCredentialsKey?: Buffer;
  /** Bounds on client connections (defaults: {@link DEFAULT_CONNECTION_LIMITS}). */
  connections?: Partial<ConnectionLimits>;
}

/**
 * How long and how many connections a client may hold, so that slow or partial requests cannot
 * take every file descriptor (slowloris): a connection that has not sent a whole header block in
 * `headersTimeoutMs`, or a whole request in `requestTimeoutMs`, is answered 408 and closed.
 */
export interface ConnectionLimits {
  /** Time to receive a request's header block, from the connection or the previous request. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. */
  keepAliveTimeoutMs: number;
  /** Requests served on one keep-alive connection before it is closed. */
  maxRequestsPerSocket: number;
  /** Open connections from one client address (an IPv6 prefix, /64 by default, is one client); trusted proxies are exempt. */
  perIp: number;
  /** Open connections in all; beyond it new ones are closed at once (descriptors stay for storage and pushes). */
  total: number;
  /** How often the timeouts above are checked. */
  checkIntervalMs: number;
}

/** The process's limit on open files (Linux), or null where it cannot be read. */
function openFileLimit(): number | null {
  try {
    const soft = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return soft === undefined ? null : Number(soft);
  } catch {
    return null;
  }
}

/**
 * Open connections in all: the descriptor limit less 1,024 kept for SQLite, pushes and market
 * calls, at most 32,768 (about 11 KB of memory each while held); 8,192 where the limit is unknown.
 */
function defaultTotalConnections(): number {
  const limit = openFileLimit();
  return limit === null ? 8_192 : Math.max(256, Math.min(32_768, limit - 1_024));
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 1_000,
  perIp: 256,
  total: defaultTotalConnections(),
  checkIntervalMs: 1_000,
};

/** How long a refused request's connection stays half-closed for its answer to be read. */
const CLIENT_ERROR_LINGER_MS = 2_000;

/**
 * Closes a new connection at once when its peer already holds `perIp` (trusted proxies, which
 * carry many clients, are exempt); `server.maxConnections` bounds the total.
 */
function limitConnectionsPerPeer(server: Server, perIp: number, exempt: readonly string[], prefix: number): void {
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    if (exempt.includes(plain)) return;
    const key = addressGroup(address, prefix);
    const held = open.get(key) ?? 0;
    if (held >= perIp) {
      socket.destroy();
      return;
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** Creates the data folder when missing and makes it owner-only (0700) in every mode: it holds the database and the credentials key. */
function ownDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/** Opens the embedded SQLite storage in `dataDir` (created if missing, owner-only). */
export function openDataDir(dataDir: string): Storage {
  ownDataDir(dataDir);
  return createSqliteStorage(join(dataDir, 'marketlens.sqlite'));
}

export interface RunningServer {
  app: App;
  storage: Storage;
  url: string;
  close(): Promise<void>;
}

/** Default of the `readyMarketWindowMs` option of {@link startServer}: ten minutes. */
export const DEFAULT_READY_MARKET_WINDOW_MS = 600_000;

/**
 * Readiness: storage answers, the shared state answers (several instances), a real market source
 * answered within `marketWindowMs` (and its circuit is not open), and the server is not draining.
 * Each failed check says why. Redis' answer (or failure) and its time go to `onRedis` (metrics).
 */
async function readiness(
  storage: Storage,
  market: MarketData,
  draining: boolean,
  shared: SharedState | undefined,
  marketWindowMs: number,
  now: number,
  onRedis?: (up: boolean, seconds: number) => void,
): Promise<Readiness> {
  const checks: Readiness['checks'] = {};
  try {
    await storage.schemaVersion();
    checks.storage = { ok: true };
  } catch (err) {
    checks.storage = { ok: false, detail: err instanceof Error ? err.message : String(err) };
  }
  if (shared !== undefined) {
    const start = performance.now();
    try {
      await guarded(shared.redis, shared.redis.ping());
      checks.redis = { ok: true };
      onRedis?.(true, (performance.now() - start) / 1000);
    } catch (err) {
      checks.redis = { ok: false, detail: err instanceof Error ? err.message : String(err) };
      onRedis?.(false, (performance.now() - start) / 1000);
    }
  }
  if (isMarketSources(market)) checks.market = marketReadiness(market.status(), marketWindowMs, now);
  if (draining) checks.draining = { ok: false, detail: 'shutting down' };
  return { ok: Object.values(checks).every((c) => c.ok), checks };
}

/** What the market check of `/readyz` reads of each real source. */
export interface SourceReadiness {
  source: string;
  assets: number;
  breaker: string;
  last_success_at: number | null;
}

/**
 * The market check of `/readyz`: ready when one real source answered within `windowMs` of `now`
 * and its circuit is not open; else the reason (never answered, last answer too old, circuit
 * open), source by source.
 */
export function marketReadiness(
  status: readonly SourceReadiness[],
  windowMs: number,
  now: number,
): { ok: boolean; detail: string } {
  const fresh = (s: SourceReadiness) => s.last_success_at !== null && now - s.last_success_at <= windowMs;
  const ok = status.some((s) => fresh(s) && s.breaker !== 'open');
  const why = (s: SourceReadiness) => {
    if (s.last_success_at === null) return 'never answered';
    const at = `last answer ${new Date(s.last_success_at).toISOString()}`;
    if (!fresh(s)) return `${at}, older than ${Math.round(windowMs / 1000)} s`;
    return s.breaker === 'open' ? `${at}, circuit open` : `${at}, circuit ${s.breaker}`;
  };
  const lines = status.map((s) => `${s.source}: ${s.assets} assets, ${why(s)}`);
  return { ok, detail: status.length === 0 ? 'no market source configured' : lines.join('; ') };
}

/**
 * Starts the HTTP server and the background jobs; resolves once it listens (port 0 picks a free
 * port). Market data: the simulated venue unless given; jobs: in this process unless a runner is
 * given (BullMQ on Redis: the jobs are shared with the other instances and `marketlens worker`s).
 */
export async function startServer(
  options: ServerOptions,
  storage: Storage = openDataDir(options.dataDir),
  market: MarketData = createSimulatedVenue(),
  extra: Partial<Pick<AppDeps, 'accountFor' | 'verifyCredentials' | 'now' | 'mailer' | 'shared'>> & {
    /**
     * The app's deps, built by the composition root (`createMarketlens`) and shared with its MCP
     * backend; absent: built here from `options`, `storage`, `market` and the fields above. Their
     * news source is set here when they have none.
     */
    deps?: AppDeps;
    /** The use cases over `deps`, built by the composition root; absent: `createApp` builds them. */
    useCases?: UseCases;
    /** Refresh the favorites' and popular assets' analyses this often (real sources only; 0: never). */
    warmMs?: number;
    /** Request logs, metrics and `/metrics` (production); absent: `/healthz` and `/readyz` only. */
    observability?: Observability;
    /**
     * The drain period of a stop: for this long requests on open connections are answered (with
     * `connection: close`) before idle connections are closed; default 10 s.
     */
    drainMs?: number;
    /** `/readyz` needs a real market source to have answered within this window (default {@link DEFAULT_READY_MARKET_WINDOW_MS}). */
    readyMarketWindowMs?: number;
    /**
     * Where this process reports its jobs (a log line per run, the job metrics) and its stop
     * (`shutdown began`, `shutdown complete`); absent: failures alone, on stderr.
     */
    reporting?: JobReporting;
    /**
     * Where the background jobs run (closed with the server): absent, on timers in this process
     * (`InProcessJobs`); with Redis a `BullMqJobs` (its `work: false` for `serve --no-worker`).
     */
    jobs?: JobRunner;
  } = {},
): Promise<RunningServer> {
  const {
    deps: given,
    useCases,
    warmMs,
    observability,
    drainMs,
    jobs,
    readyMarketWindowMs,
    reporting,
    ...injected
  } = extra;
  const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const news = new NewsFeeds({
    ...options.config.news,
    onError: (feed, err) =>
      reporting !== undefined
        ? reporting.logger.warn({ feed, error: describe(err) }, 'news feed failed')
        : console.error(`[marketlens] news feed ${feed} failed:`, describe(err)),
  });
  ownDataDir(options.dataDir);
  const deps: AppDeps = given ?? {
    storage,
    config: options.config,
    now: Date.now,
    market,
    credentialsKey: options.credentialsKey ?? loadOrCreateKeyFile(join(options.dataDir, KEY_FILE_NAME)),
    ...(options.previousCredentialsKey !== undefined ? { previousCredentialsKey: options.previousCredentialsKey } : {}),
    mailer: mailerOf(options.config.mail, (line) => console.error(`[marketlens] ${line}`)),
    ...injected,
  };
  deps.news ??= news;
  let draining = false;
  const metrics = observability?.metrics;
  const onRedis = metrics === undefined ? undefined : (up: boolean, s: number) => metrics.redis(up, s);
  const ready = () =>
    readiness(
      storage,
      market,
      draining,
      deps.shared,
      readyMarketWindowMs ?? DEFAULT_READY_MARKET_WINDOW_MS,
      Date.now(),
      onRedis,
    );
  const app = createApp(deps, {
    ...(useCases !== undefined ? { useCases } : {}),
    observability: { ...observability, ready: { ready } },
  });
  news.start();
  // Account sync (connecting one syncs it at once), alerts and push delivery, the pilot with its
  // plan outcomes, and on real sources the market refresher.
  const background = await startBackgroundJobs(deps, jobs ?? new InProcessJobs(), {
    warmMs,
    ...(reporting !== undefined
      ? { onJobRun: jobRunReporter(reporting), log: (message: string) => reporting.logger.error(message) }
      : {}),
  });
  // Redis health for /metrics: a PING every 5 s (and at every /readyz).
  const shared = deps.shared;
  const redisWatch =
    onRedis === undefined || shared === undefined
      ? null
      : setInterval(() => {
          const start = performance.now();
          guarded(shared.redis, shared.redis.ping()).then(
            () => onRedis(true, (performance.now() - start) / 1000),
            () => onRedis(false, (performance.now() - start) / 1000),
          );
        }, 5_000);
  redisWatch?.unref();
  // Job backlog for /metrics: connections due for a sync, push deliveries due (read every 15 s, at most 10,000).
  const backlog =
    metrics === undefined
      ? null
      : setInterval(() => {
          const now = deps.now();
          void Promise.all([storage.connections.due(now, 10_000), storage.pushOutbox.due(now, 10_000)])
            .then(([syncs, pushes]) => {
              metrics.backlog('sync', syncs.length);
              metrics.backlog('push', pushes.length);
            })
            .catch(() => undefined);
        }, 15_000);
  backlog?.unref();
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  return new Promise((resolvePromise, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: options.port,
        hostname: options.host,
        serverOptions: {
          // The request id rides on the response class when requests are observed (see ObservedResponse).
          ...(observability?.logger !== undefined || observability?.metrics !== undefined
            ? OBSERVED_SERVER_OPTIONS
            : PLATFORM_SERVER_OPTIONS),
          headersTimeout: limits.headersTimeoutMs,
          requestTimeout: limits.requestTimeoutMs,
          keepAliveTimeout: limits.keepAliveTimeoutMs,
          connectionsCheckingInterval: limits.checkIntervalMs,
        },
      },
      (info) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolvePromise({
          app,
          storage,
          url: `http://${host}:${info.port}`,
          close: async () => {
            // Not ready any more (/readyz 503), no new connections, the requests on open ones
            // answered with connection: close for the drain period; then the jobs finish (or are
            // handed back to the queue) and storage closes.
            const began = performance.now();
            const period = drainMs ?? 10_000;
            draining = true;
            reporting?.logger.info({ drainMs: period, process: reporting.process }, 'shutdown began');
            if (backlog !== null) clearInterval(backlog);
            if (redisWatch !== null) clearInterval(redisWatch);
            // Live streams and MCP sessions' GET streams never end by themselves: closed first, so
            // the drain is not held by them.
            mcpSessionsIn(deps)?.close();
            await liveIn(deps)?.close();
            const drained = await drain(server as Server, { timeoutMs: period, inFlight });
            await Promise.all([news.stop(), background.stop()]);
            await storage.close();
            reporting?.logger.info(
              {
                durationMs: Math.round(performance.now() - began),
                answeredWhileDraining: drained.answered,
                forced: drained.forced,
                process: reporting.process,
              },
              'shutdown complete',
            );
          },
        });
      },
    );
    const http = server as Server;
    const inFlight = trackResponses(http);
    http.maxRequestsPerSocket = limits.maxRequestsPerSocket;
    http.maxConnections = limits.total;
    limitConnectionsPerPeer(
      http,
      limits.perIp,
      options.config.trustedProxies,
      options.config.rateLimit.ipv6Prefix ?? DEFAULT_IPV6_PREFIX,
    );
    // Requests the HTTP parser refuses (e.g. 431, headers too large, 408 too slow) get an answer
    // and the connection is half-closed; a client that never reads would keep it, and its
    // descriptor, for as long as it likes, so it is destroyed a moment later. Not at once: unread
    // request bytes would turn the close into a reset that can discard the answer on its way.
    server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
      answerClientError(err, socket);
      if (!socket.destroyed) setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
    });
    server.on('error', (err) => {
      if (redisWatch !== null) clearInterval(redisWatch);
      void news.stop();
      void background.stop();
      reject(err);
    });
  });
}
