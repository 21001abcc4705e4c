import type { Context } from 'hono';
import type { AppEnv } from './deps.js';
import { requestHeader } from './request-header.js';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

function normalize(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * The client address: the socket's peer. X-Forwarded-For is read only when the peer is a
 * configured trusted proxy, and then the rightmost hop that is not itself a trusted proxy wins
 * (hops to the left of it were written by the client and prove nothing).
 */
export function resolveClientIp(
  socketIp: string,
  forwardedFor: string | undefined,
  trusted: readonly string[],
): string {
  if (!forwardedFor || trusted.length === 0 || !trusted.includes(socketIp)) return socketIp;
  const hops = forwardedFor
    .split(',')
    .map((h) => normalize(h.trim()))
    .filter((h) => h.length > 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.includes(hops[i])) return hops[i];
  }
  return socketIp;
}

/** The client address of a request (see {@link resolveClientIp}); run once per request by the platform. */
export function clientIpOf(c: Context<AppEnv>, trusted: readonly string[]): string {
  const env = c.env as NodeBindings | undefined;
  const socketIp = normalize(env?.incoming?.socket?.remoteAddress ?? 'unknown');
  // Without trusted proxies X-Forwarded-For is never read.
  return trusted.length === 0 ? socketIp : resolveClientIp(socketIp, requestHeader(c, 'x-forwarded-for'), trusted);
}
