import type { Context, Handler, MiddlewareHandler, Next, NotFoundHandler } from 'hono';
import type { AppDeps, AppEnv } from '../../env.js';
import { clientIpOf } from '../client-ip/index.js';
import { ClientVersionGate } from '../client-version/index.js';
import { refuseQueryKey } from '../query-key/index.js';
import { RateLimiter } from '../rate-limit/index.js';

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
 * The platform's per-request steps, in order: deps, client IP, rate limit, query-key refusal,
 * client-version gate. Each step lives in its own module; this only sequences them. Stays
 * synchronous unless a step has to wait (the client-version exemption lookup). Runs once per
 * request: a request that already went through it (a 404 answered from inside a route) is not
 * charged twice.
 *
 * There is deliberately no `app.use('*')` layer: hono composes every request that matches more
 * than one handler into a promise, and @hono/node-server only takes its fast response path when
 * `fetch` answers synchronously. So the steps run inside each route's own handler (see
 * `withPlatform` and `routes/operation.ts`) and in the not-found handler.
 */
export function platformSteps(deps: AppDeps): Step {
  const limiter = new RateLimiter();
  const gate = new ClientVersionGate();
  return (c) => {
    if (c.get('deps') !== undefined) return undefined;
    c.set('deps', deps);
    const ip = clientIpOf(c, deps.config.trustedProxies);
    c.set('clientIp', ip);
    limiter.spend(c, deps, ip);
    refuseQueryKey(c);
    return gate.check(c, deps);
  };
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
