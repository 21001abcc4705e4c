import { ApiError, BAD_ANSWER } from './api.js';
import type { Catalog } from './i18n/catalog.js';

/**
 * The sentence the page shows for a failure, in the page's language: a sentence for what the
 * `ErrorResponse`'s stable `code` means for the reader (a gated timeframe, an ended session, an
 * unknown asset, the server away), then the API's own `message`, which the server writes in
 * English (clients branch on the code, never on the message).
 */
export function describeError(err: unknown, t: Catalog, context: { tierFor?: string } = {}): string {
  const e = t.errors;
  if (!(err instanceof ApiError)) return e.browser(err instanceof Error ? err.message : String(err));
  if (err.unreachable) return e.unreachable;
  if (err.code === BAD_ANSWER) return e.badAnswer(err.status);
  const m = err.message;
  switch (err.code) {
    case 1004:
    case 1005:
    case 'SignalControlsRestricted':
      return context.tierFor === undefined ? e.thisNeedsPro(m) : e.needsPro(context.tierFor, m);
    case 'InvalidSession':
      return e.sessionEnded(m);
    case 'Unauthorized':
    case 'ApiKeyNotAccepted':
      return e.signInToSee(m);
    case 'UnknownAsset':
    case 'AmbiguousAsset':
    case 'StablecoinNotAnalyzed':
      return e.unknownAsset(m);
    case 'InvalidCredentials':
    case 'EmailNotVerified':
      return e.badCredentials(m);
    case 'RateLimited':
    case 'ApiKeyAllowanceExceeded':
      return e.rateLimited(m);
    case 'InvalidRequest':
    case 'MalformedJson':
    case 'InvalidNotification':
    case 'TargetOutOfRange':
      return e.invalidInput(m);
    case 'NotificationLimitExceeded':
    case 'ApiKeyLimitExceeded':
    case 'ConnectionLimitExceeded':
    case 'WebhookLimitExceeded':
      return e.limitReached(m);
    case 'NoActiveDevice':
      return e.noDevice(m);
    case 'EmailAlreadyRegistered':
      return e.emailTaken(m);
    default:
      return e.other(m);
  }
}
