import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../platform/deps.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { isInternalHost } from './addresses.js';
import { checkSubscription } from './devices.js';

const keys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
};

const deps = (allowInsecureEndpoints: boolean) => ({
  storage: createSqliteStorage(':memory:'),
  config: { ...DEFAULT_CONFIG, push: { vapid: null, allowInsecureEndpoints } },
  now: () => 0,
});

describe('push endpoints', () => {
  it('tells internal hosts from public ones', () => {
    for (const h of ['localhost', 'api.localhost', 'intranet', '127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1']) {
      expect([h, isInternalHost(h)]).toEqual([h, true]);
    }
    for (const h of [
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      '[fe80::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
      // Issue 21: NAT64, IPv4-compatible, 6to4, Teredo, benchmarking, documentation, multicast, broadcast.
      '[64:ff9b::7f00:1]',
      '[64:ff9b::a9fe:a9fe]',
      '[::127.0.0.1]',
      '[::a9fe:a9fe]',
      '[2002:7f00:1::]',
      '[2002:c0a8:101::1]',
      '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
      '[2001:db8::1]',
      '[ff02::1]',
      '[ff0e::1]',
      '[100::1]',
      '198.18.0.1',
      '198.19.255.254',
      '192.0.0.8',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '192.88.99.1',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      'localhost.',
      'intranet.',
    ]) {
      expect([h, isInternalHost(h)]).toEqual([h, true]);
    }
    for (const h of [
      'fcm.googleapis.com',
      'updates.push.services.mozilla.com',
      'web.push.apple.com',
      '8.8.8.8',
      '[2001:4860::1]',
      '[2a00:1450:4001::200e]',
    ]) {
      expect([h, isInternalHost(h)]).toEqual([h, false]);
    }
  });

  it('refuses a subscription pointing inside the network unless local push services are allowed', () => {
    const sub = { endpoint: 'https://169.254.169.254/latest/meta-data', keys: keys() };
    expect(() => checkSubscription(deps(false), sub)).toThrow(/public push service/);
    expect(() => checkSubscription(deps(true), sub)).not.toThrow();
    expect(() =>
      checkSubscription(deps(false), { ...sub, endpoint: 'https://fcm.googleapis.com/fcm/send/x' }),
    ).not.toThrow();
  });

  it('allows only https on 443 unless local push services are allowed', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://fcm.googleapis.com:22/fcm/send/x',
      'https://fcm.googleapis.com:80/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'ftp://fcm.googleapis.com/x',
    ]) {
      expect(() => checkSubscription(deps(false), { endpoint, keys: keys() }), endpoint).toThrow(/https|port/);
    }
    const explicit = { endpoint: 'https://fcm.googleapis.com:443/fcm/send/x', keys: keys() };
    expect(() => checkSubscription(deps(false), explicit)).not.toThrow();
    expect(() => checkSubscription(deps(true), { endpoint: 'http://127.0.0.1:9999/push', keys: keys() })).not.toThrow();
  });
});
