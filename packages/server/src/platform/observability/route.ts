import type { Context } from 'hono';
import { routePath } from 'hono/route';

/** The route label of a request no route answered (a 404 from the not-found handler). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The registered pattern of the route answering `c` (`/v2/analysis/:asset_id`), never the raw
 * path: labels and log fields stay one per route, however many assets or ids are requested.
 * Read it from inside the route's handler, or in a middleware after `await next()`. When only
 * middleware matched (`*`, `/*`: a 404), the request is {@link UNMATCHED_ROUTE}, so a scan of
 * random paths adds no series.
 */
export function routeLabel(c: Context): string {
  // hono points routeIndex at each handler it calls; after the chain, at the one that answered.
  const path = routePath(c);
  return path === '*' || path === '/*' || path === '' ? UNMATCHED_ROUTE : path;
}
