import type { Context } from 'hono';
import type { AppEnv } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';

const QUERY_KEY_NAMES = ['api_key', 'apikey', 'apiKey', 'x-api-key', 'x_api_key'];

/** The Node request @hono/node-server passes as `c.env.incoming` (absent under app.request). */
interface NodeBindings {
  incoming?: { url?: string };
}

/**
 * Keys travel only in the `x-api-key` header; the query-string form was removed.
 * The query string is parsed only when the URL has one (on Node, read from the request target,
 * so a request without one never builds hono's request wrapper here).
 */
export function refuseQueryKey(c: Context<AppEnv>): void {
  const target = (c.env as NodeBindings | undefined)?.incoming?.url;
  if (!(target ?? c.req.url).includes('?')) return;
  for (const name of QUERY_KEY_NAMES) {
    if (c.req.query(name) !== undefined) {
      throw new AppError(
        'ApiKeyInQuery',
        'API keys are accepted only in the x-api-key header, never in the query string',
      );
    }
  }
}
