import type { Context } from 'hono';
import type { AppEnv } from './deps.js';

/** The Node request @hono/node-server passes as `c.env.incoming` (absent under app.request). */
interface NodeBindings {
  incoming?: { headers?: Record<string, string | string[] | undefined> };
}

/**
 * A request header by its lower-case name, as `c.req.header(name)` reads it.
 *
 * On @hono/node-server it is read from Node's own parsed header object, which the adapter has
 * built anyway (it reads `host` from it): `c.req.header` would first build hono's request
 * wrapper and the adapter's Headers view and validate the name, for the same string. Node joins
 * repeated headers with `, ` as WHATWG Headers do, except a few it keeps only once
 * (`authorization` among them); for those an empty first value is left to `c.req.header`, so
 * presence checks give the same answer either way.
 */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const headers = (c.env as NodeBindings | undefined)?.incoming?.headers;
  if (headers === undefined) return c.req.header(name);
  const value = headers[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' && value !== '' ? value : c.req.header(name);
}
