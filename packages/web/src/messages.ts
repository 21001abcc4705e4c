import { ApiError } from './api.js';

/**
 * The sentence the page shows for a failure: the API's own `message`, preceded by what it means
 * for the reader where the code says more (a gated timeframe, an ended session, an unknown asset,
 * the server away).
 */
export function describeError(err: unknown, context: { tierFor?: string } = {}): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  if (err.unreachable) return err.message;
  switch (err.code) {
    case 1004:
    case 1005:
      return `${context.tierFor ?? 'This'} needs the Pro plan. ${err.message}.`;
    case 'InvalidSession':
      return `Your session has ended; sign in again. (${err.message})`;
    case 'Unauthorized':
      return `Sign in to see this. (${err.message})`;
    case 'UnknownAsset':
      return `No such asset. ${err.message}`;
    default:
      return err.message;
  }
}
