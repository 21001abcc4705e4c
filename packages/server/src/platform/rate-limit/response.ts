import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type ServerOptions,
  ServerResponse,
} from 'node:http';

/** The four `x-ratelimit-*` values of one response, as the header record Node writes. */
export interface RateLimitHeaders {
  'x-ratelimit-limit': string;
  'x-ratelimit-remaining': string;
  'x-ratelimit-used': string;
  'x-ratelimit-window': string;
}

/**
 * The Node response class of the marketlens server: it carries the request's rate-limit headers
 * and its request id until the response is written, and adds them in `writeHead` (one merge for
 * both). A header the app sets itself wins.
 *
 * Why not `setHeader`: one `setHeader` call before `writeHead` sends Node down its merging path
 * for every header of the response (each is validated and stored twice), which on a trivial
 * route cost about 30% of bare hono's CPU per request (7% for the request id alone); hono's
 * `c.header` makes every response carry a WHATWG Headers object (12%). @hono/node-server writes
 * every response with one `writeHead(status, record)`, so the values join that record instead and
 * Node takes its direct path. The rate-limit values land in {@link rateLimitHeaders} (an object
 * the limiter makes per request), never in the caller's record, which may be shared.
 */
export class PlatformResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Set by the rate limiter; written with the response's own headers by {@link writeHead}. */
  rateLimitHeaders: RateLimitHeaders | null;
  /** Set by the request-id step or middleware (`x-request-id`); written with the response's own headers. */
  requestId: string | null;

  // Node's server passes options (highWaterMark, ...) beside the request; the typings omit them.
  constructor(...args: ConstructorParameters<typeof ServerResponse<Request>>) {
    super(...args);
    this.rateLimitHeaders = null;
    this.requestId = null;
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const limits = this.rateLimitHeaders;
    const id = this.requestId;
    if (limits === null && id === null) return super.writeHead(statusCode, reason as string, headers);
    this.rateLimitHeaders = null;
    this.requestId = null;
    if (typeof reason === 'string') return super.writeHead(statusCode, reason, this.#merged(limits, id, headers));
    return super.writeHead(statusCode, this.#merged(limits, id, reason));
  }

  /**
   * The rate-limit values, then the request id, then `headers` over them, in a new record (the
   * caller's may be shared); a raw header array keeps its form, the values set beside it.
   */
  #merged(
    limits: RateLimitHeaders | null,
    id: string | null,
    headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
  ): OutgoingHttpHeaders | OutgoingHttpHeader[] {
    if (Array.isArray(headers)) {
      if (id !== null && !this.hasHeader('x-request-id')) this.setHeader('x-request-id', id);
      if (limits !== null) {
        for (const [name, value] of Object.entries(limits)) if (!this.hasHeader(name)) this.setHeader(name, value);
      }
      return headers;
    }
    // A literal key lets V8 build the record from a template.
    const own = id === null ? headers : { 'x-request-id': id, ...headers };
    if (limits === null) return own ?? {};
    return own === undefined ? (limits as unknown as OutgoingHttpHeaders) : Object.assign(limits, own);
  }
}

/** Options for @hono/node-server's `serve` that make the server answer with {@link PlatformResponse}. */
export const PLATFORM_SERVER_OPTIONS: ServerOptions = { ServerResponse: PlatformResponse };
