import { errorBody } from '@marketlens/contract';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { TrieRouter } from 'hono/router/trie-router';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { StorageUnavailable } from '../../storage/errors.js';
import { SharedStateUnavailable } from '../redis/client.js';
import { AppError, ERROR_CODES, fallbackErrorName } from './app-error.js';

/** Where unexpected errors go; the client only ever sees code 1 and a fixed message. */
export type ErrorLogger = (err: unknown, c: Context) => void;

const defaultLogger: ErrorLogger = (err, c) => {
  console.error(`[marketlens] ${c.req.method} ${c.req.path} failed:`, err);
};

/** The one place a thrown error becomes an `ErrorResponse`. No stack trace leaves the server. */
export function errorHandler(log: ErrorLogger = defaultLogger): ErrorHandler {
  return (err, c) => {
    if (err instanceof SharedStateUnavailable) {
      // Redis is away: no request is answered as if it were there; the client retries shortly.
      return c.json(
        errorBody(ERROR_CODES.ServiceUnavailable.code, 'Shared state is unavailable right now; retry later'),
        503,
        {
          'retry-after': '1',
        },
      );
    }
    if (err instanceof StorageUnavailable) {
      // The database is away: the pool reconnects by itself; the client retries a little later.
      return c.json(errorBody(ERROR_CODES.ServiceUnavailable.code, err.message), 503, {
        'retry-after': String(err.retryAfterSeconds),
      });
    }
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err.code, err.message), err.status);
    }
    if (err instanceof HTTPException) {
      const malformed = err.status === 400 && /json/i.test(err.message);
      const name = malformed ? 'MalformedJson' : fallbackErrorName(err.status);
      if (ERROR_CODES[name].status === err.status) {
        return c.json(
          errorBody(ERROR_CODES[name].code, malformed ? 'Malformed JSON in request body' : err.message || name),
          err.status as ContentfulStatusCode,
        );
      }
      // A client error outside the contract's statuses (e.g. the validator's 415 for a body that
      // is not JSON) answers 400 InvalidRequest, so a code's status always matches the table;
      // anything else is an internal error like any other.
      if (err.status >= 400 && err.status < 500) {
        return c.json(errorBody(ERROR_CODES.InvalidRequest.code, err.message || 'Invalid request'), 400);
      }
    }
    log(err, c);
    return c.json(errorBody(ERROR_CODES.GeneralError.code, 'Internal error'), 500);
  };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The handler of requests no route answers: 405 `MethodNotAllowed` with `Allow` when the path is
 * served with other methods (a GET route answers HEAD too), else 404 `NotFound`. `routes` is read
 * when the first such request comes, once every route is registered; middleware (`ALL`) is not a route.
 */
export function notFoundHandler(routes: () => readonly { method: string; path: string }[]): NotFoundHandler {
  let byMethod: TrieRouter<true> | undefined;
  const allowed = (path: string): string[] => {
    if (byMethod === undefined) {
      byMethod = new TrieRouter<true>();
      for (const r of routes()) if (r.method !== 'ALL') byMethod.add(r.method, r.path, true);
    }
    const router = byMethod;
    const methods: string[] = METHODS.filter((m) => router.match(m, path)[0].length > 0);
    if (methods.includes('GET')) methods.splice(1, 0, 'HEAD');
    return methods;
  };
  return (c) => {
    const allow = allowed(c.req.path);
    if (allow.length > 0 && !allow.includes(c.req.method)) {
      return c.json(
        errorBody(
          ERROR_CODES.MethodNotAllowed.code,
          `${c.req.path} does not answer ${c.req.method}; it answers ${allow.join(', ')}`,
        ),
        405,
        { allow: allow.join(', ') },
      );
    }
    return c.json(errorBody(ERROR_CODES.NotFound.code, `No route for ${c.req.method} ${c.req.path}`), 404);
  };
}
