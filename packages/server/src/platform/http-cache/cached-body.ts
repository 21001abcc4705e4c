import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import type { AppEnv } from '../deps.js';
import { PlatformResponse } from '../rate-limit/response.js';
import { requestHeader } from '../request-header.js';

/** The content codings a cached body is offered in, best first when a client rates them equally. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** Bodies shorter than this are sent as they are: the coding would save less than its header and the client's work. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli quality. On an 11 KB analysis 5 gave 3.5 KB in about 0.2 ms; 11 gave 3.1 KB in about 21 ms,
 * and 6 to 8 no smaller than 5 at two to four times its time.
 */
export const BROTLI_QUALITY = 5;

/** One representation of a body: its bytes and strong entity tag (quoted, as sent). */
export interface Variant {
  readonly bytes: Uint8Array;
  readonly etag: string;
  /** `content-encoding` of the bytes; null: the identity. */
  readonly coding: Coding | null;
}

/**
 * A response body made once and sent many times: its bytes, a strong entity tag, and its
 * content-coded variants, each made once, off the request path, the first time a client asks for it.
 */
export interface CachedBody extends Variant {
  readonly coding: null;
  /** Coded variants, made or being made; a coding that does not make the body smaller resolves to the identity. */
  readonly coded: Partial<Record<Coding, Variant | Promise<Variant>>>;
}

/**
 * `text` as a cached body: its UTF-8 bytes and a strong entity tag, a hash of exactly those bytes
 * (SHA-1, base64url: 27 characters; the tag names a representation, it does not protect it).
 */
export function cachedBody(text: string): CachedBody {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`, coding: null, coded: {} };
}

/**
 * The variant of `body` in `coding` (null: the identity) once it is made. It is made once, on
 * zlib's thread pool, started by the first request that asks for it; until it is ready the
 * identity is sent, so no request waits for a compression and none blocks the event loop with one.
 */
export function variantOf(body: CachedBody, coding: Coding | null): Variant {
  if (coding === null || body.bytes.byteLength < MIN_COMPRESSED_BYTES) return body;
  const made = body.coded[coding];
  if (made === undefined) {
    void codedVariant(body, coding);
    return body;
  }
  return made instanceof Promise ? body : made;
}

/**
 * The variant of `body` in `coding`, made if it is not (a body under {@link MIN_COMPRESSED_BYTES},
 * or one the coding would not make smaller, is its own variant). A coded variant's tag is the
 * identity's with the coding appended: a strong tag must differ between a body and its compressed
 * form, and the compressed bytes follow from the identity's, so the tag needs no hash of its own.
 */
export function codedVariant(body: CachedBody, coding: Coding): Promise<Variant> {
  const made = body.coded[coding];
  if (made !== undefined) return Promise.resolve(made);
  if (body.bytes.byteLength < MIN_COMPRESSED_BYTES) return Promise.resolve(body);
  const making = compress(body.bytes, coding).then(
    (bytes): Variant =>
      bytes.byteLength < body.bytes.byteLength ? { bytes, etag: `${body.etag.slice(0, -1)}-${coding}"`, coding } : body,
    // A failed compression (out of memory) leaves the body to be sent as it is.
    (): Variant => body,
  );
  body.coded[coding] = making;
  void making.then((variant) => {
    body.coded[coding] = variant;
  });
  return making;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

function compress(bytes: Uint8Array, coding: Coding): Promise<Uint8Array> {
  if (coding === 'gzip') return gzipAsync(bytes);
  return brotliAsync(bytes, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
}

/** A qvalue (`0`, `0.5`, `1.000`); NaN when malformed. */
function qvalue(text: string): number {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : Number.NaN;
}

/** What an `Accept-Encoding` value accepts of the offered codings. */
export interface Negotiated {
  /** The coding to send; null: the identity. */
  readonly preferred: Coding | null;
  /** Every offered coding the client accepts (qvalue above zero), best first. */
  readonly accepted: readonly Coding[];
}

const IDENTITY_ONLY: Negotiated = { preferred: null, accepted: [] };
const negotiated = new Map<string, Negotiated>();
const NEGOTIATED_MAX = 64;

/**
 * What to send for an `Accept-Encoding` value: the offered coding (`br`, `gzip` or its alias
 * `x-gzip`) with the highest qvalue above zero, `*` standing for codings not named; brotli on a
 * tie. The identity when the header is absent (a client that sends none is not assumed to decode
 * anything), when no offered coding is acceptable, or when `identity` is named with a higher
 * qvalue than the best coding. A malformed element is ignored. Answers for recent header values
 * are remembered: clients send a handful of distinct ones.
 */
export function negotiate(acceptEncoding: string | undefined): Negotiated {
  if (acceptEncoding === undefined) return IDENTITY_ONLY;
  let answer = negotiated.get(acceptEncoding);
  if (answer !== undefined) return answer;
  const q = new Map<string, number>();
  for (const element of acceptEncoding.split(',')) {
    const [name, ...params] = element.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === 'q') weight = qvalue(param.slice(eq + 1).trim());
    }
    if (Number.isNaN(weight)) continue;
    q.set(coding === 'x-gzip' ? 'gzip' : coding, weight);
  }
  const weightOf = (coding: Coding) => q.get(coding) ?? q.get('*') ?? 0;
  // Stable sort: equal qvalues keep CODINGS order (brotli first).
  const accepted = CODINGS.filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
  const identity = q.get('identity');
  const best = accepted[0];
  const preferred = best === undefined || (identity !== undefined && identity > weightOf(best)) ? null : best;
  answer = { preferred, accepted };
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(acceptEncoding, answer);
  return answer;
}

/** The coding {@link negotiate} picks for an `Accept-Encoding` value; null: the identity. */
export function preferredCoding(acceptEncoding: string | undefined): Coding | null {
  return negotiate(acceptEncoding).preferred;
}

/**
 * Whether an `If-None-Match` value matches a current representation tagged `etag`, with the
 * weak comparison this header uses (`W/"x"` matches `"x"`): `*`, or a list of entity tags one
 * of which has the same opaque tag. A malformed list matches nothing from the first error on.
 */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch === etag) return true;
  const value = ifNoneMatch.trim();
  if (value === '*') return true;
  let i = 0;
  while (i < value.length) {
    const ch = value[i];
    if (ch === ',' || ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === 'W' && value[i + 1] === '/') i += 2;
    if (value[i] !== '"') return false;
    const end = value.indexOf('"', i + 1);
    if (end < 0) return false;
    if (end + 1 - i === etag.length && value.startsWith(etag, i)) return true;
    i = end + 1;
  }
  return false;
}

/** The headers a cached body is sent with, besides its tag and coding. */
export interface CachedHeaders {
  'content-type': string;
  'cache-control': string;
  /** The request headers the body depends on; `accept-encoding` is added. */
  vary: string;
}

/**
 * The variant a client's `If-None-Match` names, if it names one this client may be sent: the one
 * negotiated, the identity, or a coded variant already made in a coding it accepts. A client
 * holding an acceptable variant is told it is current (304) rather than sent another coding of
 * the same bytes; `*` names the negotiated variant.
 */
function notModified(ifNoneMatch: string, body: CachedBody, variant: Variant, accepted: readonly Coding[]) {
  if (noneMatch(ifNoneMatch, variant.etag)) return variant;
  if (variant !== body && noneMatch(ifNoneMatch, body.etag)) return body;
  for (const coding of accepted) {
    const made = body.coded[coding];
    if (made !== undefined && !(made instanceof Promise) && made !== variant && noneMatch(ifNoneMatch, made.etag)) {
      return made;
    }
  }
  return undefined;
}

/**
 * Sends cached bodies with `headers`: a 304 with no body when `If-None-Match` names a variant the
 * client may be sent, else a 200 with the negotiated variant's bytes as they are. Both carry the
 * tag, `cache-control` and `vary`, as a 304 must.
 */
export function cachedResponder(headers: CachedHeaders): (c: Context<AppEnv>, body: CachedBody) => Response {
  const contentType = headers['content-type'];
  const cacheControl = headers['cache-control'];
  const vary = `${headers.vary}, accept-encoding`;
  return (c, body) => {
    const { preferred, accepted } = negotiate(requestHeader(c, 'accept-encoding'));
    const variant = variantOf(body, preferred);
    const ifNoneMatch = requestHeader(c, 'if-none-match');
    const current = ifNoneMatch === undefined ? undefined : notModified(ifNoneMatch, body, variant, accepted);
    if (current !== undefined) {
      return respond(c, null, { etag: current.etag, 'cache-control': cacheControl, vary });
    }
    const sent: Record<string, string> = {
      'content-type': contentType,
      etag: variant.etag,
      'cache-control': cacheControl,
      vary,
    };
    if (variant.coding !== null) sent['content-encoding'] = variant.coding;
    // A Buffer's pool-backed ArrayBuffer type is wider than hono's body type; the bytes are sent as they are.
    return respond(c, variant.bytes as Uint8Array<ArrayBuffer>, sent);
  };
}

/**
 * The response (a 304 without `bytes`, else a 200): on the marketlens server (whose Node response carries the platform's own headers,
 * so nothing was set through `c.header`) a `Response` over the plain header record, which
 * @hono/node-server writes as it is; elsewhere `c.body`, which merges what the context holds.
 * `c.body` with more than one header builds a WHATWG `Headers` (each name and value validated
 * and copied), which cost about a quarter of a cached analysis's CPU.
 */
function respond(c: Context<AppEnv>, bytes: Uint8Array<ArrayBuffer> | null, headers: Record<string, string>): Response {
  if ((c.env as { outgoing?: unknown } | undefined)?.outgoing instanceof PlatformResponse) {
    return new Response(bytes, { status: bytes === null ? 304 : 200, headers });
  }
  return bytes === null ? c.body(null, 304, headers) : c.body(bytes, 200, headers);
}
