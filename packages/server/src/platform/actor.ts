import type { Context } from 'hono';
import type { Actor, AppEnv } from './deps.js';
import { admitted } from './pipeline.js';

/** The actor of a REST request: its caller and client, and the rate limit's verdict when it is still on its way. */
export function actorOf(c: Context<AppEnv>): Actor {
  return { caller: c.get('caller'), client: c.get('client'), admitted: () => admitted(c) };
}
