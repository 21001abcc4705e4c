/**
 * The one table of error codes. Clients branch on `code`, never on `message`; a code once
 * published keeps its meaning. Numeric codes are the contract's (1, 1004, 1005); the string
 * codes are ours and the contract's `NotificationLimitExceeded`.
 */
export const ERROR_CODES = {
  GeneralError: { code: 1, status: 500 },
  AnalysisTimeframeRestricted: { code: 1004, status: 402 },
  AnalysisHistoryDepthRestricted: { code: 1005, status: 402 },
  NotificationLimitExceeded: { code: 'NotificationLimitExceeded', status: 402 },
  /** A caller without Pro used one of the ten signal-list controls (`/v2/assets/signals`). */
  SignalControlsRestricted: { code: 'SignalControlsRestricted', status: 402 },
  InvalidRequest: { code: 'InvalidRequest', status: 400 },
  MalformedJson: { code: 'MalformedJson', status: 400 },
  ApiKeyInQuery: { code: 'ApiKeyInQuery', status: 400 },
  Unauthorized: { code: 'Unauthorized', status: 401 },
  InvalidSession: { code: 'InvalidSession', status: 401 },
  InvalidApiKey: { code: 'InvalidApiKey', status: 401 },
  ApiKeyNotAccepted: { code: 'ApiKeyNotAccepted', status: 401 },
  BearerNotAccepted: { code: 'BearerNotAccepted', status: 401 },
  InvalidCredentials: { code: 'InvalidCredentials', status: 401 },
  UnsupportedClientVersion: { code: 'UnsupportedClientVersion', status: 403 },
  StablecoinNotAnalyzed: { code: 'StablecoinNotAnalyzed', status: 400 },
  NotFound: { code: 'NotFound', status: 404 },
  UnknownAsset: { code: 'UnknownAsset', status: 400 },
  UnknownMarket: { code: 'UnknownMarket', status: 404 },
  UnknownExchange: { code: 'UnknownExchange', status: 404 },
  EmailAlreadyRegistered: { code: 'EmailAlreadyRegistered', status: 422 },
  ApiKeyLimitExceeded: { code: 'ApiKeyLimitExceeded', status: 422 },
  RateLimited: { code: 'RateLimited', status: 429 },
  ApiKeyAllowanceExceeded: { code: 'ApiKeyAllowanceExceeded', status: 429 },
  ServiceUnavailable: { code: 'ServiceUnavailable', status: 503 },
} as const satisfies Record<string, { code: number | string; status: ErrorStatus }>;

/** Statuses the contract documents for failures (section 7). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 410 | 422 | 429 | 500 | 503;

export type ErrorName = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorName]['code'];

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
    case 429:
      return 'RateLimited';
    case 503:
      return 'ServiceUnavailable';
    default:
      return 'GeneralError';
  }
}
