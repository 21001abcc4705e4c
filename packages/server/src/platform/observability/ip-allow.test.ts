import { describe, expect, it } from 'vitest';
import { ipAllowList, LOOPBACK } from './ip-allow.js';

describe('ipAllowList', () => {
  it('matches exact IPv4 addresses and CIDR blocks', () => {
    const allowed = ipAllowList(['192.0.2.10', '10.0.0.0/8']);
    expect(['192.0.2.10', '10.1.2.3', '10.255.255.255'].map(allowed)).toEqual([true, true, true]);
    expect(['192.0.2.11', '11.0.0.1', '9.255.255.255'].map(allowed)).toEqual([false, false, false]);
  });

  it('matches exact IPv6 addresses and CIDR blocks, in any notation', () => {
    const allowed = ipAllowList(['2001:db8::/32', 'fd00::1']);
    expect(['2001:db8::1', '2001:0db8:ffff::', 'fd00:0:0:0:0:0:0:1', '[fd00::1]'].map(allowed)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['2001:db9::1', 'fd00::2', '::1'].map(allowed)).toEqual([false, false, false]);
  });

  it('compares IPv4-mapped IPv6 addresses as IPv4, on either side', () => {
    const v4 = ipAllowList(['127.0.0.0/8']);
    expect(v4('::ffff:127.0.0.1')).toBe(true);
    expect(v4('::ffff:10.0.0.1')).toBe(false);
    const mapped = ipAllowList(['::ffff:192.0.2.0/120', '::ffff:198.51.100.7']);
    expect(['192.0.2.200', '198.51.100.7', '::ffff:198.51.100.7'].map(mapped)).toEqual([true, true, true]);
    expect(['192.0.3.1', '198.51.100.8'].map(mapped)).toEqual([false, false]);
  });

  it('allows loopback, IPv4 and IPv6, with the default list', () => {
    const allowed = ipAllowList(LOOPBACK);
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].map(allowed)).toEqual([true, true, true, true]);
    expect(['192.168.1.1', '::2', 'unknown', ''].map(allowed)).toEqual([false, false, false, false]);
  });

  it('throws on a malformed entry and matches nothing for a malformed client address', () => {
    for (const bad of ['localhost', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', '10.0.0.0/x', '300.1.1.1']) {
      expect(() => ipAllowList([bad]), bad).toThrow();
    }
    expect(ipAllowList(['0.0.0.0/0'])('not-an-ip')).toBe(false);
  });
});
