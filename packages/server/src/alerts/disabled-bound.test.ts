import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { MAX_DISABLED_ALERTS } from './limits.js';

/**
 * Paused alerts do not count against the active limit, so they are bounded on their own (issue 21):
 * before, a basic account could store any number of them.
 */

const SUBSCRIPTION = {
  endpoint: 'https://push.example.com/sub/disabled-bound',
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

describe('paused alerts', () => {
  it(`are capped at ${MAX_DISABLED_ALERTS} per account, on create and on pause`, async () => {
    const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 } });
    const u = await h.signup();
    const headers = { 'x-session-token': u.token };
    expect((await h.json('/v1/devices', SUBSCRIPTION, { headers })).status).toBe(200);
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const alert = (i: number, enabled: boolean) => ({
      asset_id: 'bitcoin',
      kind: 'price',
      target: live * (1.1 + i / 10_000),
      enabled,
    });
    const statuses: number[] = [];
    for (let i = 0; i < MAX_DISABLED_ALERTS + 20; i++) {
      statuses.push((await h.json('/v1/notifications', alert(i, false), { headers })).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_DISABLED_ALERTS);
    expect(statuses.slice(MAX_DISABLED_ALERTS).every((s) => s === 402)).toBe(true);
    const refused = await h.json('/v1/notifications', alert(0, false), { headers });
    expect(await refused.json()).toMatchObject({ code: 'NotificationLimitExceeded' });
    // An active alert still fits (paused ones never took its slots), but cannot be paused now.
    const active = await h.json('/v1/notifications', alert(1, true), { headers });
    expect(active.status).toBe(200);
    const id = ((await active.json()) as { data: { id: string } }).data.id;
    const pause = await h.request(`/v1/notifications/${id}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(alert(1, false)),
    });
    expect(pause.status).toBe(402);
    expect(await h.storage.alerts.countByStatus(u.userId, 'disabled')).toBe(MAX_DISABLED_ALERTS);
  });
});
