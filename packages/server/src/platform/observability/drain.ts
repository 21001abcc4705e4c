import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How long {@link drain} waits for in-flight requests. */
export interface DrainOptions {
  /** After this, the connections still open are closed, requests or not. */
  timeoutMs: number;
  /** How often connections that have gone idle are closed while waiting; default 50 ms. */
  pollMs?: number;
}

/** How a drain ended: `forced` when the timeout closed connections that were still busy. */
export interface DrainResult {
  forced: boolean;
}

/** The part of a Node HTTP server {@link drain} uses. */
export type DrainableServer = Pick<
  Server,
  'close' | 'closeIdleConnections' | 'closeAllConnections' | 'prependListener' | 'off'
>;

/**
 * Shuts `server` down gracefully: it stops accepting connections, idle keep-alive connections are
 * closed at once, requests in flight are answered, and each connection is closed as soon as its
 * last response is sent (a request arriving meanwhile on an open connection is answered with
 * `connection: close`). Resolves when the last connection has closed, or, `timeoutMs` after
 * the call, closes whatever is left and resolves with `forced: true`. A server that is not
 * listening resolves at once.
 *
 * Why more than `server.close()`: Node closes the connections idle at the moment of the call, but a
 * keep-alive connection busy then stays open after its response until its keep-alive timeout, and
 * keeps taking requests; Node says nothing when a connection goes idle, so they are looked for
 * every `pollMs`.
 */
export function drain(server: DrainableServer, options: DrainOptions): Promise<DrainResult> {
  return new Promise((resolve) => {
    let forced = false;
    const closeAfterResponse = (_req: IncomingMessage, res: ServerResponse) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    };
    const poll = setInterval(() => server.closeIdleConnections(), options.pollMs ?? 50);
    const deadline = setTimeout(() => {
      forced = true;
      server.closeAllConnections();
    }, options.timeoutMs);
    // First in line, so the header is set before the app's listener can answer synchronously.
    server.prependListener('request', closeAfterResponse);
    server.close(() => {
      clearInterval(poll);
      clearTimeout(deadline);
      server.off('request', closeAfterResponse);
      resolve({ forced });
    });
    server.closeIdleConnections();
  });
}
