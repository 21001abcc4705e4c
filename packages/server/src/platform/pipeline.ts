import type { Context, Handler, MiddlewareHandler, Next, NotFoundHandler } from 'hono';
import { refuseQueryKey } from '../keys/query-key.js';
import { bodyLimitOf, limitBody } from './body-limit.js';
import { clientIpOf } from './client-ip.js';
import { ClientVersionGate } from './client-version.js';
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

/**
 * The platform steps of {@link platformSteps}: a {@link Step} for any request (its rate-limit
 * weight looked up from the matched route), and {@link forRoute} for one known route.
 */
export interface PlatformSteps extends Step {
  /** The same steps for the route `method path` (hono path syntax), its weight resolved here, once. */
  forRoute(method: string, path: string): Step;
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
export function platformSteps(deps: AppDeps, observe?: (c: Context<AppEnv>) => undefined): PlatformSteps {
  const limiter = new RateLimiter();
  const gate = new ClientVersionGate();
  const run = (
    c: Context<AppEnv>,
    weight: number | undefined,
    bodyLimit: number | undefined,
  ): Promise<void> | undefined => {
    if (c.get('deps') !== undefined) return undefined;
    c.set('deps', deps);
    // First, so that refused requests (429, 403) are logged and counted too.
    observe?.(c);
    const ip = clientIpOf(c, deps.config.trustedProxies);
    c.set('clientIp', ip);
    const limited = limiter.spend(c, deps, ip, weight);
    return limited === undefined ? admit(c, bodyLimit) : limited.then(() => admit(c, bodyLimit));
  };
  // the steps after the rate limit (which waits only when Redis keeps the budget)
  const admit = (c: Context<AppEnv>, bodyLimit: number | undefined): Promise<void> | undefined => {
    refuseQueryKey(c);
    const limit = bodyLimit ?? bodyLimitOf(c.req.path);
    const gated = gate.check(c, deps);
    return gated === undefined ? limitBody(c, limit) : gated.then(() => limitBody(c, limit));
  };
  const steps: Step = (c) => run(c, undefined, undefined);
  return Object.assign(steps, {
    forRoute(method: string, path: string): Step {
      const weight = weightOf(method.toUpperCase(), path);
      const bodyLimit = bodyLimitOf(path);
      return (c) => run(c, weight, bodyLimit);
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

/** `step` as a middleware layer (for routes that have further layers anyway, e.g. validators). */
export function asMiddleware(step: Step): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const pending = step(c);
    return pending === undefined ? next() : pending.then(next);
  };
}

/** The platform steps as one middleware layer (for apps that mount routes of their own). */
export function platform(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return asMiddleware(platformSteps(deps));
}
