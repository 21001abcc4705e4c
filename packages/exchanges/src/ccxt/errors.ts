import { STATUS_CODES } from 'node:http';
import { VenueError, type VenueErrorCode } from '../errors.js';
import type { VenueProfile } from './venues.js';

/**
 * ccxt error class names, most specific first, and the {@link VenueError} code each maps to.
 * Matching walks the error's prototype chain, so a subclass ccxt adds later still lands on its
 * parent's code, and nothing here needs ccxt loaded.
 */
const CODE_BY_CLASS: ReadonlyArray<readonly [string, VenueErrorCode]> = [
  ['OnMaintenance', 'maintenance'],
  ['RateLimitExceeded', 'rate_limited'],
  ['DDoSProtection', 'rate_limited'],
  ['RequestTimeout', 'timeout'],
  ['ExchangeNotAvailable', 'network'],
  ['InvalidNonce', 'network'],
  ['NetworkError', 'network'],
  ['BadResponse', 'network'],
  ['AuthenticationError', 'authentication_failed'],
  ['BadSymbol', 'unknown_market'],
  ['NotSupported', 'not_supported'],
  ['ArgumentsRequired', 'bad_request'],
  ['BadRequest', 'bad_request'],
  ['OperationFailed', 'network'],
  ['ExchangeError', 'bad_request'],
];

/** Names of the classes on an error's prototype chain (`PermissionDenied`, `AuthenticationError`, ...). */
function classChain(error: object): string[] {
  const names: string[] = [];
  for (
    let p: unknown = Object.getPrototypeOf(error);
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    const ctor = (p as { constructor?: { name?: unknown } }).constructor;
    if (typeof ctor?.name === 'string' && ctor.name !== '') names.push(ctor.name);
  }
  const own = (error as { name?: unknown }).name;
  if (typeof own === 'string') names.unshift(own);
  return names;
}

/** True when `error` is a ccxt error (its chain reaches ccxt's `BaseError`). */
export function isCcxtError(error: unknown): error is Error {
  return error instanceof Error && classChain(error).includes('BaseError');
}

/** True when the ccxt error is, or descends from, the named ccxt class. */
export function isCcxtClass(error: unknown, name: string): boolean {
  return error instanceof Error && classChain(error).includes(name);
}

/**
 * The venue's own words from a ccxt error message. ccxt writes `<id> <body>`, where the body is
 * often the venue's JSON error (`{"code":-2015,"msg":"Invalid API-key..."}`); the human text in it
 * is picked from the fields venues use (`msg`, `retMsg`, `message`, `error`, OKX's `sMsg`).
 */
export function venueMessage(message: string, ccxtId: string): string {
  let text = message.trim();
  if (text.startsWith(`${ccxtId} `)) text = text.slice(ccxtId.length + 1).trim();
  // ccxt's HTTP-level messages read `<METHOD> <url> <status> <reason> <body>`: the URL says nothing
  // to a user (and may be a proxy's), the reason phrase only repeats the status.
  text = text.replace(/\b(?:GET|POST|PUT|DELETE|PATCH) https?:\/\/\S+\s*/g, '').trim();
  const status = /^(\d{3}) (.*)$/s.exec(text);
  if (status !== null) {
    const reason = STATUS_CODES[status[1]] ?? '';
    const rest = status[2].startsWith(reason) ? status[2].slice(reason.length).trim() : status[2].trim();
    text = rest === '' ? `${status[1]} ${reason}`.trim() : rest;
  }
  const start = text.search(/[{[]/);
  if (start >= 0) {
    try {
      const picked = pickMessage(JSON.parse(text.slice(start)));
      if (picked !== null) return clip(picked);
    } catch {
      // not JSON: fall through to the raw text
    }
  }
  return clip(text);
}

function pickMessage(body: unknown): string | null {
  if (typeof body === 'string') return body.trim() === '' ? null : body;
  if (Array.isArray(body)) {
    const parts = body.map(pickMessage).filter((p): p is string => p !== null);
    return parts.length > 0 ? parts.join('; ') : null;
  }
  if (body === null || typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  for (const key of ['msg', 'retMsg', 'message', 'error_description', 'error', 'errors', 'response', 'sMsg']) {
    const picked = pickMessage(record[key]);
    if (picked !== null) return picked;
  }
  const data = record.data;
  return Array.isArray(data) ? pickMessage(data[0]) : null;
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

/** `Retry-After` (seconds or an HTTP date) from the last response headers, in milliseconds. */
export function retryAfterMs(
  headers: Readonly<Record<string, unknown>> | undefined,
  now = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== 'retry-after' || typeof value !== 'string') continue;
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/**
 * Maps a failure of a ccxt call onto a {@link VenueError} with a venue-specific message
 * ("Binance rejected the API key: Invalid API-key, IP, or permissions for action.").
 * A `VenueError` passes through; anything that is not a ccxt error (a bug) is rethrown as is.
 */
export function toVenueError(
  error: unknown,
  profile: VenueProfile,
  headers?: Readonly<Record<string, unknown>>,
): VenueError {
  if (error instanceof VenueError) return error;
  if (!isCcxtError(error)) throw error;
  const chain = classChain(error);
  let code: VenueErrorCode = 'bad_request';
  for (const [name, mapped] of CODE_BY_CLASS) {
    if (chain.includes(name)) {
      code = mapped;
      break;
    }
  }
  const said = venueMessage(error.message, profile.id);
  // Venues announce maintenance in words more often than with a code ccxt knows (ccxt reports an
  // HTTP 503 as ExchangeNotAvailable and an unknown code as ExchangeError): the words decide.
  if (code !== 'authentication_failed' && code !== 'rate_limited' && /maintenance|maintaining|upgrading/i.test(said)) {
    code = 'maintenance';
  } else if (code === 'bad_request' && /try again later|system error|server error|internal error/i.test(said)) {
    code = 'network';
  }
  const options = {
    venue: profile.id,
    cause: error,
    retryAfterMs: code === 'rate_limited' ? retryAfterMs(headers) : undefined,
  };
  return new VenueError(code, messageFor(code, profile, said), options);
}

function messageFor(code: VenueErrorCode, profile: VenueProfile, said: string): string {
  const { name } = profile;
  switch (code) {
    case 'authentication_failed':
      return `${name} rejected ${profile.credentialNoun}: ${said}`;
    case 'rate_limited':
      return `${name} rate limit reached: ${said}`;
    case 'timeout':
      return `${name} did not answer in time: ${said}`;
    case 'maintenance':
      return `${name} is under maintenance: ${said}`;
    case 'network':
      return `${name} could not be reached: ${said}`;
    case 'unknown_market':
      return `${name} does not know this market: ${said}`;
    case 'not_supported':
      return `${name} does not support this: ${said}`;
    default:
      return `${name} refused the request: ${said}`;
  }
}
