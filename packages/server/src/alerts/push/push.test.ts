import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { regime } from '@marketlens/core';
import { candleOpenTime, createSimulatedVenue, TIMEFRAME_MS } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { TestPushService } from '../../../test/support/push-service.js';
import { engines, engineTitle, type TestEngine } from '../../../test/support/storage/engines.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../storage/types.js';
import { CLAIM_LEASE_MS, MAX_PUSH_ATTEMPTS } from './delivery.js';
import { notifyPilotTrade } from './pilot.js';
import { checkRegimeTransitions } from './regime.js';
import { deliverDue } from './sender.js';
import { httpTransport, type PushRequest, type Resolver } from './transport.js';
import { vapidDetails } from './vapid.js';

const config = { ...DEFAULT_CONFIG, push: { vapid: null, allowInsecureEndpoints: true } };
let push: TestPushService;
beforeAll(async () => {
  push = new TestPushService();
  await push.start();
});
afterAll(async () => {
  await push.stop();
});

/** A harness user with one device on the local push service. */
async function member(h: ReturnType<typeof harness>) {
  const u = await h.signup();
  const sub = push.subscribe();
  const res = await h.json('/v1/devices', sub, { headers: { 'x-session-token': u.token } });
  expect(res.status).toBe(200);
  return { ...u, sub };
}

function depsOf(h: ReturnType<typeof harness>, extra: Partial<AppDeps> = {}): AppDeps {
  return { storage: h.storage, config, now: () => h.clock.now, market: h.market, ...extra };
}

const trade = {
  id: 'trade-1',
  asset_id: 'bitcoin',
  timeframe: 'h4',
  side: 'long' as const,
  entry_price: 100_000,
  stop_loss: 97_500,
  opened_at: Date.UTC(2026, 0, 15, 8),
};

describe('pilot_trade pushes', () => {
  it('go to pilot-eligible users unless they turned them off, once per trade', async () => {
    const h = harness({ push: config.push });
    const eligible = await member(h);
    const optedOut = await member(h);
    const stranger = await member(h);
    await h.storage.notificationPreferences.update(
      optedOut.userId,
      { pilot_trade_notification_disabled: true },
      h.clock.now,
    );
    const isEligible = async (id: string) => id !== stranger.userId;
    const deps = depsOf(h);
    expect(await notifyPilotTrade(deps, trade, isEligible)).toBe(1);
    expect(await notifyPilotTrade(deps, trade, isEligible)).toBe(0);
    expect((await deliverDue(deps)).delivered).toBe(1);
    const got = push.withKey('pilot_trade:trade-1');
    expect(got).toHaveLength(1);
    expect(got[0].subscription).toBe(eligible.sub.id);
    expect(got[0].payload).toMatchObject({ category: 'pilot_trade', data: { trade_id: 'trade-1', side: 'long' } });
  });

  it('reads eligibility from deps when not given', async () => {
    const h = harness({ push: config.push });
    const u = await member(h);
    const deps = depsOf(h, { isPilotEligible: async (id) => id === u.userId });
    expect(await notifyPilotTrade(deps, { ...trade, id: 'trade-2' })).toBe(1);
  });
});

describe('regime-transition pushes', () => {
  it('are raised off d1 analysis once per transition to users favoriting the asset', async () => {
    const h = harness({ push: config.push });
    // Find a day whose closed d1 candle confirmed a bitcoin regime transition (the venue is a function of time).
    let day = -1;
    for (let k = 0; k < 1500 && day < 0; k++) {
      const at = candleOpenTime('d1', h.clock.now) - k * TIMEFRAME_MS.d1 + 3_600_000;
      const venue = createSimulatedVenue({ now: () => at });
      const { candles } = await venue.candles({
        asset_id: 'bitcoin',
        timeframe: 'd1',
        limit: 500,
        end: candleOpenTime('d1', at),
      });
      if (regime(candles).changed) day = at;
    }
    expect(day).toBeGreaterThan(0);
    h.clock.now = day;
    const fan = await member(h); // bitcoin is a default favorite
    const quiet = await member(h);
    await h.storage.favorites.remove(quiet.userId, 'bitcoin');
    const deps = depsOf(h);
    expect(await checkRegimeTransitions(deps)).toBeGreaterThanOrEqual(1);
    expect(await checkRegimeTransitions(deps)).toBe(0); // same candle: already checked
    await deliverDue(deps);
    const got = push.received.filter(
      (r) =>
        r.payload.category === 'regime' &&
        r.payload.data &&
        (r.payload.data as { asset_id: string }).asset_id === 'bitcoin',
    );
    expect(got.map((r) => r.subscription)).toContain(fan.sub.id);
    expect(got.map((r) => r.subscription)).not.toContain(quiet.sub.id);
    // A forced re-check of the same transition writes nothing new (the key is per transition).
    await h.storage.pushSettings.set('regime_d1_checked', '0');
    await checkRegimeTransitions(deps);
    const key = got[0].payload.key as string;
    expect((await h.storage.pushOutbox.byKey(key)).map((r) => r.user_id)).toEqual([fan.userId]);
  });
});

describe('sender', () => {
  it('retries 5xx and network failures with backoff, drops permanent refusals and gives up', async () => {
    const h = harness({ push: config.push });
    const u = await member(h);
    const answers: (number | Error)[] = [503, new Error('ECONNRESET'), 400];
    const sent: PushRequest[] = [];
    const deps = depsOf(h, {
      pushTransport: async (req) => {
        sent.push(req);
        const a = answers.shift() ?? 201;
        if (a instanceof Error) throw a;
        return { status: a };
      },
    });
    await h.storage.pushOutbox.enqueue(
      [u.userId],
      { idempotency_key: 'x1', category: 'alert', payload: '{"key":"x1"}' },
      h.clock.now,
    );
    expect((await deliverDue(deps)).retried).toBe(1);
    expect((await deliverDue(deps)).retried).toBe(0); // not due yet
    h.clock.now += 60_000;
    expect((await deliverDue(deps)).retried).toBe(1);
    h.clock.now += 120_000;
    expect((await deliverDue(deps)).failed).toBe(1); // 400: dropped
    expect(sent).toHaveLength(3);
    expect(sent[0].headers['Content-Encoding']).toBe('aes128gcm');
    expect(sent[0].headers.Authorization).toMatch(/^vapid t=/);
    expect(sent[0].headers.Topic).toHaveLength(32);

    // A push service that keeps failing: dropped after MAX_PUSH_ATTEMPTS.
    const failing = depsOf(h, { pushTransport: async () => ({ status: 500 }) });
    await h.storage.pushOutbox.enqueue(
      [u.userId],
      { idempotency_key: 'x2', category: 'alert', payload: '{}' },
      h.clock.now,
    );
    let failed = 0;
    for (let i = 0; i < MAX_PUSH_ATTEMPTS + 2; i++) {
      failed += (await deliverDue(failing)).failed;
      h.clock.now += 3_600_000;
    }
    expect(failed).toBe(1);
    expect((await h.storage.pushOutbox.byKey('x2'))[0].attempts).toBe(MAX_PUSH_ATTEMPTS);
  });

  it('deactivates a device whose public endpoint name points inside the network, sending nothing', async () => {
    const h = harness({ push: config.push });
    const u = await h.signup();
    const sub = push.subscribe();
    // https on 443, so only the name's address can refuse it.
    const endpoint = `https://push.example.test${new URL(sub.endpoint).pathname}`;
    const reg = await h.json('/v1/devices', { ...sub, endpoint }, { headers: { 'x-session-token': u.token } });
    expect(reg.status).toBe(200);
    await h.storage.pushOutbox.enqueue(
      [u.userId],
      { idempotency_key: 'dns1', category: 'alert', payload: '{}' },
      h.clock.now,
    );
    // The name resolves to loopback: the guarded transport refuses it at connect time.
    const resolve: Resolver = (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const deps = depsOf(h, { pushTransport: httpTransport({ allowInternal: false, resolve }) });
    const before = push.received.length;
    expect(await deliverDue(deps)).toMatchObject({ delivered: 0, gone: 1 });
    expect(push.received.length).toBe(before);
    const [device] = await h.storage.pushDevices.listByUser(u.userId);
    expect([device.active, device.deactivated_reason]).toEqual([
      false,
      'push endpoint host push.example.test resolves to the internal address 127.0.0.1',
    ]);
    const [row] = await h.storage.pushOutbox.byKey('dns1');
    expect([row.delivered_at, row.dropped_at !== null, row.last_error]).toEqual([
      null,
      true,
      device.deactivated_reason,
    ]);
  });

  it('keeps generated VAPID keys across restarts of the storage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-vapid-'));
    try {
      const file = join(dir, 'db.sqlite');
      const first = createSqliteStorage(file);
      const a = await vapidDetails({ storage: first, config: DEFAULT_CONFIG });
      await first.close();
      const second = createSqliteStorage(file);
      const b = await vapidDetails({ storage: second, config: DEFAULT_CONFIG });
      expect(b).toEqual(a);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const postgres = engines().find((e) => e.name === 'postgres') as TestEngine;

describe.skipIf(postgres.skip)(`sender on several instances [${engineTitle(postgres)}]`, () => {
  it("two instances on one database deliver side by side, each row once; a dead sender's rows go out after the lease", async () => {
    {
      // Several instances share PostgreSQL (SQLite is one process's database).
      const db = postgres.database();
      const a = await db.open();
      const b = await db.open();
      let now = Date.UTC(2026, 0, 15);
      await a.users.create({ id: 'u1', email: 'u1@x.test', password_hash: 'h', tier: 'free', created_at: now }, []);
      for (let i = 0; i < 30; i++) {
        await a.pushDevices.upsert({
          id: `d${i}`,
          user_id: 'u1',
          endpoint: `https://push.test/${i}`,
          p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
          auth: 'BTBZMqHH6r4Tts7J_aSIgg',
          name: null,
          created_at: now,
          updated_at: now,
          active: true,
          deactivated_at: null,
          deactivated_reason: null,
        });
      }
      const notice = { idempotency_key: 'fan', category: 'alert' as const, payload: '{}' };
      expect(await a.pushOutbox.enqueue(['u1'], notice, now)).toBe(30);
      const sent: string[] = [];
      const transport = async (req: PushRequest) => {
        sent.push(req.endpoint);
        await new Promise((r) => setTimeout(r, 2));
        return { status: 201 };
      };
      const deps = (storage: Storage): AppDeps => ({ storage, config, now: () => now, pushTransport: transport });
      const [ra, rb] = await Promise.all([deliverDue(deps(a)), deliverDue(deps(b))]);
      expect(ra.delivered + rb.delivered).toBe(30);
      expect(ra.delivered).toBeGreaterThan(0);
      expect(rb.delivered).toBeGreaterThan(0);
      expect(new Set(sent).size).toBe(30);
      expect(sent).toHaveLength(30);

      // A sender that claimed rows and died: nothing is due until the lease ends, then another sends them.
      await a.pushOutbox.enqueue(['u1'], { ...notice, idempotency_key: 'late' }, now);
      expect(await a.pushOutbox.claim(now, 30, CLAIM_LEASE_MS)).toHaveLength(30);
      expect((await deliverDue(deps(b))).delivered).toBe(0);
      now += CLAIM_LEASE_MS;
      expect((await deliverDue(deps(b))).delivered).toBe(30);
      expect(sent).toHaveLength(60);
    }
  });
});
