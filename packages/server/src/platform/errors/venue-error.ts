import { VenueError } from '@marketlens/exchanges';
import { AppError } from './app-error.js';

/**
 * A market-data failure as the client sees it: unknown assets and markets are 404s, a venue that
 * is down or limiting us is 503 (with `retry-after` when the venue said), anything else stays
 * unexpected (500, logged). Returns `err` unchanged when it is no `VenueError`.
 */
export function fromVenueError(err: unknown): unknown {
  if (!(err instanceof VenueError)) return err;
  switch (err.code) {
    case 'unknown_asset':
      return new AppError('UnknownAsset', err.message);
    case 'unknown_market':
      return new AppError('UnknownMarket', err.message);
    case 'bad_request':
      return new AppError('InvalidRequest', err.message);
    case 'unavailable':
      return new AppError(
        'SourceUnavailable',
        `${err.message}; nothing is stored to serve instead, retry later`,
        err.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.ceil(err.retryAfterMs / 1000)) },
      );
    default:
      if (!err.retryable) return err;
      return new AppError(
        'ServiceUnavailable',
        'Market data is unavailable right now; retry later',
        err.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.ceil(err.retryAfterMs / 1000)) },
      );
  }
}

/** Runs a market-data read, translating its `VenueError`s (see {@link fromVenueError}). */
export async function venueCall<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw fromVenueError(err);
  }
}
