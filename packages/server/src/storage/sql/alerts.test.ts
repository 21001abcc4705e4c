import { expect, it } from 'vitest';
import { describeEngines, rows, type TestEngine } from '../../../test/support/storage/engines.js';
import type { AlertRecord, PushDeviceRecord } from '../alerts-types.js';

const NOW = Date.UTC(2026, 0, 15);

async function setup(engine: TestEngine) {
  const s = await engine.open();
  const mk = async (id: string) => {
    await s.users.create({ id, email: `${id}@x.test`, password_hash: 'h', tier: 'free', created_at: NOW }, ['bitcoin']);
  };
  await mk('u1');
  await mk('u2');
  return s;
}

function device(id: string, userId: string, endpoint = `https://push.test/${id}`): PushDeviceRecord {
  return {
    id,
    user_id: userId,
    endpoint,
    p256dh: 'p',
    auth: 'a',
    name: null,
    created_at: NOW,
    updated_at: NOW,
    active: true,
    deactivated_at: null,
    deactivated_reason: null,
  };
}

function alert(id: string, userId = 'u1', over: Partial<AlertRecord> = {}): AlertRecord {
  return {
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
    reference: 0.5,
    status: 'active',
    created_at: NOW,
    updated_at: NOW,
    armed_at: NOW,
    expires_at: NOW + 1000,
    triggered_at: null,
    trigger_value: null,
    trigger_candle: null,
    last_evaluated_open: null,
    ...over,
  };
}

const notice = { idempotency_key: 'k1', category: 'alert' as const, payload: '{}' };

describeEngines('sqlite alerts repository', (engine) => {
  it('migrates to include version 5', async () => {
    const s = await setup(engine);
    const versions = (await rows<{ version: number }>(s, 'SELECT version FROM schema_migrations')).map(
      (r) => r.version,
    );
    expect(versions).toContain(5);
  });

  it('creates under the cap only, counts active, updates with the cap, removes per owner', async () => {
    const s = await setup(engine);
    expect(await s.alerts.createIfBelow(alert('a1'), 2)).toBe(true);
    expect(await s.alerts.createIfBelow(alert('a2'), 2)).toBe(true);
    expect(await s.alerts.createIfBelow(alert('a3'), 2)).toBe(false);
    expect(await s.alerts.createIfBelow(alert('a3', 'u1', { status: 'disabled' }), 2)).toBe(true);
    expect(await s.alerts.createIfBelow(alert('a4'), null)).toBe(true);
    expect(await s.alerts.countActive('u1')).toBe(3);
    expect(await s.alerts.update({ ...alert('a3'), status: 'active' }, 3)).toBe('limit');
    expect(await s.alerts.update({ ...alert('a3'), status: 'active' }, 4)).toBe('updated');
    expect(await s.alerts.update(alert('zz'), null)).toBe('missing');
    expect(await s.alerts.update(alert('a1', 'u2'), null)).toBe('missing');
    expect(await s.alerts.remove('u2', 'a1')).toBe(false);
    expect(await s.alerts.remove('u1', 'a1')).toBe(true);
    expect((await s.alerts.listByUser('u1')).map((a) => a.id).sort()).toEqual(['a2', 'a3', 'a4']);
  });

  it('trigger: fires once, writes the notice per active device in the same transaction', async () => {
    const s = await setup(engine);
    await s.pushDevices.upsert(device('d1', 'u1'));
    await s.pushDevices.upsert(device('d2', 'u1'));
    await s.pushDevices.upsert(device('d3', 'u2'));
    await s.pushDevices.deactivate('d2', 'gone', NOW);
    await s.alerts.createIfBelow(alert('a1'), null);
    const t = { triggered_at: NOW + 1, trigger_value: 2, trigger_candle: NOW };
    expect(await s.alerts.trigger('a1', NOW + 99, t, notice)).toBe(false); // re-armed since: refused
    expect(await s.alerts.trigger('a1', NOW, t, notice)).toBe(true);
    expect(await s.alerts.trigger('a1', NOW, t, notice)).toBe(false);
    const rows = await s.pushOutbox.byKey('k1');
    expect(rows.map((r) => r.device_id)).toEqual(['d1']);
    expect((await s.alerts.byId('u1', 'a1'))?.status).toBe('triggered');
    expect(await s.alerts.listActive()).toEqual([]);
  });

  it('outbox: a key is written once per device; delivery, drop and reschedule', async () => {
    const s = await setup(engine);
    await s.pushDevices.upsert(device('d1', 'u1'));
    expect(await s.pushOutbox.enqueue(['u1', 'u2'], notice, NOW)).toBe(1);
    expect(await s.pushOutbox.enqueue(['u1'], notice, NOW)).toBe(0);
    const [row] = await s.pushOutbox.due(NOW, 10);
    await s.pushOutbox.reschedule(row.id, NOW + 100, 'boom');
    expect(await s.pushOutbox.due(NOW, 10)).toEqual([]);
    expect((await s.pushOutbox.due(NOW + 100, 10))[0].attempts).toBe(1);
    await s.pushOutbox.markDelivered(row.id, NOW + 101);
    await s.pushOutbox.markDropped(row.id, 'late', NOW + 102);
    const [after] = await s.pushOutbox.byKey('k1');
    expect([after.delivered_at, after.dropped_at]).toEqual([NOW + 101, null]);
  });

  it('outbox release: a claimed row is handed back without counting an attempt; a settled row stays settled', async () => {
    const s = await setup(engine);
    await s.pushDevices.upsert(device('d1', 'u1'));
    await s.pushDevices.upsert(device('d2', 'u1'));
    expect(await s.pushOutbox.enqueue(['u1'], notice, NOW)).toBe(2);
    const [first, second] = await s.pushOutbox.claim(NOW, 10, 60_000);
    await s.pushOutbox.release(first.id, NOW + 5);
    expect(await s.pushOutbox.due(NOW + 4, 10)).toEqual([]);
    const [again] = await s.pushOutbox.due(NOW + 5, 10);
    expect([again.id, again.attempts, again.last_error]).toEqual([first.id, 0, null]);
    await s.pushOutbox.markDelivered(second.id, NOW + 6);
    await s.pushOutbox.release(second.id, NOW + 5);
    expect((await s.pushOutbox.due(NOW + 60_000, 10)).map((r) => r.id)).toEqual([first.id]);
  });

  it('outbox claims: two storages on one database take disjoint rows; a lapsed claim is due again', async () => {
    const db = engine.database({ persistent: true });
    const a = await db.open();
    await a.users.create({ id: 'u1', email: 'u1@x.test', password_hash: 'h', tier: 'free', created_at: NOW }, []);
    for (let i = 0; i < 40; i++) await a.pushDevices.upsert(device(`d${i}`, 'u1'));
    expect(await a.pushOutbox.enqueue(['u1'], notice, NOW)).toBe(40);
    const b = await db.open();
    const drain = async (s: typeof a) => {
      const ids: number[] = [];
      for (;;) {
        const chunk = await s.pushOutbox.claim(NOW, 3, 60_000);
        if (chunk.length === 0) return ids;
        expect(chunk.map((r) => r.id)).toEqual([...chunk.map((r) => r.id)].sort((x, y) => x - y));
        ids.push(...chunk.map((r) => r.id));
      }
    };
    const [fromA, fromB] = await Promise.all([drain(a), drain(b)]);
    const all = [...fromA, ...fromB].sort((x, y) => x - y);
    expect(all).toEqual([...new Set(all)]);
    expect(all).toHaveLength(40);
    // Claimed rows are nobody's until the lease ends; then the undelivered ones come back.
    expect(await a.pushOutbox.due(NOW + 59_999, 100)).toEqual([]);
    await a.pushOutbox.markDelivered(all[0], NOW + 1);
    await b.pushOutbox.reschedule(all[1], NOW + 10, 'busy');
    expect((await b.pushOutbox.claim(NOW + 10, 100, 120_000)).map((r) => r.id)).toEqual([all[1]]);
    const back = await a.pushOutbox.claim(NOW + 60_000, 100, 1000);
    expect(back.map((r) => r.id)).toEqual(all.slice(2));
    expect(back.every((r) => r.attempts === 0 && r.delivered_at === null)).toBe(true);
  });

  it("devices: same endpoint is one device; a new owner drops the old owner's pending pushes", async () => {
    const s = await setup(engine);
    await s.pushDevices.upsert(device('d1', 'u1', 'https://push.test/x'));
    await s.pushOutbox.enqueue(['u1'], notice, NOW);
    await s.pushDevices.deactivate('d1', 'gone', NOW);
    const again = await s.pushDevices.upsert(device('d9', 'u2', 'https://push.test/x'));
    expect(again.id).toBe('d1');
    expect(again.user_id).toBe('u2');
    expect(again.active).toBe(true);
    expect((await s.pushOutbox.byKey('k1'))[0].dropped_at).not.toBeNull();
    expect(await s.pushDevices.countActive('u2')).toBe(1);
    expect(await s.pushDevices.usersWithActiveDevices()).toEqual(['u2']);
    expect(await s.pushDevices.regimeAssets()).toEqual(['bitcoin']);
    await s.notificationPreferences.update('u2', { regime_notification_disabled: true }, NOW);
    expect(await s.pushDevices.regimeAudience('bitcoin')).toEqual([]);
    expect(await s.pushDevices.remove('u1', 'd1')).toBe(false);
    expect(await s.pushDevices.remove('u2', 'd1')).toBe(true);
  });

  it('expires due alerts only', async () => {
    const s = await setup(engine);
    await s.alerts.createIfBelow(alert('a1', 'u1', { expires_at: NOW + 10 }), null);
    await s.alerts.createIfBelow(alert('a2', 'u1', { expires_at: NOW + 20 }), null);
    expect(await s.alerts.expireDue(NOW + 15)).toBe(1);
    expect((await s.alerts.byId('u1', 'a1'))?.status).toBe('expired');
  });

  it('preferences default on, patch keeps the other field; settings: first writer wins, kept on disk', async () => {
    const database = engine.database({ persistent: true });
    let s = await database.open();
    await s.users.create({ id: 'u1', email: 'u1@x.test', password_hash: 'h', tier: 'free', created_at: NOW }, []);
    expect(await s.notificationPreferences.get('u1')).toEqual({
      pilot_trade_notification_disabled: false,
      regime_notification_disabled: false,
    });
    await s.notificationPreferences.update('u1', { pilot_trade_notification_disabled: true }, NOW);
    await s.notificationPreferences.update('u1', { regime_notification_disabled: true }, NOW);
    expect(await s.pushSettings.setIfAbsent('k', 'first')).toBe('first');
    expect(await s.pushSettings.setIfAbsent('k', 'second')).toBe('first');
    await s.close();
    s = await database.open();
    expect(await s.notificationPreferences.get('u1')).toEqual({
      pilot_trade_notification_disabled: true,
      regime_notification_disabled: true,
    });
    expect(await s.pushSettings.get('k')).toBe('first');
    await s.close();
  });
});
