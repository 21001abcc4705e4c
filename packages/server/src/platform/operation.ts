import { createRoute, type OpenAPIHono, type RouteConfig, type z } from '@hono/zod-openapi';
import { ErrorResponseSchema } from '@marketlens/contract';
import type { Handler } from 'hono';
import { type AuthSpec, authStep, securityOf } from '../auth/authorize.js';
import type { AppEnv } from './deps.js';
import type { ErrorStatus } from './errors/app-error.js';
import { asMiddleware, asSpeculativeMiddleware, before, type PlatformSteps, type Step, thenStep } from './pipeline.js';
import { honoPath } from './rate-limit/rate-limit.js';

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request (bad parameters, malformed JSON, API key in the query string)',
  401: 'Missing or invalid credential, or a credential this operation does not accept',
  402: 'Paid feature',
  403: 'Forbidden (e.g. unsupported client version)',
  404: 'Not found',
  405: 'Method not allowed on this path; see the Allow header',
  410: 'Gone',
  413: 'Request body too large',
  422: 'Unprocessable',
  429: 'Request budget or API-key allowance exceeded; see retry-after',
  431: 'Request headers too large',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** The response headers every answer carries: the caller's request budget (see `RATE_LIMIT_HEADERS`). */
const budgetHeaders = () =>
  Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  ) as Record<string, { $ref: string }>;

/** `retry-after` of a 429 (always) and a 503 (when the venue said how long). */
const retryAfter = { 'retry-after': { $ref: '#/components/headers/retry-after' } };

const error = (status: ErrorStatus) => ({
  description: DESCRIPTIONS[status],
  content: { 'application/json': { schema: ErrorResponseSchema } },
  headers: { ...budgetHeaders(), ...(status === 429 || status === 503 ? retryAfter : {}) },
});

/**
 * The shared response headers, registered once as components: the budget headers sent on every
 * answer, and `retry-after`.
 */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': 'Request units the caller may spend in any window',
  'x-ratelimit-remaining': 'Units left in the current window',
  'x-ratelimit-used': 'Units spent in the current window, this request included',
  'x-ratelimit-window': 'The window, in seconds (a sliding window)',
} as const;

/** Registers the shared response headers of every operation in `registry`. */
export function registerResponseHeaders(registry: OpenAPIHono<AppEnv>['openAPIRegistry']): void {
  for (const [name, description] of Object.entries(RATE_LIMIT_HEADERS)) {
    registry.registerComponent('headers', name, { description, schema: { type: 'integer', minimum: 0 } });
  }
  registry.registerComponent('headers', 'retry-after', {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
  });
}

/** `responses` with the budget headers declared on each. */
function withBudgetHeaders(responses: RouteConfig['responses']): RouteConfig['responses'] {
  const out: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(responses)) {
    const r = response as { headers?: Record<string, unknown> };
    out[status] = { ...response, headers: { ...budgetHeaders(), ...(r.headers ?? {}) } } as (typeof out)[string];
  }
  return out;
}

/** A JSON response of `schema` for an operation's `responses`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

type OperationConfig = Omit<RouteConfig, 'security' | 'middleware'> & { operationId: string; summary: string };

/**
 * One REST operation: its auth spec becomes both the caller check run before its handler (see
 * `servePlatform`) and the OpenAPI `security`, and every operation documents the failures every
 * operation can have.
 */
export type Operation<R extends OperationConfig> = R & { security: Record<string, string[]>[] };

const AUTH = new WeakMap<object, AuthSpec>();
/** Operations that overlap the rate limit's round trip with their own work (`RouteSteps.speculative`). */
const SPECULATIVE = new WeakSet<object>();

/** How an operation is served, beyond its auth spec. */
export interface OperationOptions {
  /**
   * Read-only operations whose handler awaits `admitted(c)` before any write or computation: a
   * shared (Redis) rate limit's verdict is then awaited in parallel with the request's own work
   * (see `RouteSteps.speculative` in platform/pipeline.ts).
   */
  speculative?: boolean;
}

export function operation<const R extends OperationConfig>(
  auth: AuthSpec,
  route: R,
  errors: readonly ErrorStatus[] = [],
  options: OperationOptions = {},
): Operation<R> {
  // 401 on every operation: even public ones refuse a bearer token (it reaches only /mcp).
  const statuses = new Set<ErrorStatus>([400, 401, 403, 429, 500, ...errors]);
  const errorResponses: Record<string, ReturnType<typeof error>> = {};
  for (const s of [...statuses].sort()) errorResponses[String(s)] = error(s);
  const op = createRoute({
    ...route,
    security: securityOf(auth),
    responses: { ...errorResponses, ...withBudgetHeaders(route.responses) },
  }) as unknown as Operation<R>;
  AUTH.set(op, auth);
  if (options.speculative === true) {
    if (route.method !== 'get') throw new Error(`${route.path}: only reads may be speculative`);
    if (!hasValidators(route))
      throw new Error(`${route.path}: a speculative operation runs behind its validators' layer`);
    SPECULATIVE.add(op);
  }
  return op;
}

/** Whether @hono/zod-openapi puts validator layers in front of the handler of `route`. */
function hasValidators(route: RouteConfig): boolean {
  const r = route.request;
  return !!(r && (r.query || r.params || r.headers || r.cookies || r.body?.content));
}

type Openapi = (route: RouteConfig, handler: Handler<AppEnv>, hook?: unknown) => unknown;

/**
 * Makes `app.openapi` run `platform` and then the operation's caller check before each handler.
 * A route without validators stays one handler, so hono calls it directly and a request that
 * needs no waiting (anonymous, session-cache hit) is answered synchronously, which lets
 * @hono/node-server take its fast response path; a route with validators gets one layer in
 * front of them (it is composed anyway). A route not made by `operation` gets the platform only.
 * The route's rate-limit weight is resolved here, once (for the root app: paths as registered).
 */
export function servePlatform(app: OpenAPIHono<AppEnv>, platform: PlatformSteps | Step): void {
  const openapi = app.openapi as unknown as Openapi;
  const served: Openapi = (route, handler, hook) => {
    const auth = AUTH.get(route);
    const speculative = SPECULATIVE.has(route);
    const steps =
      'forRoute' in platform ? platform.forRoute(route.method, honoPath(route.path), { speculative }) : platform;
    const step = auth ? thenStep(steps, authStep(auth)) : steps;
    const { middleware, ...bare } = route;
    if (middleware !== undefined) throw new Error(`${route.path}: route middleware bypasses the platform steps`);
    if (!hasValidators(route)) return openapi(bare, before(step, handler), hook);
    const layer = speculative ? asSpeculativeMiddleware(step) : asMiddleware(step);
    return openapi({ ...bare, middleware: layer }, handler, hook);
  };
  app.openapi = served as unknown as typeof app.openapi;
}
