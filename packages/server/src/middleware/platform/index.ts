import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../../env.js';
import { clientIpOf } from '../client-ip/index.js';
import { ClientVersionGate } from '../client-version/index.js';
import { refuseQueryKey } from '../query-key/index.js';
import { RateLimiter } from '../rate-limit/index.js';

/**
 * The platform's per-request steps, in order, as one middleware layer (each hono layer costs an
 * async dispatch): deps, client IP, rate limit, query-key refusal, client-version gate. Each
 * step lives in its own module; this only sequences them. Stays synchronous unless a step has
 * to wait (the client-version exemption lookup).
 */
export function platform(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const limiter = new RateLimiter();
  const gate = new ClientVersionGate();
  return (c, next) => {
    c.set('deps', deps);
    const ip = clientIpOf(c, deps.config.trustedProxies);
    c.set('clientIp', ip);
    limiter.spend(c, deps, ip);
    refuseQueryKey(c);
    const pending = gate.check(c, deps);
    return pending === undefined ? next() : pending.then(next);
  };
}
