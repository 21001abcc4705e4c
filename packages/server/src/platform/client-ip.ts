import { isIPv6 } from 'node:net';
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

/** The IPv6 prefix length that counts as one client by default: a /64 is what one host or home is given. */
export const DEFAULT_IPV6_PREFIX = 64;

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail read as two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16));
}

/**
 * The key a client address is counted under by the rate limit, the login and sign-up budgets and
 * the connection cap: an IPv4 address itself, an IPv6 address by its first `prefix` bits (default
 * a /64, what one subscriber is given, so rotating through its addresses buys nothing), written
 * `2001:db8:1:2::/64`. An IPv4-mapped IPv6 address is its IPv4 address. Anything else (a unix
 * socket, `unknown`) is itself.
 */
export function addressGroup(address: string, prefix = DEFAULT_IPV6_PREFIX): string {
  const ip = normalize(address);
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  const kept: string[] = [];
  for (let i = 0; i < 8; i++) {
    const bits = Math.max(0, Math.min(16, prefix - i * 16));
    if (bits === 0) break;
    const mask = bits === 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    kept.push((groups[i] & mask).toString(16));
  }
  return prefix >= 128 ? `${kept.join(':')}/128` : `${kept.join(':')}::/${prefix}`;
}
