/** The HTTP leg of Web Push: one encrypted request to a push service. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isDeniedAddress } from './addresses.js';

/** A Web Push request as the web-push library prepares it (VAPID `Authorization`, aes128gcm body). */
export interface PushRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** What the push service answered. */
export interface PushResponse {
  status: number;
}

/** Sends one push request; rejects on a network failure (the sender retries then). */
export type PushTransport = (request: PushRequest) => Promise<PushResponse>;

/**
 * How long one push or webhook request may take in all (resolving, connecting, sending, the status
 * line and headers, and reading the answer) before it counts as a failure to retry. A total
 * deadline, not an idle timeout: a receiver that trickles a byte now and then is cut off all the same.
 */
export const PUSH_TIMEOUT_MS = 10_000;
/**
 * Bytes of an answer's body read at most. Only the status is used; the body is read (up to this) so
 * the connection ends cleanly, and a receiver that streams more is cut off once this much arrived.
 */
export const RESPONSE_READ_CAP = 16 * 1024;

/**
 * The endpoint is not https on 443, or its name resolved to an address on the deny list (loopback,
 * private, link-local, NAT64, multicast, ...): the request was not sent. Permanent for that endpoint; the sender deactivates it.
 */
export class PushEndpointRefused extends Error {
  override name = 'PushEndpointRefused';
}

/** `dns.lookup`'s shape, so tests can resolve names without a resolver. */
export type Resolver = (
  hostname: string,
  options: { all: true; family?: number },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for `net.connect` that refuses a name when any of its addresses is on the deny list. The
 * connection then goes to an address this check saw, so a name cannot pass the check and be
 * answered differently for the connection (DNS rebinding).
 */
export function guardedLookup(
  resolve: Resolver = dnsLookup as unknown as Resolver,
  allowInternal = false,
): LookupFunction {
  return (hostname, options, callback) => {
    const family = typeof options.family === 'number' ? options.family : undefined;
    resolve(hostname, { all: true, ...(family ? { family } : {}) }, (err, addresses) => {
      if (err) return (callback as (e: Error) => void)(err);
      const inward = allowInternal ? undefined : addresses.find((a) => isDeniedAddress(a.address));
      if (inward || addresses.length === 0) {
        const why = inward ? `resolves to the internal address ${inward.address}` : 'has no address';
        return (callback as (e: Error) => void)(new PushEndpointRefused(`push endpoint host ${hostname} ${why}`));
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface HttpTransportOptions {
  /** Let endpoints resolve to internal addresses (a local push service in tests and development). */
  allowInternal: boolean;
  /** The name resolver (default: the system's, `dns.lookup`). */
  resolve?: Resolver;
  /** The total deadline of one request (default {@link PUSH_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Body bytes read at most (default {@link RESPONSE_READ_CAP}). */
  readCap?: number;
}

/**
 * The default transport: one POST over node:https (node:http for an http endpoint) under a total
 * deadline ({@link PUSH_TIMEOUT_MS}): a request without a status line by then fails (the sender
 * retries it); once the status is in, the body is read up to {@link RESPONSE_READ_CAP} bytes or
 * until the deadline, whichever comes first, and the status is the answer.
 * Unless `allowInternal`, every address of the endpoint's name is checked at connect time, and an
 * internal one (or an internal address literal) refuses the request with
 * {@link PushEndpointRefused}. Registration already refuses internal names and address literals;
 * this catches public names that point inward, also when they changed after registration.
 */
export function httpTransport(options: HttpTransportOptions): PushTransport {
  const lookup = guardedLookup(options.resolve, options.allowInternal);
  const timeoutMs = options.timeoutMs ?? PUSH_TIMEOUT_MS;
  const readCap = options.readCap ?? RESPONSE_READ_CAP;
  return (push) =>
    new Promise<PushResponse>((resolvePromise, reject) => {
      const url = new URL(push.endpoint);
      if (!options.allowInternal) {
        // Devices registered before the port rule, or by hand: https on 443 only.
        if (url.protocol !== 'https:' || url.port !== '') {
          reject(new PushEndpointRefused(`push endpoint ${url.host} is not https on port 443`));
          return;
        }
        // An address literal is connected to without a lookup: checked here instead.
        if (isIP(url.hostname.replace(/^\[|\]$/g, '')) && isDeniedAddress(url.hostname)) {
          reject(new PushEndpointRefused(`push endpoint ${url.hostname} is an internal address`));
          return;
        }
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const body = push.body ?? new Uint8Array(0);
      let status: number | null = null;
      let settled = false;
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        // No connection outlives its request: a receiver cannot hold one open for later.
        req.destroy();
        if (status !== null) resolvePromise({ status });
        else reject(err ?? new Error('push request ended without an answer'));
      };
      const req = send(url, {
        method: 'POST',
        headers: { ...push.headers, 'content-length': String(body.byteLength), connection: 'close' },
        lookup,
        agent: false,
      });
      const deadline = setTimeout(() => finish(new Error(`push request timed out after ${timeoutMs} ms`)), timeoutMs);
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.byteLength;
          if (read >= readCap) finish(null);
        });
        res.on('end', () => finish(null));
        res.on('error', (err) => finish(err));
      });
      req.on('error', (err) => finish(err));
      req.end(body);
    });
}
