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
    let passes = 0;
    const instances = [0, 1, 2].map((i) => {
      const scheduler = new AlertScheduler(deps(), { intervalMs: 40 });
      // Counts what each pass did, across instances.
      const tick = scheduler.tick.bind(scheduler);
      scheduler.tick = async () => {
        const report = await tick();
        passes++;
        triggered += report.triggered;
        return report;
      };
      return { scheduler, jobs: new BullMqJobs({ url: REDIS_URL, prefix, name: `alerts-instance-${i}` }) };
    });
    try {
      await Promise.all(instances.map(({ scheduler, jobs }) => scheduler.start(jobs)));
      // The market moves five minutes for each pass any instance ran, until the alert fired and a
      // few passes more ran (a second firing would show then).
      let seen = 0;
      const deadline = Date.now() + 15_000;
      let after = 0;
      while (after < 5 && Date.now() < deadline) {
        if (passes > seen) {
          h.clock.now += FIVE_MIN * (passes - seen);
          seen = passes;
          if (triggered > 0) after++;
        }
        await new Promise((r) => setTimeout(r, 5));
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
  }, 30_000);
});
