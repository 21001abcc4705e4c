import { errorBody } from '@marketlens/contract';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, ERROR_CODES, fallbackErrorName } from './app-error.js';

/** Where unexpected errors go; the client only ever sees code 1 and a fixed message. */
export type ErrorLogger = (err: unknown, c: Context) => void;

const defaultLogger: ErrorLogger = (err, c) => {
  console.error(`[marketlens] ${c.req.method} ${c.req.path} failed:`, err);
};

/** The one place a thrown error becomes an `ErrorResponse`. No stack trace leaves the server. */
export function errorHandler(log: ErrorLogger = defaultLogger): ErrorHandler {
  return (err, c) => {
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

export const notFoundHandler: NotFoundHandler = (c) =>
  c.json(errorBody(ERROR_CODES.NotFound.code, `No route for ${c.req.method} ${c.req.path}`), 404);
