import { createPublicKey, randomUUID } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { AppDeps } from '../../env.js';
import { AppError } from '../../errors/app-error.js';
import type { PushDeviceRecord } from '../../storage/alerts-types.js';
import { iso, isoOrNull } from '../market.js';

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

/**
 * Where the server never sends a push: every IPv4 range that is not global unicast (this network,
 * private, shared, loopback, link-local, protocol assignments, documentation, the 6to4 relay,
 * benchmarking, multicast, reserved and broadcast), and in IPv6 everything outside 2000::/3 (which
 * takes the unspecified and loopback addresses, the IPv4-mapped and IPv4-compatible forms, NAT64,
 * discard, unique-local, link-local and multicast) plus the parts of 2000::/3 that embed or reach
 * other networks (protocol assignments with Teredo, documentation, 6to4). One list, used when a
 * subscription is registered and again for every address a push connects to.
 */
const DENIED_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  DENIED_V4.addSubnet(net, bits, 'ipv4');
}
// Separate from the IPv4 list: a BlockList checks IPv4 addresses against its IPv6 rules too (as
// IPv4-mapped), so `::/3` here would deny every IPv4 address.
const DENIED_V6 = new BlockList();
for (const [net, bits] of [
  ['::', 3],
  ['4000::', 2],
  ['8000::', 1],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  DENIED_V6.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address (v4 or v6, brackets allowed) is on the deny list; anything else that is not an address is too. */
export function isDeniedAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(ip);
  if (family === 4) return DENIED_V4.check(ip, 'ipv4');
  if (family === 6) return DENIED_V6.check(ip, 'ipv6');
  return true;
}

/** A denied address literal, `localhost` and its subdomains, and dotless names (a trailing dot aside). */
export function isInternalHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (isIP(host) !== 0) return isDeniedAddress(host);
  return host === 'localhost' || host.endsWith('.localhost') || !host.includes('.');
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

/**
 * Registers (or refreshes) the caller's subscription; the same endpoint again is the same device.
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
    endpoint: s.endpoint,
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

/** A device as published: the subscription's keys are not echoed. */
export function deviceView(d: PushDeviceRecord) {
  return {
    id: d.id,
    endpoint: d.endpoint,
    name: d.name,
    active: d.active,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    deactivated_at: isoOrNull(d.deactivated_at),
    deactivated_reason: d.deactivated_reason,
  };
}
