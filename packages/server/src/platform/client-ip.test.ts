import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { addressGroup, resolveClientIp } from './client-ip.js';

describe('resolveClientIp', () => {
  it('uses the socket when no proxy is trusted', () => {
    expect(resolveClientIp('198.51.100.1', '1.2.3.4', [])).toBe('198.51.100.1');
  });
  it('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(resolveClientIp('198.51.100.1', '1.2.3.4', ['10.0.0.1'])).toBe('198.51.100.1');
  });
  it('takes the rightmost untrusted hop behind a trusted proxy', () => {
    expect(resolveClientIp('10.0.0.1', 'spoofed, 1.2.3.4, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('1.2.3.4');
  });
});

describe('addressGroup', () => {
  it('keeps an IPv4 address (also mapped into IPv6) and groups IPv6 by its /64', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:DB8:1:2:0:0:0:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
    expect(addressGroup('unknown')).toBe('unknown');
  });

  it('every address of one prefix is one key, and the next prefix another, at any prefix length', () => {
    expect(addressGroup('2001:db8:1:2:ffff::', 48)).toBe('2001:db8:1::/48');
    expect(addressGroup('2001:db8:1:3::', 56)).toBe('2001:db8:1:0::/56');
    expect(addressGroup('2001:db8:1:1ff::', 56)).toBe('2001:db8:1:100::/56');
    expect(addressGroup('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(addressGroup('2001:db8:1:2:3:4:5:6', 60)).toBe('2001:db8:1:0::/60');
    expect(addressGroup('2001:db8:1:1f:3:4:5:6', 60)).toBe('2001:db8:1:10::/60');
    expect(addressGroup('2001:db8:1:2::', 64)).not.toBe(addressGroup('2001:db8:1:3::', 64));
  });
});

describe('rate limit by address group', () => {
  it('addresses of one IPv6 /64 share one budget; another /64 has its own', async () => {
    const h = harness({ rateLimit: { limit: 40, windowMs: 60_000, ipv6Prefix: 64 } });
    const login = (ip: string) =>
      h.request(
        '/v1/auth/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
        },
        ip,
      );
    // Two logins (20 units each) spend a /64's 40 units, whichever of its addresses sends them.
    expect((await login('2001:db8:1:2::1')).status).toBe(401);
    expect((await login('2001:db8:1:2::2')).status).toBe(401);
    for (const ip of ['2001:db8:1:2::3', '2001:db8:1:2:ffff:ffff:ffff:ffff']) {
      const refused = await login(ip);
      expect(refused.status, ip).toBe(429);
      expect(((await refused.json()) as { code: string }).code).toBe('RateLimited');
    }
    expect((await login('2001:db8:1:3::1')).status).toBe(401);
    // A narrower prefix, configured: the /48 is one client.
    const wide = harness({ rateLimit: { limit: 40, windowMs: 60_000, ipv6Prefix: 48 } });
    const statuses: number[] = [];
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:3::1', '2001:db8:1:4::1']) {
      statuses.push(
        (
          await wide.request(
            '/v1/auth/login',
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
            },
            ip,
          )
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
