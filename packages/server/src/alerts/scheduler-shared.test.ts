/**
 * The alert pass run by several instances over one storage: an alert fires once and its push is
 * written and sent once, whether the instances tick together (in process) or share a schedule on
 * BullMQ with Redis.
 */
import { randomBytes } from 'node:crypto';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { harness } from '../../test/support/harness.js';
import { TestPushService } from '../../test/support/push-service.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../platform/deps.js';
import { BullMqJobs } from '../platform/jobs/bullmq.js';
import { CLAIM_LEASE_MS } from './push/delivery.js';
import { AlertScheduler } from './scheduler.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

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

/** A user with a device and a price alert that bitcoin crosses within the next day; and its app deps. */
async function crossedAlert() {
  const h = harness(config);
  const { token } = await h.signup();
  const auth = { headers: { 'x-session-token': token } };
  const sub = push.subscribe();
  expect((await h.json('/v1/devices', sub, auth)).status).toBe(200);
  const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
  const future = createSimulatedVenue({ now: () => h.clock.now + 86_400_000 });
  const { candles } = await future.candles({ asset_id: 'bitcoin', timeframe: 'm5', limit: 288 });
  const target = Number(((live + Math.max(...candles.high)) / 2).toFixed(2));
  const created = await h.json('/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target }, auth);
  expect(created.status).toBe(200);
  const alertId = ((await created.json()) as { data: { id: string } }).data.id;
  const deps = (): AppDeps => ({
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...config },
    now: () => h.clock.now,
    market: h.market,
  });
  return { h, sub, alertId, deps };
}

describe('alerts evaluated by several instances', () => {
  it('fires once when three instances tick together at every candle close', async () => {
    const { h, sub, alertId, deps } = await crossedAlert();
    const instances = [0, 1, 2].map(() => new AlertScheduler(deps()));
    let triggered = 0;
    for (let step = 0; step < 300 && triggered === 0; step++) {
      h.clock.now += FIVE_MIN;
      const reports = await Promise.all(instances.map((s) => s.tick()));
      triggered = reports.reduce((n, r) => n + r.triggered, 0);
    }
    expect(triggered).toBe(1);
    for (let step = 0; step < 12; step++) {
      h.clock.now += FIVE_MIN;
      await Promise.all(instances.map((s) => s.tick()));
    }
    await Promise.all(instances.map((s) => s.stop()));
    const pushes = push.received.filter((r) => r.subscription === sub.id);
    expect(pushes).toHaveLength(1);
    const key = pushes[0].payload.key as string;
    expect(key).toMatch(new RegExp(`^alert:${alertId}:`));
    expect(await h.storage.pushOutbox.byKey(key)).toHaveLength(1);
  });
});

describe.skipIf(noRedis)('alerts on BullMQ (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)', () => {
  it('fires once and pushes once with three instances sharing one schedule', async () => {
    const { h, sub, deps } = await crossedAlert();
    const prefix = `test-alerts-${randomBytes(6).toString('hex')}`;
    let triggered = 0;
    const instances = [0, 1, 2].map((i) => ({
      scheduler: new AlertScheduler(deps(), {
        intervalMs: 40,
        onAssetEvaluated: (_asset, report) => {
          triggered += report.triggered;
        },
      }),
      jobs: new BullMqJobs({ url: REDIS_URL, prefix, name: `alerts-instance-${i}` }),
    }));
    try {
      await Promise.all(instances.map(({ scheduler, jobs }) => scheduler.start(jobs)));
      // The market moves five minutes every 30 ms until the alert fired, and 20 steps more (a
      // second firing would show then). The clock does not move on while a push is claimed and not
      // yet sent: a claim is leased for CLAIM_LEASE_MS (two minutes) of the clock, which a send
      // takes milliseconds of, so a clock jumping five minutes in the middle of a send (under load)
      // would hand the row to another instance and test a lease expiry, not the single delivery.
      const deadline = Date.now() + 20_000;
      const claimed = async () =>
        (await h.storage.pushOutbox.due(h.clock.now + CLAIM_LEASE_MS, 10)).some((r) => r.next_attempt_at > h.clock.now);
      let after = 0;
      while (after < 20 && Date.now() < deadline) {
        while ((await claimed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        h.clock.now += FIVE_MIN;
        if (triggered > 0) after++;
        await new Promise((r) => setTimeout(r, 30));
      }
    } finally {
      for (const { scheduler, jobs } of instances) {
        await scheduler.stop();
        await jobs.close();
      }
    }
    expect(triggered).toBe(1);
    const pushes = push.received.filter((r) => r.subscription === sub.id);
    expect(pushes).toHaveLength(1);
    expect(await h.storage.pushOutbox.byKey(pushes[0].payload.key as string)).toHaveLength(1);
  }, 40_000);

  it("fans a pass out per asset: two workers share the assets' evaluations", async () => {
    const h = harness(config);
    const { userId } = await h.signup();
    const assets = ['bitcoin', 'ethereum', 'solana', 'tether', 'stock-aapl', 'fx-usdjpy', 'shiba-inu', 'cardano'];
    const now = h.clock.now;
    for (const [i, asset_id] of assets.entries()) {
      const created = await h.storage.alerts.createIfBelow(
        {
          id: `far-${i}`,
          user_id: userId,
          asset_id,
          kind: 'price',
          timeframe: null,
          evaluates_as: null,
          target: 1e12, // never reached: evaluated every candle, never fired
          direction: 'above',
          zone_low: null,
          zone_high: null,
          reference: 1,
          status: 'active',
          created_at: now,
          updated_at: now,
          armed_at: now,
          expires_at: now + 30 * 86_400_000,
          triggered_at: null,
          trigger_value: null,
          trigger_candle: null,
          last_evaluated_open: null,
        },
        null,
      );
      expect(created).toBe(true);
    }
    const prefix = `test-fanout-${randomBytes(6).toString('hex')}`;
    const seen = [new Map<string, number>(), new Map<string, number>()];
    const workers = [0, 1].map((i) => ({
      scheduler: new AlertScheduler(
        { storage: h.storage, config: { ...DEFAULT_CONFIG, ...config }, now: () => h.clock.now, market: h.market },
        {
          intervalMs: 50,
          onAssetEvaluated: (asset, report) => {
            expect(report.triggered).toBe(0);
            seen[i].set(asset, (seen[i].get(asset) ?? 0) + report.evaluated);
          },
        },
      ),
      jobs: new BullMqJobs({ url: REDIS_URL, prefix, name: `fanout-worker-${i}` }),
    }));
    try {
      await Promise.all(workers.map(({ scheduler, jobs }) => scheduler.start(jobs)));
      const deadline = Date.now() + 20_000;
      const covered = () => assets.every((a) => seen[0].has(a) || seen[1].has(a));
      while (Date.now() < deadline && !(covered() && seen[0].size > 0 && seen[1].size > 0)) {
        h.clock.now += FIVE_MIN;
        await new Promise((r) => setTimeout(r, 60));
      }
    } finally {
      for (const { scheduler, jobs } of workers) {
        await scheduler.stop();
        await jobs.close();
      }
    }
    // Every asset was evaluated, by one worker or the other, and both took some.
    expect(assets.filter((a) => !seen[0].has(a) && !seen[1].has(a))).toEqual([]);
    expect(seen[0].size).toBeGreaterThan(0);
    expect(seen[1].size).toBeGreaterThan(0);
    expect(await h.storage.alerts.listActive()).toHaveLength(assets.length);
  }, 40_000);
});
