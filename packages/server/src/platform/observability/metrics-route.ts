import { errorBody } from '@marketlens/contract';
import type { Context, Env, Handler } from 'hono';
import { ipAllowList, LOOPBACK } from './ip-allow.js';
import type { Metrics } from './metrics.js';

/**
 * `GET /metrics`: the Prometheus text format of `metrics.registry`, to callers whose address
 * (`clientIp`, e.g. the platform's `clientIpOf` with the trusted proxies) is in `allow` (exact
 * addresses and CIDR blocks, IPv4 and IPv6; empty: loopback only). Anyone else gets 403 with an
 * `ErrorResponse` of code `Forbidden`: the metrics name routes, sources and load, which is not
 * for the public. Throws at once on a malformed `allow` entry.
 */
export function metricsRoute<E extends Env = Env>(
  metrics: Metrics,
  allow: readonly string[],
  clientIp: (c: Context<E>) => string,
): Handler<E> {
  const allowed = ipAllowList(allow.length === 0 ? LOOPBACK : allow);
  return async (c) => {
    if (!allowed(clientIp(c))) {
      return c.json(errorBody('Forbidden', 'Metrics are served to allowed addresses only'), 403, {
        'cache-control': 'no-store',
      });
    }
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
  };
}
