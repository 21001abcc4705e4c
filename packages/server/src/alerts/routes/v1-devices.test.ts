import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';

function subscription(endpoint = `https://push.example.com/${randomBytes(6).toString('hex')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

interface DeviceBody {
  code: string | number;
  data: { id: string; active: boolean; endpoint: string; name: string | null };
}

describe('/v1/devices', () => {
  it('registers, lists, refreshes the same endpoint and removes', async () => {
    const h = harness();
    const { token } = await h.signup();
    const headers = { 'x-session-token': token };
    const sub = subscription();
    const first = (await (await h.json('/v1/devices', { ...sub, name: 'laptop' }, { headers })).json()) as DeviceBody;
    expect(first.data.active).toBe(true);
    expect(first.data.name).toBe('laptop');
    const again = (await (await h.json('/v1/devices', sub, { headers })).json()) as DeviceBody;
    expect(again.data.id).toBe(first.data.id);
    const list = (await (await h.request('/v1/devices', { headers })).json()) as { data: { id: string }[] };
    expect(list.data.map((d) => d.id)).toEqual([first.data.id]);
    const del = () => h.request(`/v1/devices/${first.data.id}`, { method: 'DELETE', headers });
    expect((await del()).status).toBe(200);
    const missing = await del();
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as DeviceBody).code).toBe('DeviceNotFound');
  });

  it.each([
    ['http endpoint', { ...subscription('http://push.example.com/x') }],
    ['not a URL', { ...subscription('push service') }],
    ['short p256dh', { ...subscription(), keys: { p256dh: 'BAAA', auth: randomBytes(16).toString('base64url') } }],
    [
      'point off the curve',
      {
        ...subscription(),
        keys: {
          p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      },
    ],
    [
      'auth of 8 bytes',
      { ...subscription(), keys: { p256dh: subscription().keys.p256dh, auth: randomBytes(8).toString('base64url') } },
    ],
    ['not base64url', { ...subscription(), keys: { p256dh: '***', auth: randomBytes(16).toString('base64url') } }],
  ])('400 InvalidPushSubscription: %s', async (_name, body) => {
    const h = harness();
    const { token } = await h.signup();
    const res = await h.json('/v1/devices', body, { headers: { 'x-session-token': token } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as DeviceBody).code).toBe('InvalidPushSubscription');
  });

  it('accepts http endpoints only when configured (a local push service)', async () => {
    const h = harness({ push: { vapid: null, allowInsecureEndpoints: true } });
    const { token } = await h.signup();
    const res = await h.json('/v1/devices', subscription('http://127.0.0.1:9/x'), {
      headers: { 'x-session-token': token },
    });
    expect(res.status).toBe(200);
  });

  it('serves a stable VAPID public key without a session, or the configured one', async () => {
    const h = harness();
    const read = async () =>
      ((await (await h.request('/v1/devices/vapid_public_key')).json()) as { data: { public_key: string } }).data
        .public_key;
    const key = await read();
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    expect(await read()).toBe(key);
    const configured = harness({
      push: {
        vapid: { publicKey: 'BPUB', privateKey: 'priv', subject: 'mailto:a@b.test' },
        allowInsecureEndpoints: false,
      },
    });
    const res = (await (await configured.request('/v1/devices/vapid_public_key')).json()) as {
      data: { public_key: string };
    };
    expect(res.data.public_key).toBe('BPUB');
  });

  it('401 without a session', async () => {
    const h = harness();
    expect((await h.json('/v1/devices', subscription())).status).toBe(401);
  });
});
