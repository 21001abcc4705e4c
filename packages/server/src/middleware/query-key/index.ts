import type { Context } from 'hono';
import type { AppEnv } from '../../env.js';
import { AppError } from '../../errors/app-error.js';

const QUERY_KEY_NAMES = ['api_key', 'apikey', 'apiKey', 'x-api-key', 'x_api_key'];

/**
 * Keys travel only in the `x-api-key` header; the query-string form was removed (section 9).
 * The query string is parsed only when the URL has one.
 */
export function refuseQueryKey(c: Context<AppEnv>): void {
  if (!c.req.url.includes('?')) return;
  for (const name of QUERY_KEY_NAMES) {
    if (c.req.query(name) !== undefined) {
      throw new AppError(
        'ApiKeyInQuery',
        'API keys are accepted only in the x-api-key header, never in the query string',
      );
    }
  }
}
