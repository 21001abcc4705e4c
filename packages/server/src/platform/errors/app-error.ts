import { ERROR_CODES, type ErrorCode, type ErrorName, type ErrorStatus } from '@marketlens/contract';

export { ERROR_CODES, type ErrorCode, type ErrorName, type ErrorStatus };

/**
 * A failure a route or service throws on purpose. The error handler turns it into an
 * `ErrorResponse` with the table's code and status; `headers` (e.g. `retry-after`) are added.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly headers: Readonly<Record<string, string>>;

  constructor(name: ErrorName, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = name;
    this.code = ERROR_CODES[name].code;
    this.status = ERROR_CODES[name].status;
    this.headers = headers;
  }
}

/** Every `ErrorResponse` status mapped to the code used when nothing more specific is known. */
export function fallbackErrorName(status: number): ErrorName {
  switch (status) {
    case 400:
      return 'InvalidRequest';
    case 401:
      return 'Unauthorized';
    case 404:
      return 'NotFound';
    case 413:
      return 'PayloadTooLarge';
    case 429:
      return 'RateLimited';
    case 503:
      return 'ServiceUnavailable';
    default:
      return 'GeneralError';
  }
}
