import { OpenAPIHono } from '@hono/zod-openapi';
import { SERVICE_VERSION } from '@marketlens/contract';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { registerConnectionRoutes } from './accounts/routes/v1-connections.js';
import { registerOrderRoutes } from './accounts/routes/v1-orders.js';
import { portfolioRoutes } from './accounts/routes/v2-portfolio.js';
import { registerPositionRoutes } from './accounts/routes/v2-positions.js';
import { deviceRoutes } from './alerts/routes/v1-devices.js';
import { notificationPreferenceRoutes } from './alerts/routes/v1-notification-preferences.js';
import { registerNotificationRoutes } from './alerts/routes/v1-notifications.js';
import { registerAnalysisRoutes } from './analysis/routes/v2-analysis.js';
import { registerInsightRoutes } from './analysis/routes/v2-insights.js';
import { registerScreenerRoutes } from './analysis/routes/v2-screener.js';
import { trackRecordRoutes } from './analysis/routes/v2-track-record.js';
import { authStep } from './auth/authorize.js';
import { registerOAuthRoutes } from './auth/oauth/routes.js';
import { registerAuthRoutes } from './auth/routes/v1-auth.js';
import { SessionCache } from './auth/session-cache.js';
import { apiKeyRecord } from './auth/tiers.js';
import { refuseQueryKey } from './keys/query-key.js';
import { apiKeyRoutes } from './keys/routes/v1-api-keys.js';
import { publishUserEvent } from './live/live.js';
import { registerStreamRoutes } from './live/routes/v2-stream.js';
import { registerLegacyAssetRoutes } from './market/routes/v1-assets.js';
import { exchangeRoutes } from './market/routes/v1-exchanges.js';
import { newsRoutes } from './market/routes/v1-news.js';
import { assetRoutes } from './market/routes/v2-assets.js';
import { registerConfigRoutes } from './market/routes/v2-config.js';
import { registerMcpRoutes } from './mcp/route.js';
import { restRunner } from './operations.js';
import { pilotRoutes } from './pilot/routes/pilot.js';
import { clientIpOf } from './platform/client-ip.js';
import type { AppDeps, AppEnv } from './platform/deps.js';
import { fixNullableRefs } from './platform/docs/nullable-refs.js';
import { registerDocsUi } from './platform/docs/swagger.js';
import { type ErrorLogger, errorHandler, notFoundHandler } from './platform/errors/handler.js';
import { RELEASE_FEED_PATH, registerReleaseFeed } from './platform/feed/route.js';
import { type HealthCheck, healthRoutes } from './platform/observability/health.js';
import type { Metrics } from './platform/observability/metrics.js';
import { metricsRoute } from './platform/observability/metrics-route.js';
import { observeRequests } from './platform/observability/observe.js';
import type { RequestLogPolicy } from './platform/observability/request-log.js';
import { registerResponseHeaders, rejectInvalid, serveOperations } from './platform/operation.js';
import { before, platformSteps } from './platform/pipeline.js';
import { serveTable } from './platform/rest-table.js';
import { MemoRouter } from './platform/router/memo-router.js';
import { registerAppFiles } from './platform/web/app-files.js';
import { promotionRoutes } from './promotions/routes/v1-promotions.js';
import { createUseCases, type UseCases } from './use-cases.js';

/** The version of the service the OpenAPI document reports. */
export { SERVICE_VERSION };
export const OPENAPI_PATH = '/docs/openapi.json';

export interface CreateAppOptions {
  logError?: ErrorLogger;
  /** Request logs, metrics and readiness (production); absent: `/healthz` and `/readyz` only. */
  observability?: Observability;
  /** The use cases over `deps`, when the composition root built them (shared with MCP); absent: built here. */
  useCases?: UseCases;
  /** The web app's built files served at `/app`; absent: `dist` of the installed `@marketlens/web`. */
  appDir?: string | null;
}

/** What the server observes and publishes about itself. */
export interface Observability {
  /** One JSON line per request, with its id and client address. */
  logger?: Logger;
  /** Where the lines of requests answered below 400 go (default `info`; see `RequestLogPolicy`). */
  requests?: RequestLogPolicy;
  /** Prometheus metrics, served at `/metrics`. */
  metrics?: Metrics;
  /** Addresses and CIDRs that may read `/metrics` (empty: loopback only). */
  metricsAllow?: readonly string[];
  /** What `/readyz` asks; absent: storage answering. */
  ready?: HealthCheck;
}

export type App = OpenAPIHono<AppEnv>;

/** The REST app: platform steps, the /v1 and /v2 routes, OpenAPI and /docs. */
export function createApp(deps: AppDeps, options: CreateAppOptions = {}): App {
  // Completed in place, not copied: the app and the code that built its deps (the server's jobs,
  // the MCP backend) share one object, so what either adds later the other sees.
  deps.sessionCache ??= new SessionCache();
  // A fired alert is a user event of `live/`: alerts are given the publisher, neither imports the other.
  deps.onAlertTriggered ??= (userId, event) => publishUserEvent(deps, userId, 'alert', event);
  const useCases = options.useCases ?? createUseCases(deps);
  const app = new OpenAPIHono<AppEnv>({
    // hono's router with each recent path's answer remembered (see MemoRouter for why).
    router: new MemoRouter(),
    defaultHook: rejectInvalid,
  });
  // Deps, client IP, rate limit, query-key refusal, client-version gate: run inside each route's
  // handler (not as an `app.use` layer, which would make every request asynchronous), and for
  // requests no route answers.
  const watch = options.observability;
  const observe =
    watch?.logger !== undefined || watch?.metrics !== undefined
      ? observeRequests<AppEnv>({
          logger: watch.logger,
          metrics: watch.metrics,
          requests: watch.requests,
          // Set by the platform steps; a request refused before them gets it computed here.
          clientIp: (c) => c.var.clientIp ?? clientIpOf(c, deps.config.trustedProxies),
        })
      : undefined;
  const steps = platformSteps(deps, observe, {
    refuseCredentials: refuseQueryKey,
    validApiKey: async (key, d) => (await apiKeyRecord(d.storage, key, d.now())) !== null,
  });
  app.onError(errorHandler(options.logError));
  app.notFound(
    before(
      steps,
      notFoundHandler(() => app.routes),
    ),
  );
  const serve = serveOperations(app, steps, authStep);

  registerResponseHeaders(app.openAPIRegistry);
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'header',
    name: 'x-session-token',
    description:
      'Session token from POST /v1/auth/signup or /v1/auth/login. Sent together with an API key, the session is the one used: an invalid or expired session is answered 401 `InvalidSession` even beside a valid key (a credential that is present is never ignored).',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'api_key', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'API key (read-only market-data routes only). Never in the query string.',
  });

  // Each feature registers its routes over its own use cases, and over `run` (the registry of
  // operations, bound here) for the routes that serve a declared operation.
  const run = restRunner(useCases);
  registerAuthRoutes(serve, run);
  serveTable(serve, run, apiKeyRoutes);
  registerConfigRoutes(serve, run);
  registerAnalysisRoutes(serve, run);
  serveTable(serve, run, assetRoutes);
  registerScreenerRoutes(serve, run);
  registerInsightRoutes(serve, run);
  registerLegacyAssetRoutes(serve, run);
  serveTable(serve, run, exchangeRoutes);
  serveTable(serve, run, newsRoutes);
  registerConnectionRoutes(serve, run);
  registerPositionRoutes(serve, run);
  serveTable(serve, run, portfolioRoutes);
  registerOrderRoutes(serve, run);
  serveTable(serve, run, promotionRoutes);
  serveTable(serve, run, deviceRoutes);
  registerNotificationRoutes(serve, run);
  serveTable(serve, run, notificationPreferenceRoutes);
  serveTable(serve, run, trackRecordRoutes);
  serveTable(serve, run, pilotRoutes);
  registerStreamRoutes(serve, useCases.live);

  const documentConfig = (c: Context<AppEnv>) => ({
    openapi: '3.1.0',
    info: {
      title: 'marketlens',
      version: SERVICE_VERSION,
      description: `Technical-analysis and market-data service. Every success is an envelope \`{ code, success, data, message }\`; every failure an \`ErrorResponse\` with a stable \`code\`. Release feed: ${new URL(RELEASE_FEED_PATH, c.req.url).href}`,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'marketlens', url: 'https://github.com/marketlens/marketlens/issues' },
      'x-release-feed': RELEASE_FEED_PATH,
    },
    servers: [{ url: new URL(c.req.url).origin, description: 'This server' }],
    tags: [
      { name: 'Auth', description: 'Accounts and sessions' },
      { name: 'API keys', description: 'Keys for the read-only market-data routes' },
      { name: 'Config', description: 'Client configuration' },
      {
        name: 'Analysis',
        description:
          "Indicators, zones, the trade plan, the signal and the overview of one asset; and the service's own public track record of the plans it published (`/v2/track-record`)",
      },
      { name: 'Assets', description: 'Asset lists, favorites, the signal list and the screener' },
      { name: 'Insights', description: 'Live prices, funding, market breadth and Fear & Greed across assets' },
      { name: 'Exchanges', description: 'The venues marketlens reads, with volumes and tickers' },
      { name: 'Connections', description: "The user's read-only exchange connections" },
      { name: 'Positions', description: 'Open positions, balances and their assessment against the published zones' },
      { name: 'Orders', description: 'Orders and trades aggregated from the fills of the connections' },
      { name: 'Notifications', description: 'Alerts and notification preferences' },
      { name: 'Devices', description: 'Web Push devices that receive alerts' },
      { name: 'Promotions', description: 'Exchange promotions, campaigns and affiliate volume' },
      { name: 'Pilot', description: "The paper-trading pilot's positions and track record (spectate)" },
      { name: 'News', description: 'Market news from the configured feeds' },
      {
        name: 'Live',
        description: 'A stream of closed-candle analyses, prices, alerts and syncs (Server-Sent Events)',
      },
    ],
  });
  let openapiCache: {
    definitions: number;
    doc: ReturnType<typeof app.getOpenAPI31Document>;
    origin: string;
    text: string;
  } | null = null;
  app.get(
    OPENAPI_PATH,
    before(steps, (c) => {
      try {
        // Generating the document costs ~0.4 s of CPU and serialising it ~20 ms: generated once
        // per route table, serialised once per origin (the only request-dependent part: the
        // servers entry and the feed URL). One entry, so varied Host headers cannot grow it.
        const definitions = app.openAPIRegistry.definitions.length;
        const origin = new URL(c.req.url).origin;
        if (openapiCache === null || openapiCache.definitions !== definitions) {
          openapiCache = {
            definitions,
            doc: fixNullableRefs(app.getOpenAPI31Document(documentConfig(c))),
            origin: '',
            text: '',
          };
        }
        if (openapiCache.origin !== origin) {
          openapiCache.text = JSON.stringify({ ...openapiCache.doc, ...documentConfig(c) });
          openapiCache.origin = origin;
        }
        return c.body(openapiCache.text, 200, { 'content-type': 'application/json' });
      } catch (e) {
        return c.json(e, 500);
      }
    }),
  );
  // Liveness and readiness for load balancers and orchestrators; no platform steps (no limit to spend).
  app.route(
    '/',
    healthRoutes(
      watch?.ready ?? {
        ready: async () => {
          try {
            await deps.storage.schemaVersion();
            return { ok: true, checks: { storage: { ok: true } } };
          } catch (err) {
            return { ok: false, checks: { storage: { ok: false, detail: String(err) } } };
          }
        },
      },
    ),
  );
  if (watch?.metrics !== undefined) {
    const trusted = deps.config.trustedProxies;
    app.get(
      '/metrics',
      metricsRoute<AppEnv>(watch.metrics, watch.metricsAllow ?? [], (c) => clientIpOf(c, trusted)),
    );
  }
  registerDocsUi(app, steps);
  registerAppFiles(app, steps, options.appDir);
  registerReleaseFeed(app, steps);
  registerOAuthRoutes(app, steps);
  registerMcpRoutes(app, steps, useCases, {
    version: SERVICE_VERSION,
    ...(options.logError ? { logError: options.logError } : {}),
  });
  return app;
}
