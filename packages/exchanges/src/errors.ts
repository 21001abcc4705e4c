/** Stable codes of {@link VenueError}. */
export type VenueErrorCode =
  | 'invalid_credentials'
  | 'authentication_failed'
  | 'rate_limited'
  | 'timeout'
  | 'maintenance'
  | 'not_supported'
  | 'unknown_asset'
  | 'unknown_market'
  | 'bad_request'
  | 'network'
  /** Every configured source of an asset failed and nothing is stored to serve instead. */
  | 'unavailable';

/** Codes that are worth retrying by default. */
const RETRYABLE: ReadonlySet<VenueErrorCode> = new Set([
  'rate_limited',
  'timeout',
  'maintenance',
  'network',
  'unavailable',
]);

/** Options of {@link VenueError}. */
export interface VenueErrorOptions {
  /** The venue id the error came from. */
  venue?: string;
  /** Overrides the default retryability of the code. */
  retryable?: boolean;
  /** How long to wait before retrying, when the venue says. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * The one error an adapter throws. `code` is stable for programs; `message` is the venue-specific
 * text for a human; `retryable` says whether the same call may succeed later (rate limits,
 * timeouts, maintenance, network faults by default).
 */
export class VenueError extends Error {
  override readonly name = 'VenueError';
  readonly code: VenueErrorCode;
  readonly venue: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(code: VenueErrorCode, message: string, options: VenueErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.venue = options.venue;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
    this.retryAfterMs = options.retryAfterMs;
  }
}
