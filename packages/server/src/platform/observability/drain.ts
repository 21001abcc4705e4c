import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** How {@link drain} shuts a server down. */
export interface DrainOptions {
  /**
   * The drain period: for this long open connections stay open and every request on them is
   * answered, with `connection: close` (the client then opens its next connection elsewhere).
   */
  timeoutMs: number;
  /**
   * After the drain period, idle connections are closed as they go idle; a connection still busy
   * this much later is closed, request or not (default 5 s).
   */
  forceAfterMs?: number;
  /** How often connections that have gone idle are closed after the drain period; default 50 ms. */
  pollMs?: number;
  /**
   * The responses under way when the drain begins ({@link trackResponses}): they are answered with
   * `connection: close` too. Without them such a connection stays open, idle, until the period ends.
   */
  inFlight?: Iterable<ServerResponse>;
}

/** How a drain ended. */
export interface DrainResult {
  /** True when connections still busy were closed at the end (their requests cut short). */
  forced: boolean;
  /** Requests that arrived after the drain began, on connections open before it (all answered). */
  answered: number;
}

/**
 * Keeps the set of `server`'s responses not yet ended, for {@link drain}: one listener, and a set
 * entry per request while it runs.
 */
export function trackResponses(server: Pick<Server, 'on'>): Set<ServerResponse> {
  const open = new Set<ServerResponse>();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return open;
}

/** The part of a Node HTTP server {@link drain} uses. */
export type DrainableServer = Pick<
  Server,
  'close' | 'closeIdleConnections' | 'closeAllConnections' | 'prependListener' | 'off' | 'listening'
>;

/**
 * Shuts `server` down without resetting a request a client has sent: it stops accepting
 * connections at once (a new one is refused, which a proxy retries elsewhere, POST included), and
 * for the drain period (`timeoutMs`) keeps every open connection: requests in flight and requests
 * that arrive on open keep-alive connections are answered, each with `connection: close`, so the
 * connection ends after its response. Only then are the connections still open closed, each when
 * it is idle; one still busy `forceAfterMs` later is closed anyway. Resolves once the last
 * connection has closed. A server that is not listening resolves at once.
 *
 * Why not `server.close()`: since Node 19 it also closes the connections idle at that moment, and
 * a keep-alive client (nginx among them) may be sending its next request on one just then: the
 * request is reset after it was sent, and nginx does not retry a sent POST (a 502 to its client).
 * The listener is closed with `net.Server`'s own `close`, which leaves the connections alone.
 */
export function drain(server: DrainableServer, options: DrainOptions): Promise<DrainResult> {
  return new Promise((resolve) => {
    let forced = false;
    let answered = 0;
    if (!server.listening) {
      resolve({ forced, answered });
      return;
    }
    const closeAfterResponse = (_req: IncomingMessage, res: ServerResponse) => {
      answered++;
      if (!res.headersSent) res.setHeader('connection', 'close');
    };
    let poll: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const period = setTimeout(() => {
      server.closeIdleConnections();
      poll = setInterval(() => server.closeIdleConnections(), options.pollMs ?? 50);
      deadline = setTimeout(() => {
        forced = true;
        server.closeAllConnections();
      }, options.forceAfterMs ?? 5_000);
    }, options.timeoutMs);
    // First in line, so the header is set before the app's listener can answer synchronously.
    server.prependListener('request', closeAfterResponse);
    for (const res of options.inFlight ?? []) {
      // Not sent yet: the header says it. Sent (a stream): the connection ends after the body.
      if (!res.headersSent) res.setHeader('connection', 'close');
      else res.shouldKeepAlive = false;
    }
    // net.Server's close: stop listening, call back once every connection has ended.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(period);
      clearInterval(poll);
      clearTimeout(deadline);
      server.off('request', closeAfterResponse);
      resolve({ forced, answered });
    });
  });
}
