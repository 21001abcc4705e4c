/**
 * Storage failures a caller can act on. A database that cannot be reached (refused, timed out,
 * restarting) is not a bug of the request, and the connection pool reconnects by itself once the
 * database is back. Storage says only what happened; each edge says it in its own words (HTTP: the
 * error handler of `platform/errors/handler.ts` answers 503 with `retry-after`; MCP: the tool error
 * of the same contract code).
 */
import { ERROR_CODES } from '@marketlens/contract';

/** The database could not be reached in time; the request may be retried later. */
export class StorageUnavailable extends Error {
  /** The contract's error code every surface names this failure with. */
  readonly code = ERROR_CODES.ServiceUnavailable.code;
  /** How long a caller had better wait before retrying, in seconds. */
  readonly retryAfterSeconds = 5;

  constructor(cause: unknown) {
    super('The database is unavailable right now; retry later', { cause });
    this.name = 'StorageUnavailable';
  }
}

// Connection-level failures of node-postgres and PostgreSQL (SQLSTATE class 08: connection
// exception; 57P01-57P03: the server is shutting down or starting; 53300: too many connections;
// 57014: the statement timeout cancelled the query).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection refused',
];

/** Whether `err` says the database could not be reached (as opposed to a query it refused). */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof StorageUnavailable) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (err instanceof AggregateError && err.errors.some(isUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.some((m) => err.message.includes(m));
}

/** `err` as a {@link StorageUnavailable} when it is a connection failure, else unchanged. */
export function classify(err: unknown): unknown {
  return isUnavailable(err) && !(err instanceof StorageUnavailable) ? new StorageUnavailable(err) : err;
}
