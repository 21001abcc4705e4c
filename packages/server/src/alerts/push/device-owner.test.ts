import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';

/** Registering another account's push endpoint (issue 21): the URL alone does not move the device. */

const keys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
};

describe('an endpoint registered to another account', () => {
  it('moves only with the subscription keys; a bare endpoint leaves the device where it is', async () => {
    const h = harness({ push: { vapid: null, allowInsecureEndpoints: false } });
    const victim = await h.signup();
    const attacker = await h.signup();
    const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/victim-device', keys: keys() };
    const as = (token: string) => ({ headers: { 'x-session-token': token } });
    const list = async (token: string) =>
      ((await (await h.request('/v1/devices', as(token))).json()) as { data: { endpoint: string }[] }).data.map(
        (d) => d.endpoint,
      );
    expect((await h.json('/v1/devices', sub, as(victim.token))).status).toBe(200);
    // The attacker knows the URL (it is not a secret to push services or logs) but not the keys.
    const stolen = await h.json('/v1/devices', { ...sub, keys: keys() }, as(attacker.token));
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ code: 'InvalidPushSubscription' });
    expect(await list(victim.token)).toEqual([sub.endpoint]);
    expect(await list(attacker.token)).toEqual([]);
    const row = await h.storage.pushDevices.listByUser(victim.userId);
    expect(row[0]).toMatchObject({ p256dh: sub.keys.p256dh, auth: sub.keys.auth, active: true });
    // The same browser subscription after a change of login: same keys, so it moves.
    expect((await h.json('/v1/devices', sub, as(attacker.token))).status).toBe(200);
    expect(await list(attacker.token)).toEqual([sub.endpoint]);
    expect(await list(victim.token)).toEqual([]);
    // Its owner refreshing it with new keys (a re-subscribed browser) still works.
    expect((await h.json('/v1/devices', { ...sub, keys: keys() }, as(attacker.token))).status).toBe(200);
  });

  it('compares the normalised endpoint: other spellings of the URL are the same device and do not move it', async () => {
    const h = harness({ push: { vapid: null, allowInsecureEndpoints: false } });
    const victim = await h.signup();
    const attacker = await h.signup();
    const as = (token: string) => ({ headers: { 'x-session-token': token } });
    const sub = { endpoint: 'https://push.example.net/sub/victim-x', keys: keys() };
    expect((await h.json('/v1/devices', sub, as(victim.token))).status).toBe(200);
    for (const endpoint of [
      'https://PUSH.example.net/sub/victim-x',
      'https://push.example.net./sub/victim-x',
      'https://push.example.net/sub/victim-%78',
      'https://push.example.net:443/sub/victim-x#frag',
    ]) {
      const stolen = await h.json('/v1/devices', { endpoint, keys: keys() }, as(attacker.token));
      expect(stolen.status, endpoint).toBe(400);
      expect(await stolen.json()).toMatchObject({ code: 'InvalidPushSubscription' });
    }
    expect(await h.storage.pushDevices.listByUser(attacker.userId)).toEqual([]);
    const [device] = await h.storage.pushDevices.listByUser(victim.userId);
    expect(device.endpoint).toBe(sub.endpoint);
  });
});
