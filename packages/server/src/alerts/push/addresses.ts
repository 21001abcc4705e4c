/** The addresses and hosts a push is never sent to (a guard against server-side request forgery). */
import { BlockList, isIP } from 'node:net';

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
