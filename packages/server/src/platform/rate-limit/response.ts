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
 * until the response is written and adds them in `writeHead`.
 *
 * Why not `setHeader`: one `setHeader` call before `writeHead` sends Node down its merging path
 * for every header of the response (each is validated and stored twice), which on a trivial
 * route cost about 30% of bare hono's CPU per request. @hono/node-server writes every response
 * with one `writeHead(status, record)`, so the four values join that record instead and Node
 * takes its direct path. The values land in {@link rateLimitHeaders} (an object the limiter
 * makes per request), never in the caller's record, which may be shared.
 */
export class PlatformResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Set by the rate limiter; written with the response's own headers by {@link writeHead}. */
  rateLimitHeaders: RateLimitHeaders | null;

  // Node's server passes options (highWaterMark, ...) beside the request; the typings omit them.
  constructor(...args: ConstructorParameters<typeof ServerResponse<Request>>) {
    super(...args);
    this.rateLimitHeaders = null;
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const extra = this.rateLimitHeaders;
    if (extra === null) return super.writeHead(statusCode, reason as string, headers);
    this.rateLimitHeaders = null;
    if (typeof reason === 'string') return super.writeHead(statusCode, reason, this.#merged(extra, headers));
    return super.writeHead(statusCode, this.#merged(extra, reason));
  }

  /** `extra` with `headers` over it; a raw header array keeps its form, the values set beside it. */
  #merged(
    extra: RateLimitHeaders,
    headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
  ): OutgoingHttpHeaders | OutgoingHttpHeader[] {
    if (Array.isArray(headers)) {
      for (const [name, value] of Object.entries(extra)) if (!this.hasHeader(name)) this.setHeader(name, value);
      return headers;
    }
    return headers === undefined ? (extra as unknown as OutgoingHttpHeaders) : Object.assign(extra, headers);
  }
}

/** Options for @hono/node-server's `serve` that make the server answer with {@link PlatformResponse}. */
export const PLATFORM_SERVER_OPTIONS: ServerOptions = { ServerResponse: PlatformResponse };
