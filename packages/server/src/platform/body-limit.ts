import type { Context } from 'hono';
import type { AppEnv } from './deps.js';
import { AppError } from './errors/app-error.js';

/** The largest request body any route accepts (routes outside the API's prefixes). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The REST and OAuth routes take small JSON or form bodies. */
export const ACCOUNT_BODY_LIMIT = 64 * 1024;
/**
 * One MCP message: the largest tool arguments (an alert, a position's notes, a filter) take a few
 * KB. A larger body is refused with 413 before it is read whole or parsed.
 */
export const MCP_BODY_LIMIT = 64 * 1024;
/** Client registration is unauthenticated: a few short fields. */
export const REGISTER_BODY_LIMIT = 8 * 1024;

/** Body limit of a route, by its path (hono path syntax) or, for unmatched requests, the request path. */
export function bodyLimitOf(path: string): number {
  if (path === '/oauth/register') return REGISTER_BODY_LIMIT;
  if (path === '/mcp') return MCP_BODY_LIMIT;
  if (path.startsWith('/v1/') || path.startsWith('/v2/') || path.startsWith('/oauth/') || path.startsWith('/pilot/'))
    return ACCOUNT_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}

// No `connection: close`: closing at once would reset the connection before the client reads the
// answer. @hono/node-server reads and discards the rest for a moment (at most 64 MB or 0.5 s),
// then closes.
const tooLarge = (limit: number) => new AppError('PayloadTooLarge', `Request body larger than ${limit} bytes`);

/**
 * Refuses a request body larger than `limit` bytes with 413 before it is buffered: a declared
 * `content-length` is checked up front (synchronously, so requests with small or no bodies stay
 * on the synchronous path); a chunked body (or one of unknown length) is read here, counting
 * bytes, and refused as soon as it passes the limit, then handed on from memory (at most `limit`
 * bytes).
 */
export function limitBody(c: Context<AppEnv>, limit: number): Promise<void> | undefined {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  const length = c.req.header('content-length');
  if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
    if (Number(length) > limit) throw tooLarge(limit);
    return undefined;
  }
  // Chunked, or a body of unknown length (a Request made in process).
  const body = c.req.raw.body;
  if (body === null) return undefined;
  return readLimited(body, limit).then((bytes) => {
    c.req.raw = new Request(c.req.raw, { body: bytes });
  });
}

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
