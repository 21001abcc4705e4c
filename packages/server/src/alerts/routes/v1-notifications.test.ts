import { analyze } from '@marketlens/core';
import { candleOpenTime } from '@marketlens/exchanges';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { grantTier } from '../../auth/tiers.js';
import { ALERT_KINDS } from '../../platform/product-rules.js';
import type { Tier } from '../../storage/types.js';

const config = { push: { vapid: null, allowInsecureEndpoints: true } };
/** A syntactically valid subscription (a P-256 point and a 16-byte secret); nothing is sent to it here. */
const SUBSCRIPTION = {
  endpoint: 'https://push.example.com/sub/1',
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

interface Body {
  code: number | string;
  data: {
    id: string;
    kind: string;
    status: string;
    body: { timeframe: string | null; evaluates_as: string | null; direction: string; zone: unknown; target: number };
  };
}

let h: Harness;
let live: number;
let ethLive: number;
let zone: { low: number; high: number };

async function user(tier: Tier = 'free', withDevice = true, endpoint = `https://push.example.com/${Math.random()}`) {
  const u = await h.signup();
  if (tier !== 'free') await grantTier(h.storage, u.userId, tier, 'admin', 30, h.clock.now);
  const headers = { 'x-session-token': u.token };
  if (withDevice) {
    const res = await h.json('/v1/devices', { ...SUBSCRIPTION, endpoint }, { headers });
    expect(res.status).toBe(200);
  }
  return { ...u, headers };
}

beforeAll(async () => {
  h = harness(config);
  live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
  ethLive = (await h.market.ticker({ asset_id: 'ethereum' })).last;
  const { candles } = await h.market.candles({
    asset_id: 'bitcoin',
    timeframe: 'h1',
    limit: 500,
    end: candleOpenTime('h1', h.clock.now),
  });
  const found = analyze(candles).levels.zones.find((z) => live < z.low || live > z.high);
  if (!found) throw new Error('no zone away from the price to test with');
  zone = found;
});

describe('POST /v1/notifications: every refusal', () => {
  const cases: [string, () => Record<string, unknown>, number, string | number][] = [
    ['unknown asset', () => ({ asset_id: 'no-such-coin', kind: 'price', target: 1 }), 400, 'UnknownAsset'],
    ['stablecoin', () => ({ asset_id: 'tether', kind: 'price', target: 1.01 }), 400, 'StablecoinNotAnalyzed'],
    ['unknown kind', () => ({ asset_id: 'bitcoin', kind: 'moon', target: 1 }), 400, 'InvalidNotification'],
    ['missing asset', () => ({ kind: 'price', target: 1 }), 400, 'InvalidNotification'],
    ['target as text', () => ({ asset_id: 'bitcoin', kind: 'price', target: '1' }), 400, 'InvalidNotification'],
    [
      'price with a timeframe',
      () => ({ asset_id: 'bitcoin', kind: 'price', target: live, timeframe: 'h1' }),
      400,
      'InvalidNotification',
    ],
    ['rsi without timeframe', () => ({ asset_id: 'bitcoin', kind: 'rsi', target: 70 }), 400, 'InvalidNotification'],
    [
      'rsi on a change column timeframe',
      () => ({ asset_id: 'bitcoin', kind: 'rsi', target: 70, timeframe: 'h12' }),
      400,
      'InvalidNotification',
    ],
    [
      'zone on h4 (windows only)',
      () => ({ asset_id: 'bitcoin', kind: 'zone', target: zone.low, timeframe: 'h4' }),
      400,
      'InvalidNotification',
    ],
    ['price 0', () => ({ asset_id: 'bitcoin', kind: 'price', target: 0 }), 400, 'TargetOutOfRange'],
    ['negative price', () => ({ asset_id: 'bitcoin', kind: 'price', target: -5 }), 400, 'TargetOutOfRange'],
    [
      'price 20x the market',
      () => ({ asset_id: 'bitcoin', kind: 'price', target: live * 20 }),
      400,
      'TargetOutOfRange',
    ],
    [
      'price a 20th of the market',
      () => ({ asset_id: 'bitcoin', kind: 'price', target: live / 20 }),
      400,
      'TargetOutOfRange',
    ],
    [
      'breakout 20x',
      () => ({ asset_id: 'bitcoin', kind: 'breakout', target: live * 20, timeframe: 'h1' }),
      400,
      'TargetOutOfRange',
    ],
    ['rsi 100', () => ({ asset_id: 'bitcoin', kind: 'rsi', target: 100, timeframe: 'h1' }), 400, 'TargetOutOfRange'],
    ['rsi 0', () => ({ asset_id: 'bitcoin', kind: 'rsi', target: 0, timeframe: 'h1' }), 400, 'TargetOutOfRange'],
    [
      'smart zone 60%',
      () => ({ asset_id: 'bitcoin', kind: 'smart_zone', target: 60, timeframe: 'h1' }),
      400,
      'TargetOutOfRange',
    ],
    [
      'percent change 0',
      () => ({ asset_id: 'bitcoin', kind: 'percent_change', target: 0, timeframe: 'h1' }),
      400,
      'TargetOutOfRange',
    ],
    [
      'percent change -100',
      () => ({ asset_id: 'bitcoin', kind: 'percent_change', target: -100, timeframe: 'd1' }),
      400,
      'TargetOutOfRange',
    ],
    [
      'zone target in no zone',
      () => ({ asset_id: 'bitcoin', kind: 'zone', target: live * 3, timeframe: 'h1' }),
      400,
      'TargetOutOfRange',
    ],
    [
      'sub-1h timeframe without Pro',
      () => ({ asset_id: 'bitcoin', kind: 'rsi', target: 70, timeframe: 'm15' }),
      402,
      1004,
    ],
    [
      'm5 percent change without Pro',
      () => ({ asset_id: 'bitcoin', kind: 'percent_change', target: 3, timeframe: 'm5' }),
      402,
      1004,
    ],
  ];
  it.each(cases)('%s -> %i %s', async (_name, body, status, code) => {
    const u = await user();
    const res = await h.json('/v1/notifications', body(), { headers: u.headers });
    expect(res.status).toBe(status);
    expect(((await res.json()) as Body).code).toBe(code);
    expect(await h.storage.alerts.countActive(u.userId)).toBe(0);
  });

  it('410 NoActiveDevice without a device', async () => {
    const u = await user('free', false);
    const res = await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target: live * 1.1 },
      { headers: u.headers },
    );
    expect(res.status).toBe(410);
    expect(((await res.json()) as Body).code).toBe('NoActiveDevice');
  });

  it('402 NotificationLimitExceeded at the basic cap; Pro is unlimited', async () => {
    const free = await user();
    for (let i = 0; i < 5; i++) {
      const ok = await h.json(
        '/v1/notifications',
        { asset_id: 'bitcoin', kind: 'price', target: live * (1.1 + i / 100) },
        { headers: free.headers },
      );
      expect(ok.status).toBe(200);
    }
    const sixth = await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target: live * 1.3 },
      { headers: free.headers },
    );
    expect(sixth.status).toBe(402);
    expect(((await sixth.json()) as Body).code).toBe('NotificationLimitExceeded');
    const pro = await user('pro');
    for (let i = 0; i < 7; i++) {
      const ok = await h.json(
        '/v1/notifications',
        { asset_id: 'ethereum', kind: 'price', target: ethLive * (1.1 + i / 100) },
        { headers: pro.headers },
      );
      expect(ok.status).toBe(200);
    }
    const m15 = await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'rsi', target: 80, timeframe: 'm15' },
      { headers: pro.headers },
    );
    expect(m15.status).toBe(200);
  });
});

describe('POST /v1/notifications: created alerts', () => {
  it('accepts the contract spellings and resolves every kind', async () => {
    const u = await user('pro');
    const cases: [Record<string, unknown>, string, string | null][] = [
      [{ asset_id: 'bitcoin', kind: 'price', target: live * 1.05 }, 'price', null],
      [{ asset_id: 'bitcoin', kind: 'breakout', target: live * 0.95, timeframe: 'd1' }, 'breakout', 'd1'],
      [{ asset_id: 'bitcoin', kind: 'zone', target: (zone.low + zone.high) / 2, timeframe: 'h1' }, 'zone', 'h1'],
      [{ asset_id: 'bitcoin', kind: 'RSI', target: 70, timeframe: 'h4' }, 'rsi', 'h1'],
      [{ asset_id: 'bitcoin', kind: 'smart-zone', target: 1, timeframe: 'w1' }, 'smart_zone', 'd1'],
      [{ asset_id: 'bitcoin', kind: 'percent-change', target: -5, timeframe: 'd3' }, 'percent_change', '7d'],
    ];
    for (const [payload, kind, evaluatesAs] of cases) {
      const res = await h.json('/v1/notifications', payload, { headers: u.headers });
      expect(res.status, JSON.stringify(payload)).toBe(200);
      const b = (await res.json()) as Body;
      expect(b.data.kind).toBe(kind);
      expect(b.data.status).toBe('active');
      expect(b.data.body.evaluates_as).toBe(evaluatesAs);
    }
    const breakout = (await h.storage.alerts.listByUser(u.userId)).find((a) => a.kind === 'breakout');
    expect(breakout?.direction).toBe('below');
    const z = (await h.storage.alerts.listByUser(u.userId)).find((a) => a.kind === 'zone');
    expect([z?.zone_low, z?.zone_high]).toEqual([zone.low, zone.high]);
  });

  it('two timeframes with the same evaluates_as make the same alert', async () => {
    const u = await user('pro');
    for (const def of ALERT_KINDS) {
      const byWindow = new Map<string, string[]>();
      for (const t of def.timeframes) byWindow.set(t.evaluates_as, [...(byWindow.get(t.evaluates_as) ?? []), t.value]);
      for (const [window, values] of byWindow) {
        if (values.length < 2 || def.kind === 'zone') continue;
        const target = def.kind === 'breakout' ? live * 1.05 : def.kind === 'percent_change' ? 4 : 40;
        const made = [];
        for (const timeframe of values) {
          const res = await h.json(
            '/v1/notifications',
            { asset_id: 'bitcoin', kind: def.kind, target, timeframe },
            { headers: u.headers },
          );
          expect(res.status).toBe(200);
          const id = ((await res.json()) as Body).data.id;
          const rec = await h.storage.alerts.byId(u.userId, id);
          if (!rec) throw new Error('missing');
          const { id: _i, timeframe: _t, ...rest } = rec;
          made.push(rest);
        }
        for (const m of made) expect({ ...m, window }).toEqual({ ...made[0], window });
      }
    }
  });
});

describe('GET /v1/notifications/config', () => {
  it.each([
    ['free', '{"current":1,"max":5,"unlimited":false}'],
    ['pro', '{"current":1,"max":9223372036854775807,"unlimited":true}'],
    ['elite', '{"current":1,"max":9223372036854775807,"unlimited":true}'],
  ] as const)('%s', async (tier, data) => {
    const u = await user(tier);
    await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target: live * 1.2 },
      { headers: u.headers },
    );
    const res = await h.request('/v1/notifications/config', { headers: u.headers });
    expect(res.status).toBe(200);
    const text = await res.text();
    // The int64 is written exactly, not as the nearest double (9223372036854775808).
    expect(text).toContain(`"data":${data}`);
  });
  it('401 without a session', async () => {
    expect((await h.request('/v1/notifications/config')).status).toBe(401);
  });
});

describe('PATCH and DELETE /v1/notifications/{id}', () => {
  it('re-arms, pauses, resumes under the cap, and deletes', async () => {
    const u = await user();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.json(
        '/v1/notifications',
        { asset_id: 'bitcoin', kind: 'price', target: live * (1.1 + i / 100) },
        { headers: u.headers },
      );
      ids.push(((await res.json()) as Body).data.id);
    }
    const patch = (id: string, body: Record<string, unknown>) =>
      h.request(`/v1/notifications/${id}`, {
        method: 'PATCH',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const paused = await patch(ids[0], { asset_id: 'bitcoin', kind: 'price', target: live * 1.5, enabled: false });
    expect(((await paused.json()) as Body).data.status).toBe('disabled');
    const sixth = await h.json(
      '/v1/notifications',
      { asset_id: 'ethereum', kind: 'price', target: ethLive * 1.2 },
      { headers: u.headers },
    );
    expect(sixth.status).toBe(200);
    const resume = await patch(ids[0], { asset_id: 'bitcoin', kind: 'price', target: live * 1.5, enabled: true });
    expect(resume.status).toBe(402);
    expect(((await resume.json()) as Body).code).toBe('NotificationLimitExceeded');
    const m15 = await patch(ids[1], { asset_id: 'bitcoin', kind: 'rsi', target: 70, timeframe: 'm15' });
    expect(m15.status).toBe(402);
    const edited = await patch(ids[1], { asset_id: 'bitcoin', kind: 'RSI', target: 70, timeframe: 'h1' });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as Body).data.kind).toBe('rsi');
    const bad = await patch(ids[1], { asset_id: 'bitcoin', kind: 'rsi', target: 101, timeframe: 'h1' });
    expect(((await bad.json()) as Body).code).toBe('TargetOutOfRange');
    const missing = await patch('00000000-0000-4000-8000-000000000000', {
      asset_id: 'bitcoin',
      kind: 'price',
      target: live,
    });
    expect(missing.status).toBe(404);
    const del = () => h.request(`/v1/notifications/${ids[2]}`, { method: 'DELETE', headers: u.headers });
    expect((await del()).status).toBe(200);
    const again = await del();
    expect(again.status).toBe(404);
    expect(((await again.json()) as Body).code).toBe('NotificationNotFound');
  });

  it('another account cannot touch an alert', async () => {
    const a = await user();
    const b = await user();
    const res = await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target: live * 1.1 },
      { headers: a.headers },
    );
    const id = ((await res.json()) as Body).data.id;
    expect((await h.request(`/v1/notifications/${id}`, { method: 'DELETE', headers: b.headers })).status).toBe(404);
    expect(await h.storage.alerts.byId(a.userId, id)).not.toBeNull();
  });
});
