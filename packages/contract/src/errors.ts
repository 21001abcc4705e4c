/**
 * The one table of error codes, with the HTTP status each is answered with and what it means.
 * Clients branch on `code`, never on `message`; a code once published keeps its meaning. Numeric
 * codes are the original contract's (1, 1004, 1005), the others are stable names. REST answers them
 * in an `ErrorResponse`, MCP tools in `structuredContent.code` (the table is `docs/errors.md`).
 */

/** Statuses failures are answered with. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 410 | 413 | 422 | 429 | 431 | 500 | 503;

/** One row of the error table. */
export interface ErrorCodeRow {
  code: number | string;
  status: ErrorStatus;
  meaning: string;
}

/** Every error the service sends, by name. */
export const ERROR_CODES = {
  GeneralError: {
    code: 1,
    status: 500,
    meaning: 'The failure is not one the service describes; its details stay in the server.',
  },
  AnalysisTimeframeRestricted: {
    code: 1004,
    status: 402,
    meaning: 'The timeframe needs Pro (every timeframe but d1).',
  },
  AnalysisHistoryDepthRestricted: {
    code: 1005,
    status: 402,
    meaning: 'More candles than the free chart depth (500) needs Pro.',
  },
  NotificationLimitExceeded: {
    code: 'NotificationLimitExceeded',
    status: 402,
    meaning: 'The user already holds the most alerts the tier allows.',
  },
  InvalidNotification: {
    code: 'InvalidNotification',
    status: 400,
    meaning: 'An alert payload that does not hold together (kind and timeframe, shape).',
  },
  TargetOutOfRange: {
    code: 'TargetOutOfRange',
    status: 400,
    meaning: "An alert target outside its kind's range or too far from the live market.",
  },
  NotificationNotFound: { code: 'NotificationNotFound', status: 404, meaning: 'No alert of the caller has this id.' },
  NoActiveDevice: {
    code: 'NoActiveDevice',
    status: 410,
    meaning: 'Creating an alert needs at least one active push device or alert webhook.',
  },
  InvalidPushSubscription: {
    code: 'InvalidPushSubscription',
    status: 400,
    meaning: 'The push subscription is malformed or its endpoint is not an allowed push service.',
  },
  DeviceNotFound: { code: 'DeviceNotFound', status: 404, meaning: 'No push device of the caller has this id.' },
  InvalidWebhook: {
    code: 'InvalidWebhook',
    status: 400,
    meaning:
      'The alert webhook URL is refused: not an absolute https URL on port 443, carrying credentials, or naming a local, private, link-local or metadata address.',
  },
  WebhookLimitExceeded: {
    code: 'WebhookLimitExceeded',
    status: 422,
    meaning: 'The user already holds the most alert webhooks allowed (5); delete one first.',
  },
  WebhookNotFound: { code: 'WebhookNotFound', status: 404, meaning: 'No alert webhook of the caller has this id.' },
  SignalControlsRestricted: {
    code: 'SignalControlsRestricted',
    status: 402,
    meaning: 'A caller without Pro used one of the ten signal-list controls (`/v2/assets/signals`).',
  },
  InvalidRequest: {
    code: 'InvalidRequest',
    status: 400,
    meaning: 'The request does not match the schema of the route; the message names the fields.',
  },
  MalformedJson: { code: 'MalformedJson', status: 400, meaning: 'The body is not JSON.' },
  ApiKeyInQuery: {
    code: 'ApiKeyInQuery',
    status: 400,
    meaning: 'An API key was sent in the query string; send it in the x-api-key header.',
  },
  Unauthorized: {
    code: 'Unauthorized',
    status: 401,
    meaning: 'The route needs a session or an API key and the request carried neither.',
  },
  InvalidSession: {
    code: 'InvalidSession',
    status: 401,
    meaning: 'The session token is unknown, expired or signed out.',
  },
  InvalidApiKey: { code: 'InvalidApiKey', status: 401, meaning: 'The API key is unknown or revoked.' },
  ApiKeyNotAccepted: {
    code: 'ApiKeyNotAccepted',
    status: 401,
    meaning: 'This route does not accept API keys (sign in instead).',
  },
  BearerNotAccepted: {
    code: 'BearerNotAccepted',
    status: 401,
    meaning: 'This route does not accept OAuth bearer tokens.',
  },
  InvalidCredentials: {
    code: 'InvalidCredentials',
    status: 401,
    meaning: 'The email or password is wrong (where verification is required: or the email is not verified yet).',
  },
  InvalidToken: {
    code: 'InvalidToken',
    status: 401,
    meaning: '`/mcp`: the bearer token is unknown, expired, revoked, for another audience, or its session ended.',
  },
  UnsupportedClientVersion: {
    code: 'UnsupportedClientVersion',
    status: 403,
    meaning: 'The client build is older than the oldest supported one; update the app.',
  },
  EmailNotVerified: {
    code: 'EmailNotVerified',
    status: 403,
    meaning:
      'Where verification is required, creating API keys, exchange connections or alerts needs a verified email (`POST /v1/auth/verify/resend`).',
  },
  AccountDisabled: {
    code: 'AccountDisabled',
    status: 403,
    meaning:
      'An operator disabled this account: it cannot sign in and its API keys are refused until it is enabled again.',
  },
  InvalidVerificationToken: {
    code: 'InvalidVerificationToken',
    status: 400,
    meaning: 'The email verification link is unknown, already used or older than 24 hours; ask for a new one.',
  },
  PasswordMismatch: {
    code: 'PasswordMismatch',
    status: 403,
    meaning: "The password given again to confirm an operation (deleting the account) is not the account's.",
  },
  InvalidResetToken: {
    code: 'InvalidResetToken',
    status: 400,
    meaning: 'The password reset token is unknown, already used or older than 30 minutes; ask for a new one.',
  },
  PilotNotEligible: {
    code: 'PilotNotEligible',
    status: 403,
    meaning: "The caller's 30-day affiliate volume does not qualify for pilot spectate.",
  },
  OriginNotAllowed: {
    code: 'OriginNotAllowed',
    status: 403,
    meaning: '`/mcp` from a browser page whose Origin is neither the public origin nor an allowed one.',
  },
  HostNotAllowed: {
    code: 'HostNotAllowed',
    status: 400,
    meaning:
      "OAuth and `/mcp` without a public URL configured: the Host names neither loopback nor this server's address.",
  },
  StablecoinNotAnalyzed: { code: 'StablecoinNotAnalyzed', status: 400, meaning: 'Stablecoins are not analysed.' },
  NotFound: { code: 'NotFound', status: 404, meaning: 'No such route or resource.' },
  UnknownAsset: {
    code: 'UnknownAsset',
    status: 400,
    meaning:
      'The asset names no tracked asset (an id such as `bitcoin`, a ticker such as `BTC`, or a pair such as `EURUSD`).',
  },
  AmbiguousAsset: {
    code: 'AmbiguousAsset',
    status: 400,
    meaning: 'The ticker names more than one asset; the message lists the candidate ids to use instead.',
  },
  UnknownMarket: {
    code: 'UnknownMarket',
    status: 404,
    meaning: 'The asset has no market of the requested type or pair on the venue.',
  },
  UnknownExchange: { code: 'UnknownExchange', status: 404, meaning: 'The exchange id names no known venue.' },
  EmailAlreadyRegistered: {
    code: 'EmailAlreadyRegistered',
    status: 422,
    meaning: 'An account with this email already exists.',
  },
  StreamSubscriptionLimitExceeded: {
    code: 'StreamSubscriptionLimitExceeded',
    status: 422,
    meaning:
      '`GET /v2/stream` names more asset and timeframe pairs than the tier may follow on one stream (free 5, Pro 50, Elite 200).',
  },
  ApiKeyLimitExceeded: {
    code: 'ApiKeyLimitExceeded',
    status: 422,
    meaning: 'The user already holds the most API keys allowed.',
  },
  PromotionNotFound: {
    code: 'PromotionNotFound',
    status: 404,
    meaning: 'No promotion for the exchange, or none available to the caller (`/v1/promotions/*`).',
  },
  PromotionAlreadyClaimed: {
    code: 'PromotionAlreadyClaimed',
    status: 403,
    meaning: 'The caller already claimed the promotion it reads (`GET /v1/promotions/{connection_id}`).',
  },
  PromotionUidInvalid: {
    code: 'PromotionUidInvalid',
    status: 400,
    meaning: "The sign-up UID does not match the promotion's validation pattern.",
  },
  PromotionNotInvited: {
    code: 'PromotionNotInvited',
    status: 422,
    meaning: 'Sign-up refused: the account was not invited to the promotion.',
  },
  PromotionClaimed: {
    code: 'PromotionClaimed',
    status: 422,
    meaning: 'Sign-up refused: the account already claimed the promotion.',
  },
  PromotionUidUsed: {
    code: 'PromotionUidUsed',
    status: 422,
    meaning: "Sign-up refused: the venue UID was already used to claim this exchange's promotion.",
  },
  PayloadTooLarge: {
    code: 'PayloadTooLarge',
    status: 413,
    meaning:
      'The request body is larger than the route accepts (1 MB at most; 64 KB on REST routes, 8 KB on client registration).',
  },
  HeadersTooLarge: {
    code: 'HeadersTooLarge',
    status: 431,
    meaning: "The request's header block is larger than the server accepts (answered by the HTTP parser).",
  },
  RateLimited: {
    code: 'RateLimited',
    status: 429,
    meaning: 'Too many request units from this client in the last 60 s; retry after retry-after seconds.',
  },
  ApiKeyAllowanceExceeded: {
    code: 'ApiKeyAllowanceExceeded',
    status: 429,
    meaning: "The API key's daily allowance is spent; it renews at 00:00 UTC.",
  },
  ConnectionNotFound: {
    code: 'ConnectionNotFound',
    status: 404,
    meaning: 'DELETE of a connection the user does not have.',
  },
  ServiceUnavailable: {
    code: 'ServiceUnavailable',
    status: 503,
    meaning:
      'Something the answer depends on is unreachable or limiting us (an upstream venue, the database, the shared state of several instances); retry after retry-after seconds when sent.',
  },
  SourceUnavailable: {
    code: 'SourceUnavailable',
    status: 503,
    meaning: 'Every configured market source of the asset failed and the candle store holds nothing to serve instead.',
  },
  InvalidConnectionCredentials: {
    code: 'InvalidConnectionCredentials',
    status: 400,
    meaning:
      "A connection's credential fields are missing or malformed ('Invalid credentials: ...'), before any venue call.",
  },
  VenueCredentialsRejected: {
    code: 'VenueCredentialsRejected',
    status: 422,
    meaning: "The venue refused the credentials of a new connection; the message is the venue's.",
  },
  ConnectionLimitExceeded: {
    code: 'ConnectionLimitExceeded',
    status: 422,
    meaning: 'The user already holds the most connections allowed.',
  },
  PositionNotFound: { code: 'PositionNotFound', status: 404, meaning: 'No open position of the caller has this id.' },
  EndpointDeprecated: {
    code: 'EndpointDeprecated',
    status: 410,
    meaning: 'The route was retired; the message names its replacement.',
  },
  PositionUnpricedWithoutAsset: {
    code: 'PositionUnpricedWithoutAsset',
    status: 422,
    meaning: 'The position maps to no tracked asset, so it cannot be assessed.',
  },
  PositionUnpricedWithoutCandles: {
    code: 'PositionUnpricedWithoutCandles',
    status: 422,
    meaning: 'No candles could be read for the position, so it cannot be assessed.',
  },
  PositionMarkNotPositive: {
    code: 'PositionMarkNotPositive',
    status: 422,
    meaning: 'The mark of the position is not a positive price.',
  },
  PositionEntryNotPositive: {
    code: 'PositionEntryNotPositive',
    status: 422,
    meaning: 'The entry price of the position is not a positive price.',
  },
  MethodNotAllowed: {
    code: 'MethodNotAllowed',
    status: 405,
    meaning: 'The path exists but not with this method; the Allow header lists the methods it answers.',
  },
} as const satisfies Record<string, ErrorCodeRow>;

export type ErrorName = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorName]['code'];

/** Code 1 (`GeneralError`): the failure is not one the service describes. */
export const GENERAL_ERROR = ERROR_CODES.GeneralError.code;

/** The error name a code stands for (`1004` gives `AnalysisTimeframeRestricted`), or null. */
export function errorNameOf(code: number | string): ErrorName | null {
  for (const [name, row] of Object.entries(ERROR_CODES)) if (row.code === code) return name as ErrorName;
  return null;
}
