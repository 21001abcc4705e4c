import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { registerDocsUi } from './docs/swagger.js';
import type { AppDeps, AppEnv } from './env.js';
import { AppError } from './errors/app-error.js';
import { type ErrorLogger, errorHandler, notFoundHandler } from './errors/handler.js';
import { RELEASE_FEED_PATH, registerReleaseFeed } from './feed/route.js';
import { before, platformSteps } from './middleware/platform/index.js';
import { servePlatform } from './routes/operation.js';
import { registerApiKeyRoutes } from './routes/v1/api-keys.js';
import { registerLegacyAssetRoutes } from './routes/v1/assets.js';
import { registerAuthRoutes } from './routes/v1/auth.js';
import { registerExchangeRoutes } from './routes/v1/exchanges.js';
import { registerNewsRoutes } from './routes/v1/news.js';
import { registerAnalysisRoutes } from './routes/v2/analysis.js';
import { registerAssetRoutes } from './routes/v2/assets.js';
import { registerConfigRoutes } from './routes/v2/config.js';
import { registerInsightRoutes } from './routes/v2/insights.js';
import { registerScreenerRoutes } from './routes/v2/screener.js';
import { SessionCache } from './services/session-cache.js';

/** The version of the service the OpenAPI document reports (section 9). */
export const SERVICE_VERSION = '2.10.55';
export const OPENAPI_PATH = '/docs/openapi.json';

export interface CreateAppOptions {
  logError?: ErrorLogger;
}

export type App = OpenAPIHono<AppEnv>;

/** The REST app: platform steps, the /v1 and /v2 routes, OpenAPI and /docs. */
export function createApp(appDeps: AppDeps, options: CreateAppOptions = {}): App {
  const deps: AppDeps = { ...appDeps, sessionCache: appDeps.sessionCache ?? new SessionCache() };
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = result.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.length > 0 ? i.path.join('.') : result.target}: ${i.message}`)
          .join('; ');
        throw new AppError('InvalidRequest', `Invalid ${result.target}: ${issues}`);
      }
    },
  });
  // Deps, client IP, rate limit, query-key refusal, client-version gate: run inside each route's
  // handler (not as an `app.use` layer, which would make every request asynchronous), and for
  // requests no route answers.
  const steps = platformSteps(deps);
  app.onError(errorHandler(options.logError));
  app.notFound(before(steps, notFoundHandler));
  servePlatform(app, steps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'header',
    name: 'x-session-token',
    description: 'Session token from POST /v1/auth/signup or /v1/auth/login.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'api_key', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'API key (read-only market-data routes only). Never in the query string.',
  });

  registerAuthRoutes(app);
  registerApiKeyRoutes(app);
  registerConfigRoutes(app);
  registerAnalysisRoutes(app);
  registerAssetRoutes(app);
  registerScreenerRoutes(app);
  registerInsightRoutes(app);
  registerLegacyAssetRoutes(app);
  registerExchangeRoutes(app);
  registerNewsRoutes(app);

  const documentConfig = (c: Context<AppEnv>) => ({
    openapi: '3.1.0',
    info: {
      title: 'marketlens',
      version: SERVICE_VERSION,
      description: `Technical-analysis and market-data service. Every success is an envelope \`{ code, success, data, message }\`; every failure an \`ErrorResponse\` with a stable \`code\`. Release feed: ${new URL(RELEASE_FEED_PATH, c.req.url).href}`,
      license: { name: 'MIT', identifier: 'MIT' },
      'x-release-feed': RELEASE_FEED_PATH,
    },
    servers: [{ url: new URL(c.req.url).origin, description: 'This server' }],
    tags: [
      { name: 'Auth', description: 'Accounts and sessions' },
      { name: 'API keys', description: 'Keys for the read-only market-data routes' },
      { name: 'Config', description: 'Client configuration' },
    ],
  });
  app.get(
    OPENAPI_PATH,
    before(steps, (c) => {
      try {
        return c.json(app.getOpenAPI31Document(documentConfig(c)));
      } catch (e) {
        return c.json(e, 500);
      }
    }),
  );
  registerDocsUi(app, steps);
  registerReleaseFeed(app, steps);
  return app;
}
