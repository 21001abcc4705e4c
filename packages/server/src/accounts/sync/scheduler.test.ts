/**
 * The sync scheduler on a job runner: in process (the embedded default) and on BullMQ with Redis,
 * where two instances poll the same storage and every due connection is synced once.
 */
import { randomBytes } from 'node:crypto';
import { type AccountData, createSimulatedAccount, SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { type SyncTestApp, syncTestApp } from '../../../test/support/sync-app.js';
import { BullMqJobs } from '../../platform/jobs/bullmq.js';
import { InProcessJobs } from '../../platform/jobs/in-process.js';
import type { JobRunner } from '../../platform/jobs/runner.js';
import { openConnection } from '../connections.js';
import { SYNC_CONNECTION_JOB, SyncScheduler, syncJobId } from './scheduler.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

/** An app whose simulated accounts count the syncs of each connection (one `positions()` read per sync). */
function countingApp(sync: Partial<SyncTestApp['deps']['config']['sync']> = {}) {
  const syncs = new Map<string, number>();
  const t: SyncTestApp = syncTestApp({
    sync: { pollMs: 20, ...sync },
    deps: {
      accountFor: (c): AccountData => {
        const inner = createSimulatedAccount(t.market, { connection: c.id });
        return {
          ...inner,
          connection: inner.connection,
          venue: inner.venue,
          positions: async () => {
            syncs.set(c.id, (syncs.get(c.id) ?? 0) + 1);
            return inner.positions();
          },
        };
      },
    },
  });
  return { t, syncs };
}

async function connectMany(t: SyncTestApp, n: number): Promise<string[]> {
  const { token } = await t.signup();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID }, token);
    expect(res.status).toBe(200);
    ids.push(((await res.json()) as { data: { id: string } }).data.id);
  }
  return ids;
}

/** A scheduler over `t` as server.ts wires it. */
function schedulerOf(t: SyncTestApp): SyncScheduler {
  return new SyncScheduler({
    storage: t.storage,
    now: t.deps.now,
    config: t.deps.config.sync,
    open: (c) => openConnection(t.deps, c),
  });
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

describe('SyncScheduler on a job runner', () => {
  it('polls on its own timers when started without a runner, each due connection synced once', async () => {
    const { t, syncs } = countingApp({ concurrency: 2 });
    const ids = await connectMany(t, 5);
    stops.push(() => t.scheduler.stop());
    await t.scheduler.start();
    await vi.waitFor(async () => {
      for (const id of ids) expect((await t.storage.connections.byId(id))?.last_success_at).not.toBeNull();
    }, 5_000);
    // The clock stands still: after its sync a connection is due again only an interval later.
    await new Promise((r) => setTimeout(r, 150));
    expect(ids.map((id) => syncs.get(id))).toEqual([1, 1, 1, 1, 1]);
    await t.scheduler.stop();
    expect(t.scheduler.inFlight).toBe(0);
  });

  it('syncs on a given runner and leaves closing it to its owner', async () => {
    const { t, syncs } = countingApp();
    const ids = await connectMany(t, 3);
    const jobs = new InProcessJobs();
    stops.push(() => jobs.close());
    await t.scheduler.start(jobs);
    await vi.waitFor(() => expect(ids.map((id) => syncs.get(id))).toEqual([1, 1, 1]), 5_000);
    await t.scheduler.stop();
    // A connection created after the stop is not synced by the stopped scheduler.
    const [late] = await connectMany(t, 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(syncs.get(late)).toBeUndefined();
  });

  it('runs a queued sync only while its connection is still due at the time it was queued for', async () => {
    const { t, syncs } = countingApp();
    const [id] = await connectMany(t, 1);
    const dueAt = (await t.storage.connections.byId(id))?.next_sync_at ?? 0;
    expect((await t.scheduler.runJob({ connection_id: id, due_at: dueAt }))?.ok).toBe(true);
    // Synced since: the same job again (a worker died after the sync, a late duplicate) does nothing.
    expect(await t.scheduler.runJob({ connection_id: id, due_at: dueAt })).toBeNull();
    expect(syncs.get(id)).toBe(1);
    // A requested sync (no due time) runs whether due or not.
    expect((await t.scheduler.runJob({ connection_id: id }))?.ok).toBe(true);
    expect(syncs.get(id)).toBe(2);
    expect(syncJobId({ connection_id: id, due_at: dueAt })).toBe(`${id}-${dueAt}`);
  });

  it('queues a requested sync on the runner once started', async () => {
    const { t, syncs } = countingApp({ pollMs: 60_000 });
    const queued: unknown[] = [];
    const jobs: JobRunner = {
      every: async () => {},
      work: async () => {},
      enqueue: async (name, data) => void queued.push({ name, data }),
      close: async () => {},
    };
    await t.scheduler.start(jobs);
    t.scheduler.requestSync('conn-1');
    await vi.waitFor(() => expect(queued).toEqual([{ name: SYNC_CONNECTION_JOB, data: { connection_id: 'conn-1' } }]));
    expect(syncs.size).toBe(0);
    await t.scheduler.stop();
  });
});

describe.skipIf(noRedis)(
  'SyncScheduler on BullMQ (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)',
  () => {
    it('syncs each due connection once with two instances polling the same storage', async () => {
      const prefix = `test-sync-${randomBytes(6).toString('hex')}`;
      const { t, syncs } = countingApp({ concurrency: 3 });
      const ids = await connectMany(t, 20);
      const instances = [0, 1].map((i) => ({
        scheduler: schedulerOf(t),
        jobs: new BullMqJobs({ url: REDIS_URL, prefix, name: `sync-instance-${i}` }),
      }));
      for (const { scheduler, jobs } of instances) {
        stops.push(async () => {
          await scheduler.stop();
          await jobs.close();
        });
      }
      await Promise.all(instances.map(({ scheduler, jobs }) => scheduler.start(jobs)));
      await vi.waitFor(
        async () => {
          for (const id of ids) expect((await t.storage.connections.byId(id))?.last_success_at).not.toBeNull();
        },
        { timeout: 10_000, interval: 50 },
      );
      // Several polls later, nothing was synced twice (the clock stands still: nothing is due again).
      await new Promise((r) => setTimeout(r, 200));
      expect(ids.map((id) => syncs.get(id) ?? 0)).toEqual(ids.map(() => 1));
    }, 20_000);
  },
);
