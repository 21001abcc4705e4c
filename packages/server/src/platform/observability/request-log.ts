import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { ObservedResponse, REQUEST_ID_HEADER } from './response.js';
import { routeLabel } from './route.js';

/** What a caller's own request id may look like; anything else is replaced (it is echoed and logged). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** The context variables the request-id middleware and step set. */
export interface RequestIdVariables {
  /** This request's id: the caller's `x-request-id` when well formed, else a random UUID. */
  requestId: string;
}

/** The hono environment of {@link requestLog}; add its variables to the app's. */
export interface RequestLogEnv {
  Variables: RequestIdVariables;
}

/** The Node request and response @hono/node-server passes as `c.env` (absent under app.request). */
export interface NodeBindings {
  incoming?: { method?: string; headers?: Record<string, string | string[] | undefined> };
  outgoing?: ServerResponseLike;
}

/** The part of Node's ServerResponse the observability code touches. */
export interface ServerResponseLike {
  headersSent: boolean;
  statusCode: number;
  writableFinished: boolean;
  setHeader(name: string, value: string): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** The caller's request id when well formed, else a new random one. */
export function requestIdOf(sent: string | undefined): string {
  return sent !== undefined && REQUEST_ID_PATTERN.test(sent) ? sent : randomUUID();
}

/**
 * Assigns the request its id: reads `x-request-id`, keeps it when well formed, sets
 * `c.get('requestId')` and answers it in `x-request-id` (on the marketlens server through
 * {@link ObservedResponse}, the cheap way; elsewhere through Node or hono).
 */
export function assignRequestId<E extends RequestLogEnv>(c: Context<E>): string {
  const env = c.env as NodeBindings | undefined;
  // Node's parsed headers when served by @hono/node-server: `c.req.header` would build hono's
  // request wrapper and the adapter's Headers view for the same string.
  const headers = env?.incoming?.headers;
  const sent = headers === undefined ? c.req.header(REQUEST_ID_HEADER) : headers[REQUEST_ID_HEADER];
  const id = requestIdOf(typeof sent === 'string' ? sent : undefined);
  c.set('requestId', id);
  const out = env?.outgoing;
  if (out instanceof ObservedResponse) out.requestId = id;
  else if (out !== undefined && !out.headersSent) out.setHeader(REQUEST_ID_HEADER, id);
  else c.header(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * Where the lines of requests answered below 400 go: `info`, `debug` (written only when the log
 * level is debug or lower), or the share of them (0 < x < 1) written at info, drawn per request.
 * Lines of 4xx and 5xx are always written.
 */
export type RequestLogPolicy = 'info' | 'debug' | number;

/** The rest of a request line: the client's address (as trusted) and where its level goes. */
export interface RequestLineOptions {
  /** The client's address, from `X-Forwarded-For` only when the peer is a trusted proxy. */
  clientIp?: string;
  /** Default `info`. */
  policy?: RequestLogPolicy;
  /** Uniform in [0, 1), for sampling; default `Math.random`. */
  draw?: () => number;
}

/**
 * Writes the one line of an answered request, at pino-http's levels: `info` below 400 (or as
 * `policy` says), `warn` for 4xx, `error` from 500. The line carries the request id (the proxy's
 * `X-Request-Id` when well formed, so proxy and instance logs join on it) and the client address.
 * A line costs pino about 15k instructions, a fifth of a trivial request; a child logger at
 * `warn` (`logger.child({}, { level: 'warn' })`) keeps only the failures, and the other lines
 * then cost nothing.
 */
export function logRequest(
  logger: Logger,
  requestId: string,
  method: string,
  route: string,
  status: number,
  ms: number,
  options: RequestLineOptions = {},
): void {
  const policy = options.policy ?? 'info';
  if (status < 400 && typeof policy === 'number' && (options.draw ?? Math.random)() >= policy) return;
  const line = {
    requestId,
    method,
    route,
    status,
    durationMs: Math.round(ms * 1000) / 1000,
    ...(options.clientIp !== undefined ? { clientIp: options.clientIp } : {}),
  };
  if (status >= 500) logger.error(line, 'request');
  else if (status >= 400) logger.warn(line, 'request');
  else if (policy === 'debug') logger.debug(line, 'request');
  else logger.info(line, 'request');
}

/**
 * Gives each request an id ({@link assignRequestId}) and logs one line when the app has answered
 * ({@link logRequest}): `{ requestId, method, route, status, durationMs }`, `route` being the
 * registered pattern (see `routeLabel`). Register it first, so its duration covers the other layers.
 *
 * A hono middleware layer makes every request asynchronous, which @hono/node-server answers on
 * its slow path (measured here: an empty layer adds 15% to the instructions of a bare hono
 * request); the marketlens app runs `observeRequests` among its platform steps instead.
 */
export function requestLog(logger: Logger): MiddlewareHandler<RequestLogEnv> {
  return async (c, next) => {
    const start = performance.now();
    const requestId = assignRequestId(c);
    await next();
    logRequest(logger, requestId, c.req.method, routeLabel(c), c.res.status, performance.now() - start);
  };
}
