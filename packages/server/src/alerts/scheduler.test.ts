import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { TestPushService } from '../../test/support/push-service.js';
import { createApp } from '../app.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../platform/deps.js';
import { AlertScheduler } from './scheduler.js';

const FIVE_MIN = 300_000;
const config: Partial<ServerConfig> = { push: { vapid: null, allowInsecureEndpoints: true } };

let push: TestPushService;
beforeAll(async () => {
  push = new TestPushService();
  await push.start();
});
afterAll(async () => {
  await push.stop();
});

/** The highest m5 high of bitcoin over the next day (the simulated venue is a function of time). */
async function nextDayHigh(from: number): Promise<number> {
  const future = createSimulatedVenue({ now: () => from + 86_400_000 });
  const { candles } = await future.candles({ asset_id: 'bitcoin', timeframe: 'm5', limit: 288 });
  return Math.max(...candles.high);
}

describe('end to end: alert -> candle close -> Web Push', () => {
  it('delivers a crossed price alert to the local push service exactly once, across restarts', async () => {
    const h = harness(config);
    const { token } = await h.signup();
    const auth = { headers: { 'x-session-token': token } };
    const sub = push.subscribe();
    expect((await h.json('/v1/devices', sub, auth)).status).toBe(200);

    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const high = await nextDayHigh(h.clock.now);
    expect(high).toBeGreaterThan(live);
    const target = Number(((live + high) / 2).toFixed(2));
    const created = await h.json('/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target }, auth);
    expect(created.status).toBe(200);
    const alert = ((await created.json()) as { data: { id: string; status: string; body: { direction: string } } })
      .data;
    expect(alert.status).toBe('active');
    expect(alert.body.direction).toBe('above');

    const deps = (): AppDeps => ({
      storage: h.storage,
      config: { ...DEFAULT_CONFIG, ...config },
      now: () => h.clock.now,
      market: h.market,
    });
    let scheduler = new AlertScheduler(deps());
    let triggered = false;
    for (let step = 0; step < 300 && !triggered; step++) {
      h.clock.now += FIVE_MIN;
      const report = await scheduler.tick();
      triggered = report.triggered > 0;
    }
    expect(triggered).toBe(true);
    const pushes = push.received.filter((r) => r.subscription === sub.id);
    expect(pushes).toHaveLength(1);
    const payload = pushes[0].payload as { key: string; category: string; data: Record<string, unknown> };
    expect(payload.category).toBe('alert');
    expect(payload.data.notification_id).toBe(alert.id);
    expect(payload.data.target).toBe(target);
    expect(payload.key).toMatch(new RegExp(`^alert:${alert.id}:`));
    // Signed with the key clients subscribe with.
    const vapid = (await (await h.request('/v1/devices/vapid_public_key')).json()) as { data: { public_key: string } };
    expect(pushes[0].vapidKey).toBe(vapid.data.public_key);

    const list = (await (await h.request('/v1/notifications', auth)).json()) as {
      data: { id: string; status: string; body: { trigger_value: number | null } }[];
    };
    expect(list.data[0].status).toBe('triggered');
    expect(list.data[0].body.trigger_value).not.toBeNull();

    // Restart: a new scheduler and app over the same storage re-send nothing.
    await scheduler.stop();
    scheduler = new AlertScheduler(deps());
    createApp(deps(), { logError: () => {} });
    for (let step = 0; step < 24; step++) {
      h.clock.now += FIVE_MIN;
      await scheduler.tick();
    }
    expect(push.withKey(payload.key)).toHaveLength(1);
    expect(push.rejected).toEqual([]);
    const rows = await h.storage.pushOutbox.byKey(payload.key);
    expect(rows).toHaveLength(1);
    expect(rows[0].delivered_at).not.toBeNull();
    await scheduler.stop();
  });

  it('re-sends after a restart only what the push service never acknowledged', async () => {
    const h = harness(config);
    const { token } = await h.signup();
    const auth = { headers: { 'x-session-token': token } };
    const sub = push.subscribe();
    await h.json('/v1/devices', sub, auth);
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const high = await nextDayHigh(h.clock.now);
    await h.json('/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target: (live + high) / 2 }, auth);

    // The first process fires the alert but its push service is down (500): nothing acknowledged.
    push.answer(sub.id, 500);
    const base = { storage: h.storage, config: { ...DEFAULT_CONFIG, ...config }, market: h.market };
    const first = new AlertScheduler({ ...base, now: () => h.clock.now });
    let fired = false;
    for (let step = 0; step < 300 && !fired; step++) {
      h.clock.now += FIVE_MIN;
      fired = (await first.tick()).triggered > 0;
    }
    expect(fired).toBe(true);
    await first.stop();
    expect(push.received.filter((r) => r.subscription === sub.id)).toHaveLength(0);

    // After the restart the service is back: the row is sent once when its retry is due.
    push.answer(sub.id, 201);
    const second = new AlertScheduler({ ...base, now: () => h.clock.now });
    for (let step = 0; step < 12; step++) {
      h.clock.now += FIVE_MIN;
      await second.tick();
    }
    const got = push.received.filter((r) => r.subscription === sub.id);
    expect(got).toHaveLength(1);
    expect(push.withKey(got[0].payload.key as string)).toHaveLength(1);
    await second.stop();
  });

  it('deactivates a device the push service answers 410 for, and a later alert needs a new one', async () => {
    const h = harness(config);
    const { token } = await h.signup();
    const auth = { headers: { 'x-session-token': token } };
    const sub = push.subscribe();
    await h.json('/v1/devices', sub, auth);
    push.answer(sub.id, 410);
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const high = await nextDayHigh(h.clock.now);
    await h.json('/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target: (live + high) / 2 }, auth);
    const scheduler = new AlertScheduler({
      storage: h.storage,
      config: { ...DEFAULT_CONFIG, ...config },
      market: h.market,
      now: () => h.clock.now,
    });
    let gone = 0;
    for (let step = 0; step < 300 && gone === 0; step++) {
      h.clock.now += FIVE_MIN;
      gone = (await scheduler.tick()).delivery.gone;
    }
    expect(gone).toBe(1);
    const devices = (await (await h.request('/v1/devices', auth)).json()) as {
      data: { active: boolean; deactivated_reason: string }[];
    };
    expect(devices.data[0].active).toBe(false);
    expect(devices.data[0].deactivated_reason).toContain('410');
    const again = await h.json('/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target: live * 1.5 }, auth);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe('NoActiveDevice');
    await scheduler.stop();
  });
});
