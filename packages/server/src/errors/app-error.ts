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
  /** An alert payload that does not hold together (kind and timeframe, shape). */
  InvalidNotification: { code: 'InvalidNotification', status: 400 },
  /** An alert target outside its kind's range or too far from the live market. */
  TargetOutOfRange: { code: 'TargetOutOfRange', status: 400 },
  NotificationNotFound: { code: 'NotificationNotFound', status: 404 },
  /** Creating an alert needs at least one active push device (section 6). */
  NoActiveDevice: { code: 'NoActiveDevice', status: 410 },
  InvalidPushSubscription: { code: 'InvalidPushSubscription', status: 400 },
  DeviceNotFound: { code: 'DeviceNotFound', status: 404 },
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
  /** `/mcp`: the bearer token is unknown, expired, revoked, for another audience, or its session ended. */
  InvalidToken: { code: 'InvalidToken', status: 401 },
  UnsupportedClientVersion: { code: 'UnsupportedClientVersion', status: 403 },
  /** The caller's 30-day affiliate volume does not qualify for pilot spectate (section 4.10). */
  PilotNotEligible: { code: 'PilotNotEligible', status: 403 },
  /** `/mcp` from a browser page whose Origin is neither the public origin nor an allowed one. */
  OriginNotAllowed: { code: 'OriginNotAllowed', status: 403 },
  /** OAuth and `/mcp` without a public URL configured: the Host names neither loopback nor this server's address. */
  HostNotAllowed: { code: 'HostNotAllowed', status: 400 },
  StablecoinNotAnalyzed: { code: 'StablecoinNotAnalyzed', status: 400 },
  NotFound: { code: 'NotFound', status: 404 },
  UnknownAsset: { code: 'UnknownAsset', status: 400 },
  UnknownMarket: { code: 'UnknownMarket', status: 404 },
  UnknownExchange: { code: 'UnknownExchange', status: 404 },
  EmailAlreadyRegistered: { code: 'EmailAlreadyRegistered', status: 422 },
  ApiKeyLimitExceeded: { code: 'ApiKeyLimitExceeded', status: 422 },
  /** No promotion for the exchange, or none available to the caller (`/v1/promotions/*`). */
  PromotionNotFound: { code: 'PromotionNotFound', status: 404 },
  /** The caller already claimed the promotion it reads (`GET /v1/promotions/{connection_id}`). */
  PromotionAlreadyClaimed: { code: 'PromotionAlreadyClaimed', status: 403 },
  /** The sign-up UID does not match the promotion's validation pattern. */
  PromotionUidInvalid: { code: 'PromotionUidInvalid', status: 400 },
  /** Sign-up refused: the account was not invited to the promotion. */
  PromotionNotInvited: { code: 'PromotionNotInvited', status: 422 },
  /** Sign-up refused: the account already claimed the promotion. */
  PromotionClaimed: { code: 'PromotionClaimed', status: 422 },
  /** Sign-up refused: the venue UID was already used to claim this exchange's promotion. */
  PromotionUidUsed: { code: 'PromotionUidUsed', status: 422 },
  /** The request body is larger than the route accepts (1 MB at most; 64 KB on REST routes, 8 KB on client registration). */
  PayloadTooLarge: { code: 'PayloadTooLarge', status: 413 },
  /** The request's header block is larger than the server accepts (answered by the HTTP parser). */
  HeadersTooLarge: { code: 'HeadersTooLarge', status: 431 },
  RateLimited: { code: 'RateLimited', status: 429 },
  ApiKeyAllowanceExceeded: { code: 'ApiKeyAllowanceExceeded', status: 429 },
  /** DELETE of a connection the user does not have. */
  ConnectionNotFound: { code: 'ConnectionNotFound', status: 404 },
  ServiceUnavailable: { code: 'ServiceUnavailable', status: 503 },
  /** Every configured market source of the asset failed and the candle store holds nothing to serve instead. */
  SourceUnavailable: { code: 'SourceUnavailable', status: 503 },
  /** A connection's credential fields are missing or malformed ('Invalid credentials: ...'), before any venue call. */
  InvalidConnectionCredentials: { code: 'InvalidConnectionCredentials', status: 400 },
  /** The venue refused the credentials of a new connection; the message is the venue's. */
  VenueCredentialsRejected: { code: 'VenueCredentialsRejected', status: 422 },
  /** The user already holds the most connections allowed. */
  ConnectionLimitExceeded: { code: 'ConnectionLimitExceeded', status: 422 },
  // Positions (issue 8): a missing, closed or foreign position; a retired route; a position the
  // assessment cannot read, one code per reason (core's AssessmentErrorReason).
  PositionNotFound: { code: 'PositionNotFound', status: 404 },
  EndpointDeprecated: { code: 'EndpointDeprecated', status: 410 },
  PositionUnpricedWithoutAsset: { code: 'PositionUnpricedWithoutAsset', status: 422 },
  PositionUnpricedWithoutCandles: { code: 'PositionUnpricedWithoutCandles', status: 422 },
  PositionMarkNotPositive: { code: 'PositionMarkNotPositive', status: 422 },
  PositionEntryNotPositive: { code: 'PositionEntryNotPositive', status: 422 },
} as const satisfies Record<string, { code: number | string; status: ErrorStatus }>;

/** Statuses the contract documents for failures (section 7). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 410 | 413 | 422 | 429 | 431 | 500 | 503;

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
