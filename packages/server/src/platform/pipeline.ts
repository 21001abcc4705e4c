import type { Context, Handler, MiddlewareHandler, Next, NotFoundHandler } from 'hono';
import { bodyLimitOf, limitBody } from './body-limit.js';
import { addressGroup, clientIpOf } from './client-ip.js';
import { type ApiKeyCheck, ClientVersionGate } from './client-version.js';
import type { AppDeps, AppEnv } from './deps.js';
import { RateLimiter } from './rate-limit/rate-limit.js';
import { weightOf } from './rate-limit/weights.js';

/** A per-request step: synchronous (undefined) unless it has to wait; throws to refuse. */
export type Step = (c: Context<AppEnv>) => Promise<void> | undefined;

/** Runs `first`, then `second`, staying synchronous when `first` does. */
export function thenStep(first: Step, second: Step): Step {
  return (c) => {
    const pending = first(c);
    return pending === undefined ? second(c) : pending.then(() => second(c));
  };
}

/** How a route runs the platform steps ({@link PlatformSteps.forRoute}). */
export interface RouteSteps {
  /**
   * With a shared (Redis) budget, the steps after the rate limit do not wait for its verdict: the
   * request goes on (caller check, validation, a cache lookup) while the spend is on its way, and
   * the verdict is awaited before the answer leaves and before anything that writes or computes
   * ({@link admitted}). For read-only routes whose handler awaits {@link admitted} before such
   * work; the operation then answers exactly as if it had waited (a refusal is a 429 with the
   * same headers, whatever else failed), the round trip hidden behind the request's own work.
   */
  speculative?: boolean;
}

/**
 * The platform steps of {@link platformSteps}: a {@link Step} for any request (its rate-limit
 * weight looked up from the matched route), and {@link forRoute} for one known route.
 */
export interface PlatformSteps extends Step {
  /** The same steps for the route `method path` (hono path syntax), its weight resolved here, once. */
  forRoute(method: string, path: string, options?: RouteSteps): Step;
  /**
   * Spends `weight` more units of the request's client budget, for work the request asks for once
   * its body is read (an MCP message: a tool call costs what its REST route costs). Rejects with
   * 429 `RateLimited` when it does not fit (nothing spent); the budget headers then say so.
   */
  charge(c: Context<AppEnv>, weight: number): Promise<void>;
}

/**
 * Waits for the rate limit's verdict when it is still on its way (a speculative route, see
 * {@link RouteSteps.speculative}); undefined when it was decided before the route ran. Rejects
 * with the refusal (429, or 503 while Redis is away). A handler awaits it before any write or
 * expensive work, so a refused request changes nothing.
 */
export function admitted(c: Context<AppEnv>): Promise<void> | undefined {
  return c.get('admission');
}

/**
 * `outcome` (the route's steps and handler), then the rate limit's verdict: a refusal wins over
 * whatever the route answered or threw, as it would have had the route waited for it.
 */
function afterAdmission(c: Context<AppEnv>, outcome: Promise<void>): Promise<void> {
  const admission = c.get('admission');
  if (admission === undefined) return outcome;
  return outcome.then(
    () => admission,
    (err: unknown) =>
      admission.then(() => {
        throw err;
      }),
  );
}

/** What the platform steps ask of the features; the composition root (`createApp`) gives it. */
export interface StepGuards {
  /** Refuses a request whose credentials travel where they may not (an API key in the query). */
  refuseCredentials?: (c: Context<AppEnv>) => void;
  /** Whether an API key is valid now: it exempts an outdated mobile build from the version gate. */
  validApiKey?: ApiKeyCheck;
}

/**
 * The platform's per-request steps, in order: deps, the request log and metrics (when the server
 * observes requests), client IP, rate limit, query-key refusal, client-version gate, body limit.
 * Each step lives in its own module; this only sequences them. Stays
 * synchronous unless a step has to wait (the client-version exemption lookup). Runs once per
 * request: a request that already went through it (a 404 answered from inside a route) is not
 * charged twice.
 *
 * There is deliberately no `app.use('*')` layer: hono composes every request that matches more
 * than one handler into a promise, and @hono/node-server only takes its fast response path when
 * `fetch` answers synchronously. So the steps run inside each route's own handler (see
 * `before` and `routes/operation.ts`) and in the not-found handler.
 */
export function platformSteps(
  deps: AppDeps,
  observe?: (c: Context<AppEnv>) => undefined,
  guards: StepGuards = {},
): PlatformSteps {
  const limiter = new RateLimiter();
  const gate = new ClientVersionGate(guards.validApiKey);
  const refuseCredentials = guards.refuseCredentials ?? (() => undefined);
  const run = (
    c: Context<AppEnv>,
    weight: number | undefined,
    bodyLimit: number | undefined,
    speculative = false,
  ): Promise<void> | undefined => {
    if (c.get('deps') !== undefined) return undefined;
    c.set('deps', deps);
    // First, so that refused requests (429, 403) are logged and counted too.
    observe?.(c);
    const ip = clientIpOf(c, deps.config.trustedProxies);
    c.set('clientIp', ip);
    const limited = limiter.spend(c, deps, addressGroup(ip, deps.config.rateLimit.ipv6Prefix), weight);
    if (limited === undefined) return admit(c, bodyLimit);
    if (!speculative) return limited.then(() => admit(c, bodyLimit));
    // Awaited by the route (afterAdmission); until then, a refusal must not count as unhandled.
    limited.catch(() => undefined);
    c.set('admission', limited);
    return admit(c, bodyLimit);
  };
  // the steps after the rate limit (which waits only when Redis keeps the budget)
  const admit = (c: Context<AppEnv>, bodyLimit: number | undefined): Promise<void> | undefined => {
    refuseCredentials(c);
    const limit = bodyLimit ?? bodyLimitOf(c.req.path);
    const gated = gate.check(c, deps);
    return gated === undefined ? limitBody(c, limit) : gated.then(() => limitBody(c, limit));
  };
  const steps: Step = (c) => run(c, undefined, undefined);
  return Object.assign(steps, {
    async charge(c: Context<AppEnv>, weight: number): Promise<void> {
      await limiter.spend(c, deps, addressGroup(c.get('clientIp'), deps.config.rateLimit.ipv6Prefix), weight);
    },
    forRoute(method: string, path: string, options: RouteSteps = {}): Step {
      const weight = weightOf(method.toUpperCase(), path);
      const bodyLimit = bodyLimitOf(path);
      const speculative = options.speculative === true;
      return (c) => run(c, weight, bodyLimit, speculative);
    },
  });
}

/** `handler`, after `step` (synchronously when the step does not wait). */
export function before<H extends Handler<AppEnv> | NotFoundHandler<AppEnv>>(step: Step, handler: H): H {
  const h = handler as (c: Context<AppEnv>, next: Next) => unknown;
  return ((c: Context<AppEnv>, next: Next) => {
    const pending = step(c);
    return pending === undefined ? h(c, next) : pending.then(() => h(c, next));
  }) as unknown as H;
}

/**
 * A speculative route's handler after `step` (see {@link RouteSteps.speculative}): the handler
 * runs while the rate limit's verdict is on its way, then the answer waits for the verdict and a
 * refusal replaces it (or whatever the handler threw). Synchronous when the verdict was decided
 * before the handler ran (an in-process budget).
 */
export function beforeVerdict(step: Step, handler: Handler<AppEnv>): Handler<AppEnv> {
  return (c, next) => {
    let outcome: ReturnType<Handler<AppEnv>>;
    try {
      const pending = step(c);
      outcome = pending === undefined ? handler(c, next) : pending.then(() => handler(c, next));
    } catch (err) {
      if (c.get('admission') === undefined) throw err;
      outcome = Promise.reject(err);
    }
    const admission = c.get('admission');
    if (admission === undefined) return outcome;
    return Promise.resolve(outcome).then(
      (res) => admission.then(() => res),
      (err: unknown) =>
        admission.then(() => {
          throw err;
        }),
    );
  };
}

/**
 * `step` as a middleware layer in front of the rest of a speculative route (see
 * {@link RouteSteps.speculative}): the route runs, then the answer waits for the rate limit's
 * verdict, and a refusal replaces it.
 */
export function asSpeculativeMiddleware(step: Step): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    let outcome: Promise<void>;
    try {
      const pending = step(c);
      outcome = pending === undefined ? next() : pending.then(next);
    } catch (err) {
      outcome = Promise.reject(err);
    }
    return afterAdmission(c, outcome);
  };
}

/** `step` as a middleware layer (for routes that have further layers anyway, e.g. validators). */
export function asMiddleware(step: Step): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const pending = step(c);
    return pending === undefined ? next() : pending.then(next);
  };
}

/** The platform steps as one middleware layer (for apps that mount routes of their own). */
export function platform(deps: AppDeps, guards: StepGuards = {}): MiddlewareHandler<AppEnv> {
  return asMiddleware(platformSteps(deps, undefined, guards));
}
