import {
  createRoute,
  type OpenAPIHono,
  type RouteConfig,
  type RouteHandler,
  type RouteHook,
  type z,
} from '@hono/zod-openapi';
import {
  type CallerNeed,
  ErrorResponseSchema,
  envelopeOf,
  OPERATIONS,
  type OperationId,
  type OperationInput,
  type OperationOutput,
} from '@marketlens/contract';
import type { Context, Handler } from 'hono';
import type { AppEnv } from './deps.js';
import { AppError, type ErrorStatus } from './errors/app-error.js';
import {
  asMiddleware,
  asSpeculativeMiddleware,
  before,
  beforeVerdict,
  type PlatformSteps,
  type Step,
  thenStep,
} from './pipeline.js';
import { honoPath } from './rate-limit/rate-limit.js';

/**
 * What an operation accepts: a session, an API key, or no credential at all. Declared once per
 * operation; drives both the caller check the route registration is given (see `serveOperations`)
 * and the OpenAPI `security`. The check itself belongs to the auth feature: platform only carries
 * the declaration.
 */
export interface AuthSpec {
  session: boolean;
  apiKey: boolean;
  /** Readable without any credential (only `/v2/config`). */
  anonymous?: boolean;
}

/**
 * The REST credentials that meet each caller need of the contract's `OPERATIONS` (`admin`
 * operations have no REST route): `none` is the auth feature's `PUBLIC`, `optional` its
 * `OPTIONAL_SESSION_OR_API_KEY`, `key` its `SESSION_OR_API_KEY`, `session` its `SESSION_ONLY` (the
 * same values, checked by operations.test.ts through the published `security`).
 */
const REST_AUTH: Readonly<Record<Exclude<CallerNeed, 'admin'>, AuthSpec>> = {
  none: { session: false, apiKey: false, anonymous: true },
  optional: { session: true, apiKey: true, anonymous: true },
  key: { session: true, apiKey: true },
  session: { session: true, apiKey: false },
};

/** The auth spec of a REST route serving `id`: what the caller its declaration needs sends. */
export function authOf(id: OperationId): AuthSpec {
  const need = OPERATIONS[id].caller;
  if (need === 'admin') throw new Error(`${id}: admin operations are not served over REST`);
  return REST_AUTH[need];
}

/**
 * Runs the declared operation `id` for the actor of the request `c`, with the input its route
 * parsed, and answers its output (the REST `data`). The composition root binds it to the registry
 * of operations and hands it to each feature's route registration, so routes name an operation
 * instead of importing the registry.
 */
export type RunOperation = {
  <K extends OperationId>(c: Context<AppEnv>, id: K, input: OperationInput<K>): Promise<OperationOutput<K>>;
  /**
   * The answer of `id` when it is at hand without waiting (a cache hit, after the same caller
   * check), else undefined: a route may then answer synchronously, and run the operation otherwise.
   */
  cached<K extends OperationId>(c: Context<AppEnv>, id: K, input: OperationInput<K>): OperationOutput<K> | undefined;
};

/** OpenAPI security requirements of a spec (`{}` marks the credential optional). */
export function securityOf(spec: AuthSpec): Record<string, string[]>[] {
  const s: Record<string, string[]>[] = [];
  if (spec.session) s.push({ session: [] });
  if (spec.apiKey) s.push({ api_key: [] });
  if (spec.anonymous && s.length > 0) s.push({});
  return s;
}

/**
 * The caller check of an operation, given by whoever registers the routes (the composition root
 * passes the auth feature's): resolves the caller of a request and refuses what `spec` does not
 * accept.
 */
export type AuthStep = (spec: AuthSpec) => Step;

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request (bad parameters, malformed JSON, API key in the query string)',
  401: 'Missing or invalid credential, or a credential this operation does not accept',
  402: 'Paid feature',
  403: 'Forbidden (e.g. unsupported client version, an account the operator disabled)',
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

/**
 * The 200 response of the REST route serving `id`: the operation's declared output in the success
 * envelope (registered as the component `envelope` when named), so a route does not restate it.
 */
export function okOf<K extends OperationId>(id: K, description: string, envelope?: string) {
  return { 200: json(envelopeOf(OPERATIONS[id].output as OperationSchema<K>, envelope), description) };
}

type OperationSchema<K extends OperationId> = (typeof OPERATIONS)[K]['output'];

type OperationConfig = Omit<RouteConfig, 'security' | 'middleware'> & { operationId: string; summary: string };

/**
 * One REST operation: its auth spec becomes both the caller check run before its handler (see
 * `serveOperations`) and the OpenAPI `security`, and every operation documents the failures every
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

/**
 * Declares a REST operation: `served` is either the contract operation it serves (its caller need
 * gives the auth spec, see {@link authOf}) or, for a route outside the registry, its own spec.
 */
export function operation<const R extends OperationConfig>(
  served: AuthSpec | OperationId,
  route: R,
  errors: readonly ErrorStatus[] = [],
  options: OperationOptions = {},
): Operation<R> {
  const auth = typeof served === 'string' ? authOf(served) : served;
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

/**
 * A REST route of a declared operation as a feature writes it: what the registry already knows
 * is left out (the auth, from the operation's caller need; the 200, the operation's output in the
 * success envelope; the tag, given once per feature file by {@link routesOf}). `ok` is the 200's
 * description, or the description and the name of its envelope component.
 */
export type RouteOf = Omit<OperationConfig, 'tags' | 'responses'> & {
  ok: string | readonly [description: string, envelope: string];
  /** The failures this route adds to those every operation can have. */
  errors?: readonly ErrorStatus[];
  /**
   * The 200's `data` where REST answers more than the operation's output (a legacy shape for old
   * clients beside it); absent, the operation's output.
   */
  data?: z.ZodType;
};

/** The operation {@link routesOf} makes of a {@link RouteOf} serving `K`. */
export type OperationOf<K extends OperationId, R extends RouteOf> = Operation<
  Omit<R, 'ok' | 'errors' | 'data'> & { tags: string[]; responses: ReturnType<typeof okOf<K>> }
>;

/**
 * The route declarations of one feature file, all under the OpenAPI tag `tag`: each names the
 * operation it serves and is completed from the registry (see {@link RouteOf}). The fields are
 * laid out as {@link operation} publishes them, so the document is the one a hand-written
 * declaration gives.
 */
export function routesOf(tag: string) {
  return <K extends OperationId, const R extends RouteOf>(
    id: K,
    route: R,
    options: OperationOptions = {},
  ): OperationOf<K, R> => {
    const { method, path, operationId, summary, description, ok: okText, errors = [], data, ...rest } = route;
    const [text, envelope] = typeof okText === 'string' ? [okText, undefined] : okText;
    const config = {
      method,
      path,
      operationId,
      tags: [tag],
      summary,
      ...(description === undefined ? {} : { description }),
      ...rest,
      responses: data === undefined ? okOf(id, text, envelope) : { 200: json(envelopeOf(data, envelope), text) },
    };
    return operation(id, config, errors, options) as unknown as OperationOf<K, R>;
  };
}

/** Whether @hono/zod-openapi puts validator layers in front of the handler of `route`. */
function hasValidators(route: RouteConfig): boolean {
  const r = route.request;
  return !!(r && (r.query || r.params || r.headers || r.cookies || r.body?.content));
}

/** What a failed validation of `target` answers: 400 `InvalidRequest` naming the first five issues. */
export function rejectInvalid(result: { success: boolean; error?: z.ZodError; target: string }): void {
  if (result.success || result.error === undefined) return;
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : result.target}: ${i.message}`)
    .join('; ');
  throw new AppError('InvalidRequest', `Invalid ${result.target}: ${issues}`);
}

type InputTarget = 'query' | 'param' | 'header';

/** The checks of a request without a body: its query, path and headers, each a zod schema; null otherwise. */
function inputChecks(route: RouteConfig): [InputTarget, z.ZodType, Record<string, string> | null][] | null {
  const r = route.request;
  if (r === undefined || r.body !== undefined || r.cookies !== undefined) return null;
  const checks: [InputTarget, z.ZodType, Record<string, string> | null][] = [];
  for (const [target, schema] of [
    ['query', r.query],
    ['param', r.params],
    ['header', r.headers],
  ] as const) {
    if (schema === undefined) continue;
    const shape = (schema as { shape?: Record<string, unknown> }).shape;
    if (typeof shape !== 'object' || shape === null) return null;
    // Header names arrive lowercased; the schema's spelling is restored as @hono/zod-validator does.
    const keys = target === 'header' ? Object.fromEntries(Object.keys(shape).map((k) => [k.toLowerCase(), k])) : null;
    checks.push([target, schema as z.ZodType, keys]);
  }
  return checks;
}

/** Validated URL inputs remembered per operation (see {@link validated}); the oldest goes first. */
export const VALIDATED_URLS = 256;

/**
 * The longest URL whose validated inputs are remembered. Unknown query keys pass validation (they
 * are dropped), so without a bound a client could park 256 URLs of Node's largest header size
 * (16 KB) per operation; with it an operation holds at most 256 KB of URLs.
 */
export const VALIDATED_URL_MAX = 1024;

/** `value` with every plain object and array in it frozen: validated inputs shared between requests. */
function deepFrozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  for (const v of Object.values(value)) deepFrozen(v);
  return Object.freeze(value);
}

/** What one validation produced: each target's data, in the order of the checks. */
type Validated = readonly [InputTarget, object][];

/**
 * `handler` behind the synchronous validation of the request's query, path and headers: the same
 * values @hono/zod-validator would read and the same schemas, parsed with zod's synchronous parse
 * instead of its layer's asynchronous one, so that a request that needs no waiting is answered
 * synchronously. A failure is `rejectInvalid`'s 400.
 *
 * When only the query and the path are checked, what validation yields is a function of the URL
 * alone: the outcome of the last {@link VALIDATED_URLS} valid URLs of at most
 * {@link VALIDATED_URL_MAX} characters is kept (deeply frozen, as the same objects are then
 * handed to many requests), so a client polling the same URL is validated once. A URL that fails
 * is not kept: it is parsed, and refused, each time.
 */
function validated(
  checks: [InputTarget, z.ZodType, Record<string, string> | null][],
  handler: Handler<AppEnv>,
): Handler<AppEnv> {
  const byUrl = checks.every(([target]) => target !== 'header') ? new Map<string, Validated>() : null;
  return (c, next) => {
    const url = c.req.url;
    let done = byUrl?.get(url);
    if (done === undefined) {
      done = checks.map(([target, schema, keys]): [InputTarget, object] => {
        let value: Record<string, unknown>;
        if (target === 'query') {
          value = {};
          for (const [k, v] of Object.entries(c.req.queries())) value[k] = v.length === 1 ? v[0] : v;
        } else if (target === 'param') {
          value = c.req.param();
        } else {
          value = {};
          for (const [k, v] of Object.entries(c.req.header())) value[keys?.[k] ?? k] = v;
        }
        const result = schema.safeParse(value);
        if (!result.success) rejectInvalid({ success: false, error: result.error, target });
        return [target, result.data as object];
      });
      if (byUrl !== null && url.length <= VALIDATED_URL_MAX) {
        for (const [, data] of done) deepFrozen(data);
        if (byUrl.size >= VALIDATED_URLS) byUrl.delete(byUrl.keys().next().value as string);
        byUrl.set(url, done);
      }
    }
    for (const [target, data] of done) c.req.addValidatedData(target, data);
    return handler(c, next);
  };
}

/** Registers one operation of the app with its handler (see {@link serveOperations}). */
export type Serve = <R extends Operation<OperationConfig>>(
  op: R,
  handler: RouteHandler<R, AppEnv>,
  hook?: RouteHook<R, AppEnv>,
) => void;

/**
 * How the app's operations are registered: each behind `platform` and then its caller check. A
 * route without a body is one handler, its query, path and headers validated inside it (see
 * `validated`), so hono calls it directly and a request that needs no waiting (anonymous,
 * session-cache hit, cached answer) is answered synchronously, which lets @hono/node-server take its
 * fast response path; a route with a body goes through @hono/zod-openapi's `openapi` with one layer
 * in front of its validators (reading a body waits anyway). The route's rate-limit weight is
 * resolved here, once (for the root app: paths as registered). `authStep` is the caller check run
 * after the platform steps, from each operation's {@link AuthSpec}.
 */
export function serveOperations(app: OpenAPIHono<AppEnv>, platform: PlatformSteps | Step, authStep: AuthStep): Serve {
  // Handlers are typed by `Serve`; inside, one untyped signature serves every operation.
  const openapi = app.openapi as (route: RouteConfig, handler: Handler<AppEnv>, hook?: unknown) => unknown;
  const serve = (route: Operation<OperationConfig>, handler: Handler<AppEnv>, hook?: unknown): void => {
    const auth = AUTH.get(route);
    if (auth === undefined) throw new Error(`${route.path}: not made by operation()`);
    const speculative = SPECULATIVE.has(route);
    const steps =
      'forRoute' in platform ? platform.forRoute(route.method, honoPath(route.path), { speculative }) : platform;
    const step = thenStep(steps, authStep(auth));
    const checks = hook === undefined ? inputChecks(route) : null;
    if (checks !== null && checks.length > 0) {
      // What @hono/zod-openapi's `openapi` does, with the validation inside the handler.
      app.openAPIRegistry.registerPath(route);
      const run = speculative
        ? beforeVerdict(step, validated(checks, handler))
        : before(step, validated(checks, handler));
      app.on([route.method.toUpperCase()], [honoPath(route.path)], run);
    } else if (!hasValidators(route)) {
      openapi(route, before(step, handler), hook);
    } else {
      const middleware = speculative ? asSpeculativeMiddleware(step) : asMiddleware(step);
      openapi({ ...route, middleware }, handler, hook);
    }
  };
  return serve as unknown as Serve;
}
