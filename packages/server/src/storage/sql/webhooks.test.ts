import { expect, it } from 'vitest';
import { describeEngines, type TestEngine } from '../../../test/support/storage/engines.js';
import type { AlertRecord } from '../alerts-types.js';
import type { AlertWebhookRecord } from '../webhooks-types.js';

const T = Date.UTC(2026, 0, 15);

const webhook = (id: string, userId = 'u1', url = `https://hooks.test/${id}`): AlertWebhookRecord => ({
  id,
  user_id: userId,
  url,
  name: null,
  secret: 'enc',
  created_at: T,
  updated_at: T,
  active: true,
  deactivated_at: null,
  deactivated_reason: null,
});

const alert = (id: string, userId = 'u1'): AlertRecord => ({
  id,
  user_id: userId,
  asset_id: 'bitcoin',
  kind: 'price',
  timeframe: null,
  evaluates_as: null,
  target: 1,
  direction: 'above',
  zone_low: null,
  zone_high: null,
  reference: null,
  status: 'active',
  created_at: T,
  updated_at: T,
  armed_at: T,
  expires_at: T + 10_000,
  triggered_at: null,
  trigger_value: null,
  trigger_candle: null,
  last_evaluated_open: null,
});

async function setup(engine: TestEngine) {
  const s = await engine.open();
  for (const u of ['u1', 'u2'])
    await s.users.create({ id: u, email: `${u}@x.test`, password_hash: 'h', tier: 'free', created_at: T }, []);
  return s;
}

const notice = { idempotency_key: 'k1', category: 'alert' as const, payload: '{"a":1}' };

describeEngines('alert webhooks', (engine) => {
  it('registers within the cap; the same URL again is the same webhook, active again', async () => {
    const s = await setup(engine);
    expect(await s.alertWebhooks.register(webhook('w1'), 2)).toBe(true);
    expect(await s.alertWebhooks.register(webhook('w2'), 2)).toBe(true);
    expect(await s.alertWebhooks.register(webhook('w3'), 2)).toBe(false);
    await s.alertWebhooks.deactivate('w1', 'gone', T + 1);
    expect(await s.alertWebhooks.countActive('u1')).toBe(1);
    expect(await s.alertWebhooks.idOfUrl('u1', 'https://hooks.test/w1')).toBe('w1');
    await expect(s.alertWebhooks.register({ ...webhook('w9'), url: 'https://hooks.test/w1' }, 2)).rejects.toThrow();
    expect(await s.alertWebhooks.register({ ...webhook('w1'), name: 'again', updated_at: T + 2 }, 2)).toBe(true);
    expect(await s.alertWebhooks.byId('w1')).toMatchObject({ active: true, name: 'again', deactivated_at: null });
    expect((await s.alertWebhooks.listByUser('u1')).map((w) => w.id).sort()).toEqual(['w1', 'w2']);
    expect(await s.alertWebhooks.remove('u2', 'w1')).toBe(false);
    expect(await s.alertWebhooks.remove('u1', 'w1')).toBe(true);
  });

  it('a firing fans out to every active webhook of the owner in the statement that fires it', async () => {
    const s = await setup(engine);
    await s.alertWebhooks.register(webhook('w1'), 5);
    await s.alertWebhooks.register(webhook('w2'), 5);
    await s.alertWebhooks.register(webhook('w3'), 5);
    await s.alertWebhooks.register(webhook('x1', 'u2'), 5);
    await s.alertWebhooks.deactivate('w3', 'gone', T);
    await s.alerts.createIfBelow(alert('a1'), null);
    const firing = { alert_id: 'a1', armed_at: T, trigger_candle: T };
    await s.alertWebhooks.stageNotice('u1', firing, notice, T);
    // Staged for another firing (re-armed since): not copied.
    await s.alertWebhooks.stageNotice('u1', { ...firing, armed_at: T - 1 }, { ...notice, idempotency_key: 'k0' }, T);
    expect(await s.alerts.trigger('a1', T, { triggered_at: T + 5, trigger_value: 2, trigger_candle: T }, notice)).toBe(
      true,
    );
    const rows = await s.alertWebhooks.byKey('k1');
    expect(rows.map((r) => [r.webhook_id, r.user_id, r.payload, r.created_at, r.attempts])).toEqual([
      ['w1', 'u1', '{"a":1}', T + 5, 0],
      ['w2', 'u1', '{"a":1}', T + 5, 0],
    ]);
    expect(await s.alertWebhooks.byKey('k0')).toEqual([]);
    // The notices of the alert are gone with the firing.
    expect(await s.alertWebhooks.pruneNotices(T + 1)).toBe(0);

    const [first, second] = await s.alertWebhooks.due(T + 5, 10);
    await s.alertWebhooks.reschedule(first.id, T + 100, 'boom');
    expect((await s.alertWebhooks.due(T + 5, 10)).map((r) => r.id)).toEqual([second.id]);
    await s.alertWebhooks.markDelivered(second.id, T + 6);
    await s.alertWebhooks.markDropped(second.id, 'late', T + 7);
    await s.alertWebhooks.deactivate('w1', 'gone', T + 8);
    const after = await s.alertWebhooks.byKey('k1');
    expect(after.map((r) => [r.delivered_at, r.dropped_at, r.attempts])).toEqual([
      [null, T + 8, 1],
      [T + 6, null, 1],
    ]);
  });

  it('stages nothing for a user without an active webhook, and prunes old notices', async () => {
    const s = await setup(engine);
    await s.alerts.createIfBelow(alert('a1'), null);
    await s.alertWebhooks.stageNotice('u1', { alert_id: 'a1', armed_at: T, trigger_candle: T }, notice, T);
    await s.alertWebhooks.register(webhook('w1'), 5);
    expect(await s.alerts.trigger('a1', T, { triggered_at: T + 5, trigger_value: 2, trigger_candle: T }, notice)).toBe(
      true,
    );
    expect(await s.alertWebhooks.byKey('k1')).toEqual([]);
    await s.alertWebhooks.stageNotice('u1', { alert_id: 'a2', armed_at: T, trigger_candle: T }, notice, T);
    await s.alertWebhooks.stageNotice('u1', { alert_id: 'a2', armed_at: T, trigger_candle: T }, notice, T + 1);
    expect(await s.alertWebhooks.pruneNotices(T + 1)).toBe(0);
    expect(await s.alertWebhooks.pruneNotices(T + 2)).toBe(1);
  });
});
