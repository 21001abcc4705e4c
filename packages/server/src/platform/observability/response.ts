import type {
  IncomingMessage,
  OutgoingHttpHeader,
  OutgoingHttpHeaders,
  ServerOptions,
  ServerResponse,
} from 'node:http';
import { PlatformResponse } from '../rate-limit/response.js';

/** The header a request id arrives in and is answered with. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The platform's Node response class ({@link PlatformResponse}, which adds the rate-limit
 * headers) that also carries the request id until the response is written, and adds it in
 * `writeHead`, for the same reason: a `setHeader` before `writeHead` sends Node down its merging
 * path for every header of the response (measured here: 7% of bare hono's throughput for this
 * one header), and hono's `c.header` makes every response carry a WHATWG Headers object (12%).
 * A header the app sets itself wins.
 */
export class ObservedResponse<Request extends IncomingMessage = IncomingMessage> extends PlatformResponse<Request> {
  /** Set by the request-id step or middleware; written with the response's own headers. */
  requestId: string | null;

  // Node's server passes options (highWaterMark, ...) beside the request; the typings omit them.
  constructor(...args: ConstructorParameters<typeof ServerResponse<Request>>) {
    super(...args);
    this.requestId = null;
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const id = this.requestId;
    if (id === null) return super.writeHead(statusCode, reason as string, headers);
    this.requestId = null;
    if (typeof reason === 'string') return super.writeHead(statusCode, reason, this.#with(id, headers));
    return super.writeHead(statusCode, this.#with(id, reason));
  }

  /** A new record with the id under `headers` (the caller's may be shared); a raw array keeps its form. */
  #with(
    id: string,
    headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
  ): OutgoingHttpHeaders | OutgoingHttpHeader[] {
    if (Array.isArray(headers)) {
      if (!this.hasHeader(REQUEST_ID_HEADER)) this.setHeader(REQUEST_ID_HEADER, id);
      return headers;
    }
    // The name written out ({@link REQUEST_ID_HEADER}): a literal key lets V8 build the record from a template.
    return { 'x-request-id': id, ...headers };
  }
}

/** Options for @hono/node-server's `serve`: the server answers with {@link ObservedResponse}. */
export const OBSERVED_SERVER_OPTIONS: ServerOptions = { ServerResponse: ObservedResponse };
