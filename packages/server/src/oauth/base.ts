import type { Context } from 'hono';
import type { AppEnv } from '../env.js';

/** The server's public base URL: `config.publicUrl` when set (behind a proxy), else the request's origin. */
export function baseUrlOf(c: Context<AppEnv>): string {
  const configured = c.get('deps').config.publicUrl;
  return configured ? configured.replace(/\/+$/, '') : new URL(c.req.url).origin;
}
