import { createPublicKey, randomUUID } from 'node:crypto';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { PushDeviceRecord } from '../../storage/alerts-types.js';
import { isInternalHost } from './addresses.js';

/** A Web Push subscription as a browser's `PushSubscription.toJSON()` gives it. */
export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  name?: string | undefined;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function decode(value: string, field: string): Buffer {
  if (!BASE64URL.test(value)) throw invalid(`${field} must be base64url`);
  return Buffer.from(value.replace(/=+$/, ''), 'base64url');
}

function invalid(message: string): AppError {
  return new AppError('InvalidPushSubscription', message);
}

/**
 * Checks a subscription before it is stored, so delivery cannot fail on it later: an https
 * endpoint on port 443 (http and other ports only when `push.allowInsecureEndpoints`), `p256dh` an uncompressed point on
 * P-256 (65 bytes), `auth` 16 bytes (RFC 8291).
 */
export function checkSubscription(deps: AppDeps, s: SubscriptionInput): void {
  let url: URL;
  try {
    url = new URL(s.endpoint);
  } catch {
    throw invalid('endpoint must be an absolute URL');
  }
  const insecureOk = deps.config.push?.allowInsecureEndpoints === true;
  if (url.protocol !== 'https:' && !(insecureOk && url.protocol === 'http:')) {
    throw invalid('endpoint must be an https URL of a push service');
  }
  if (url.username || url.password) throw invalid('endpoint must not carry credentials');
  // Push services listen on 443; another port is a way to reach some other service.
  if (!insecureOk && url.port !== '') throw invalid('endpoint must use the https port (443)');
  // The server POSTs to this URL: refuse addresses inside the operator's network (SSRF). Local
  // push services are a test setup, allowed with the insecure switch. A public name that resolves
  // inward is refused when the push is sent (the transport checks every address it connects to).
  if (!insecureOk && isInternalHost(url.hostname)) {
    throw invalid('endpoint must be a public push service, not a local or private address');
  }
  const point = decode(s.keys.p256dh, 'keys.p256dh');
  if (point.length !== 65 || point[0] !== 4)
    throw invalid('keys.p256dh must be an uncompressed P-256 point (65 bytes)');
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    throw invalid('keys.p256dh is not a point on P-256');
  }
  if (decode(s.keys.auth, 'keys.auth').length !== 16) throw invalid('keys.auth must be 16 bytes');
}

/** Percent-escapes of unreserved characters (RFC 3986 2.3), which name the same resource decoded. */
const UNRESERVED_ESCAPE = /%(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

/**
 * One spelling per push endpoint, so that two spellings of one URL are one device whose owner is
 * compared: scheme and host lower case (the URL parser's), a trailing dot of the host dropped,
 * escapes of unreserved characters decoded (`%78` is `x`) and the other escapes upper case
 * (RFC 3986 6.2.2), the default port and the fragment dropped.
 */
export function normalizeEndpoint(raw: string): string {
  const url = new URL(raw);
  url.hostname = url.hostname.replace(/\.+$/, '');
  url.hash = '';
  const clean = (part: string) =>
    part
      .replace(UNRESERVED_ESCAPE, (e) => String.fromCharCode(Number.parseInt(e.slice(1), 16)))
      .replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase());
  url.pathname = clean(url.pathname);
  url.search = clean(url.search);
  return url.href;
}

/**
 * Registers (or refreshes) the caller's subscription; the same endpoint again is the same device,
 * however it is spelled ({@link normalizeEndpoint}).
 * An endpoint registered to another account moves only when the keys match (the same browser
 * subscription after a change of login); anyone else who learnt the URL gets 400 and the device
 * stays where it is.
 */
export async function registerDevice(deps: AppDeps, userId: string, s: SubscriptionInput): Promise<PushDeviceRecord> {
  checkSubscription(deps, s);
  const now = deps.now();
  const device = await deps.storage.pushDevices.upsert({
    id: randomUUID(),
    user_id: userId,
    endpoint: normalizeEndpoint(s.endpoint),
    p256dh: s.keys.p256dh.replace(/=+$/, ''),
    auth: s.keys.auth.replace(/=+$/, ''),
    name: s.name ?? null,
    created_at: now,
    updated_at: now,
    active: true,
    deactivated_at: null,
    deactivated_reason: null,
  });
  if (device.user_id !== userId) {
    throw invalid('endpoint is registered to another account; only the same subscription keys can move it');
  }
  return device;
}

export async function removeDevice(deps: AppDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.storage.pushDevices.remove(userId, id))) {
    throw new AppError('DeviceNotFound', `No device '${id}' on this account`);
  }
}
