import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';
import {
  assignRequestId,
  logRequest,
  type NodeBindings,
  type RequestLogEnv,
  type RequestLogPolicy,
} from './request-log.js';
import { routeLabel } from './route.js';

/** The status recorded for a request whose client went away before the response was sent (nginx's). */
export const CLIENT_CLOSED_STATUS = 499;

/** What {@link observeRequests} records; either may be left out. */
export interface ObserveOptions<E extends RequestLogEnv = RequestLogEnv> {
  logger?: Logger;
  metrics?: Metrics;
  /** The client's address for the request line, read when the response ends. */
  clientIp?: (c: Context<E>) => string | undefined;
  /** Where the lines of requests answered below 400 go (default `info`). */
  requests?: RequestLogPolicy;
}

/**
 * The synchronous form of `requestLog` and `metricsMiddleware` together, as a platform step: run
 * inside the route's handler (where the platform steps run), it assigns the request id and, on
 * @hono/node-server, hooks the end of the Node response to log the line and record the metrics.
 * It never makes the request asynchronous, so the server keeps its fast response path.
 *
 * Run it first among the steps, so refused requests (429, 403) are recorded too, and serve the
 * app with `OBSERVED_SERVER_OPTIONS`, or the id header takes Node's slow path. The duration runs
 * from the step to the response handed to the socket (the whole body, also for a stream); a
 * client that leaves first is recorded with status 499. Under `app.request` (no Node response)
 * only the id is assigned: there is no end to hook.
 */
export function observeRequests<E extends RequestLogEnv>(options: ObserveOptions<E>): (c: Context<E>) => undefined {
  const { logger, metrics, clientIp } = options;
  const policy = options.requests ?? 'info';
  return (c) => {
    const requestId = assignRequestId(c);
    const env = c.env as NodeBindings | undefined;
    const out = env?.outgoing;
    if (out === undefined || (logger === undefined && metrics === undefined)) return undefined;
    const start = performance.now();
    const method = env?.incoming?.method ?? c.req.method;
    // Read now: inside the route's handler hono points the route index at it.
    const route = routeLabel(c);
    // 'close' comes after 'finish', and also when the connection drops before the response is sent.
    out.on('close', () => {
      const ms = performance.now() - start;
      const status = out.writableFinished ? out.statusCode : CLIENT_CLOSED_STATUS;
      metrics?.request(method, route, status, ms / 1000);
      if (logger !== undefined) {
        logRequest(logger, requestId, method, route, status, ms, { clientIp: clientIp?.(c), policy });
      }
    });
    return undefined;
  };
}
