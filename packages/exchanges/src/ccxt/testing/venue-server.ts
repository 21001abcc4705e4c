/**
 * A local stand-in for real venues, for tests: an HTTP server on 127.0.0.1 (random port) that
 * answers the requests of real ccxt clients with each venue's real response shapes.
 *
 * Clients reach it through ccxt's `proxyUrl`: ccxt sends `GET http://127.0.0.1:<port>/<target URL>`
 * (the target URI-encoded when it has a query), so the server sees the venue's own host and path
 * and routes on them. Every request is recorded for assertions (which endpoints were called, with
 * which parameters), and a request no route answers gets a 404 and is listed in `unmatched`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a venue would see it. */
export interface VenueRequest {
  method: string;
  /** The venue URL the client asked for (`https://api.binance.com/api/v3/account?...`). */
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A reply: status (default 200), body (JSON-encoded unless a string), headers, optional delay. */
export interface VenueReply {
  status?: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
  delayMs?: number;
}

/** Answers requests to one venue endpoint. */
export interface VenueRoute {
  method: 'GET' | 'POST';
  host: string;
  path: string;
  /** Further condition (a query parameter, a JSON body `type`). */
  when?: (request: VenueRequest) => boolean;
  reply: (request: VenueRequest) => VenueReply;
}

/** The running server. */
export interface VenueServer {
  /** The value for ccxt's `proxyUrl`. */
  readonly proxyUrl: string;
  /** Every request received, oldest first. */
  readonly requests: VenueRequest[];
  /** Requests no route answered. */
  readonly unmatched: VenueRequest[];
  /** Replaces the routes. */
  routes(routes: readonly VenueRoute[]): void;
  /** Routes tried before the regular ones until {@link VenueServer.reset} (failures, special pages). */
  override(route: VenueRoute): void;
  /** Drops overrides and the request log. */
  reset(): void;
  close(): Promise<void>;
}

/** The venue URL ccxt put behind the proxy prefix. */
function targetOf(rawPath: string): URL | null {
  const rest = rawPath.startsWith('/') ? rawPath.slice(1) : rawPath;
  const decoded = /^https?%3A/i.test(rest) ? decodeURIComponent(rest) : rest;
  try {
    return new URL(decoded);
  } catch {
    return null;
  }
}

/** A JSON body of a request (`{}` when it is not JSON). */
export function jsonBody(request: VenueRequest): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(request.body);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A form-encoded body of a request (Kraken's private calls). */
export function formBody(request: VenueRequest): URLSearchParams {
  return new URLSearchParams(request.body);
}

/** Starts the server on 127.0.0.1 with a random free port. */
export async function startVenueServer(): Promise<VenueServer> {
  let table: readonly VenueRoute[] = [];
  let overrides: VenueRoute[] = [];
  const requests: VenueRequest[] = [];
  const unmatched: VenueRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = targetOf(req.url ?? '/');
      const request: VenueRequest = {
        method: req.method ?? 'GET',
        url: url ?? new URL('http://invalid/'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const route = [...overrides, ...table].find(
        (r) =>
          url !== null &&
          r.method === request.method &&
          r.host === url.host &&
          r.path === url.pathname &&
          (r.when === undefined || r.when(request)),
      );
      if (route === undefined) {
        unmatched.push(request);
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `no route for ${request.method} ${url?.href ?? req.url}` }));
        return;
      }
      const reply = route.reply(request);
      const send = (): void => {
        if (res.destroyed) return;
        const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(body);
      };
      if (reply.delayMs === undefined) send();
      else {
        const timer = setTimeout(() => {
          pending.delete(timer);
          send();
        }, reply.delayMs);
        pending.add(timer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    proxyUrl: `http://127.0.0.1:${port}/`,
    requests,
    unmatched,
    routes(routes) {
      table = routes;
    },
    override(route) {
      overrides.push(route);
    },
    reset() {
      overrides = [];
      requests.length = 0;
      unmatched.length = 0;
    },
    close() {
      for (const t of pending) clearTimeout(t);
      pending.clear();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
