import { BlockList, isIP } from 'node:net';

/** Who may read /metrics when no allow list is configured: this host only. */
export const LOOPBACK: readonly string[] = ['127.0.0.0/8', '::1'];

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how a dual-stack socket reports IPv4 peers) as IPv4. */
function unmapped(address: string): string {
  const m = MAPPED_V4.exec(address);
  return m ? m[1] : address;
}

/**
 * A matcher for client addresses: `entries` are exact addresses and CIDR blocks, IPv4
 * (`10.0.0.0/8`) and IPv6 (`fd00::/8`). IPv4-mapped IPv6 addresses, in the list or from the
 * client, are compared as the IPv4 address they carry; brackets and an IPv6 zone (`%eth0`) are
 * ignored. A malformed entry throws (a typo must not silently open or close the endpoint);
 * a malformed client address matches nothing.
 */
export function ipAllowList(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [raw, prefixText, extra] = entry.trim().split('/');
    const address = unmapped(raw);
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`Not an IP address or CIDR block: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, type);
      continue;
    }
    let prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    // A mapped block (`::ffff:10.0.0.0/104`) is the IPv4 block under its last 32 bits.
    if (family === 4 && address !== raw) prefix -= 96;
    if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) throw new Error(`Bad prefix length: ${entry}`);
    list.addSubnet(address, prefix, type);
  }
  return (client) => {
    const address = unmapped(client.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
