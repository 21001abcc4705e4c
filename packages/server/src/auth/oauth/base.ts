import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';

/** The Node request @hono/node-server passes as `c.env.incoming` (absent under app.request). */
interface NodeBindings {
  incoming?: { socket?: { localAddress?: string } };
}

/** `127.0.0.0/8`, `::1`, `localhost` and its subdomains, as a URL spells the host name. */
function isLoopbackName(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** The local address a connection arrived on, as a URL spells it (`[v6]`, IPv4-mapped unwrapped). */
function urlHostOf(address: string): string {
  const v4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1];
  return address.includes(':') ? `[${address.toLowerCase()}]` : address;
}

/**
 * The server's public base URL, which is the OAuth issuer and, with `/mcp`, the audience of its
 * tokens. `config.publicUrl` when set (production requires it). Unset (the embedded default), the
 * request's origin, but only when its Host names this machine: a loopback name or address, or the
 * address the connection arrived on. Any other Host is refused, since a forged Host would otherwise
 * choose the issuer, the metadata and the audience of the tokens issued. The port is not checked:
 * a port mapping in front of the server (a container) legitimately changes it, and every port of
 * those hosts is this machine.
 */
export function baseUrlOf(c: Context<AppEnv>): string {
  const configured = c.get('deps').config.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  const url = new URL(c.req.url);
  const local = (c.env as NodeBindings | undefined)?.incoming?.socket?.localAddress;
  if (isLoopbackName(url.hostname) || (local !== undefined && url.hostname === urlHostOf(local))) return url.origin;
  throw new AppError(
    'HostNotAllowed',
    'The Host header does not name this server; set MARKETLENS_PUBLIC_URL to serve OAuth and /mcp under another name',
  );
}
