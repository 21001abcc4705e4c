import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../env.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { checkSubscription, isInternalHost } from './devices.js';

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
    ]) {
      expect([h, isInternalHost(h)]).toEqual([h, true]);
    }
    for (const h of ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '8.8.8.8', '[2001:4860::1]']) {
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
});
