/**
 * The shared runner on a real Redis: a schedule declared by three instances runs once per
 * interval and never overlaps; jobs are split between two worker processes, none run twice; the
 * job of a worker process killed with SIGKILL is finished by the other within 30 s.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import {
  bundleJobsWorker,
  type JobsWorkerProcess,
  startJobsWorker,
} from '../../../test/support/jobs-worker-fixture.bundle.js';
import { BullMqJobs } from './bullmq.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

// Short locks so a dead worker's job comes back in about two seconds, not twenty.
const LOCK_MS = 1_500;
const STALLED_MS = 500;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freshPrefix = () => `test-jobs-${randomBytes(6).toString('hex')}`;

const workers: JobsWorkerProcess[] = [];
const runners: BullMqJobs[] = [];
let bundle: ReturnType<typeof bundleJobsWorker> | undefined;

function runner(options: Omit<ConstructorParameters<typeof BullMqJobs>[0], 'url'>): BullMqJobs {
  const jobs = new BullMqJobs({ url: REDIS_URL, lockDurationMs: LOCK_MS, stalledIntervalMs: STALLED_MS, ...options });
  runners.push(jobs);
  return jobs;
}

/** Starts a worker process working `name` under `prefix`, each job sleeping its `ms`. */
async function startWorkerProcess(prefix: string, name: string): Promise<JobsWorkerProcess> {
  if (bundle === undefined) throw new Error('not bundled');
  const proc = await startJobsWorker(bundle.file, {
    JOBS_REDIS_URL: REDIS_URL,
    JOBS_PREFIX: prefix,
    JOBS_NAME: name,
    JOBS_LOCK_MS: String(LOCK_MS),
    JOBS_STALLED_MS: String(STALLED_MS),
  });
  workers.push(proc);
  return proc;
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await pause(20);
  }
}

describe.skipIf(noRedis)('BullMqJobs (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)', () => {
  beforeAll(() => {
    bundle = bundleJobsWorker();
  }, 60_000);

  afterEach(async () => {
    for (const w of workers.splice(0)) w.child.kill('SIGKILL');
    await Promise.all(runners.splice(0).map((r) => r.close()));
  });

  afterAll(() => {
    bundle?.remove();
  });

  it('runs a job scheduled by three instances once per interval, one run at a time', async () => {
    const prefix = freshPrefix();
    const instances = [0, 1, 2].map((i) => runner({ prefix, name: `instance-${i}` }));
    let runs = 0;
    let active = 0;
    let overlap = 0;
    const handler = async () => {
      runs++;
      active++;
      overlap = Math.max(overlap, active);
      await pause(50);
      active--;
    };
    const started = Date.now();
    await Promise.all(instances.map((jobs) => jobs.every('tick', 300, handler)));
    await pause(1_950);
    const elapsed = Date.now() - started;
    await Promise.all(instances.map((jobs) => jobs.close()));
    // One schedule: about one run per 300 ms (plus the first at once), not three.
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(Math.floor(elapsed / 300) + 2);
    expect(overlap).toBe(1);
    const probe = runner({ prefix, work: false, schedule: false });
    expect(await probe.queue('tick').getJobSchedulersCount()).toBe(1);
  });

  it('never overlaps runs of a job slower than its interval, across instances', async () => {
    const prefix = freshPrefix();
    const instances = [0, 1, 2].map((i) => runner({ prefix, name: `instance-${i}` }));
    let runs = 0;
    let active = 0;
    let overlap = 0;
    const handler = async () => {
      runs++;
      active++;
      overlap = Math.max(overlap, active);
      await pause(250);
      active--;
    };
    await Promise.all(instances.map((jobs) => jobs.every('slow', 100, handler)));
    await pause(1_500);
    await Promise.all(instances.map((jobs) => jobs.close()));
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(overlap).toBe(1);
  });

  it('re-creates a schedule wiped from Redis once across three instances and a worker, and runs it again', async () => {
    const prefix = freshPrefix();
    const states: string[] = [];
    const recreated: string[] = [];
    const observed = (i: number) => ({
      prefix,
      name: `heal-${i}`,
      // no periodic check here: the test drives them
      scheduleCheckMs: 3_600_000,
      onScheduleCheck: (name: string, state: string) => states.push(`${i}:${name}:${state}`),
      onScheduleRecreated: (name: string) => recreated.push(`${i}:${name}`),
    });
    const instances = [0, 1, 2].map((i) => runner(observed(i)));
    const worker = runner({ ...observed(3), schedule: false, work: false });
    let runs = 0;
    const handler = async () => {
      runs++;
    };
    await Promise.all(instances.map((jobs) => jobs.every('heal', 200, handler)));
    await worker.every('heal', 200, handler);
    await until(() => runs >= 2, 5_000);
    // Redis restarted empty: every key of the deployment is gone.
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    redis.disconnect();
    expect(await instances[0].queue('heal').getJobScheduler('heal')).toBeUndefined();
    await pause(400);
    const before = runs;
    states.length = 0;
    await Promise.all([...instances, worker].map((jobs) => jobs.checkSchedules()));
    expect(recreated).toHaveLength(1);
    expect(states.filter((s) => s.endsWith(':recreated'))).toHaveLength(1);
    expect(states).toHaveLength(4);
    expect(await instances[0].queue('heal').getJobSchedulersCount()).toBe(1);
    await until(() => runs >= before + 2, 5_000);
    // found present from then on
    states.length = 0;
    await Promise.all([...instances, worker].map((jobs) => jobs.checkSchedules()));
    expect(states.every((s) => s.endsWith(':present'))).toBe(true);
  });

  it('heals no schedule that was never declared: a worker started before any instance re-creates nothing', async () => {
    const prefix = freshPrefix();
    const states: string[] = [];
    const recreated: string[] = [];
    const worker = runner({
      prefix,
      schedule: false,
      work: false,
      scheduleCheckMs: 3_600_000,
      onScheduleCheck: (name, state) => states.push(`${name}:${state}`),
      onScheduleRecreated: (name) => recreated.push(name),
    });
    await worker.every('unseen', 200, async () => undefined);
    await worker.checkSchedules();
    expect(recreated).toEqual([]);
    expect(await worker.queue('unseen').getJobScheduler('unseen')).toBeUndefined();
    // Once an instance declared it, the worker heals it like any other.
    const instance = runner({ prefix, work: false, scheduleCheckMs: 3_600_000 });
    await instance.every('unseen', 200, async () => undefined);
    await worker.checkSchedules();
    expect(states.at(-1)).toBe('unseen:present');
    await worker.queue('unseen').removeJobScheduler('unseen');
    await worker.checkSchedules();
    expect(recreated).toEqual(['unseen']);
  });

  it('checks the schedules after a reconnection to Redis, without being asked', async () => {
    const prefix = freshPrefix();
    const recreated: string[] = [];
    const name = `reconnect-${prefix}`;
    const jobs = runner({
      prefix,
      name,
      scheduleCheckMs: 3_600_000,
      onScheduleRecreated: (job) => recreated.push(job),
    });
    await jobs.every('reconnect', 200, async () => undefined);
    const queue = jobs.queue('reconnect');
    await queue.removeJobScheduler('reconnect');
    expect(await queue.getJobScheduler('reconnect')).toBeUndefined();
    // The connection drops (as when Redis restarts) and comes back: ioredis reconnects by itself.
    const redis = new Redis(REDIS_URL);
    const clients = String(await redis.call('CLIENT', 'LIST'));
    const id = new RegExp(`id=(\\d+) .*name=${name}-schedules `).exec(clients)?.[1];
    expect(id).toBeDefined();
    await redis.call('CLIENT', 'KILL', 'ID', String(id));
    redis.disconnect();
    await until(() => recreated.length === 1, 5_000);
    expect(await queue.getJobScheduler('reconnect')).toBeDefined();
  });

  it('checks once more when asked during a check that already looked (a reconnection mid-check)', async () => {
    // The first check reads schedule 'early' as present; while it goes on to 'late', the schedule
    // goes and a check is asked for (as Redis coming back asks). Returning the check under way
    // would leave 'early' missing until the next periodic check (an hour here).
    const prefix = freshPrefix();
    const recreated: string[] = [];
    let armed = false;
    let removal: Promise<unknown> | undefined;
    const jobs: BullMqJobs = runner({
      prefix,
      scheduleCheckMs: 3_600_000,
      onScheduleRecreated: (job) => recreated.push(job),
      onScheduleCheck: (job, result) => {
        if (!armed || job !== 'early' || result !== 'present') return;
        armed = false;
        // Same queue connection as the checks' reads, so the removal is ordered before them.
        removal = jobs.queue('early').removeJobScheduler('early');
        void jobs.checkSchedules();
      },
    });
    await jobs.every('early', 60_000, async () => undefined);
    await jobs.every('late', 60_000, async () => undefined);
    await jobs.checkSchedules();
    armed = true;
    await jobs.checkSchedules();
    expect(armed).toBe(false);
    await removal;
    await until(() => recreated.length === 1, 5_000);
    expect(recreated).toEqual(['early']);
    expect(await jobs.queue('early').getJobScheduler('early')).toBeDefined();
  });

  it('checks the schedules every scheduleCheckMs', async () => {
    const prefix = freshPrefix();
    const recreated: string[] = [];
    const jobs = runner({ prefix, scheduleCheckMs: 200, onScheduleRecreated: (name) => recreated.push(name) });
    await jobs.every('periodic', 1_000, async () => undefined);
    await pause(100);
    await jobs.queue('periodic').removeJobScheduler('periodic');
    await until(() => recreated.length === 1, 3_000);
    expect(await jobs.queue('periodic').getJobScheduler('periodic')).toBeDefined();
  });

  it('queues a job id once while it is queued or running, and again once it ended', async () => {
    const prefix = freshPrefix();
    const producer = runner({ prefix, work: false });
    await producer.enqueue('once', { n: 1 }, { jobId: 'conn-a-1000' });
    await producer.enqueue('once', { n: 2 }, { jobId: 'conn-a-1000' });
    await producer.enqueue('once', { n: 3 }, { jobId: 'conn-b-1000' });
    const seen: number[] = [];
    const worker = runner({ prefix, schedule: false });
    await worker.work<{ n: number }>('once', async (data) => {
      seen.push(data.n);
    });
    await until(() => seen.length === 2, 5_000);
    await pause(100);
    expect(seen.sort()).toEqual([1, 3]);
    await producer.enqueue('once', { n: 4 }, { jobId: 'conn-a-1000' });
    await until(() => seen.length === 3, 5_000);
    expect(seen).toContain(4);
  });

  it('splits 200 queued jobs between two worker processes, none run twice', async () => {
    const prefix = freshPrefix();
    const pair = await Promise.all([startWorkerProcess(prefix, 'split'), startWorkerProcess(prefix, 'split')]);
    const producer = runner({ prefix, work: false });
    for (let i = 0; i < 200; i++) await producer.enqueue('split', { ms: 10 }, { jobId: `job-${i}` });
    await until(() => pair[0].said('DONE').length + pair[1].said('DONE').length >= 200, 20_000);
    await pause(200);
    const all = [...pair[0].said('DONE'), ...pair[1].said('DONE')];
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    expect(pair[0].said('DONE').length).toBeGreaterThan(0);
    expect(pair[1].said('DONE').length).toBeGreaterThan(0);
    const counts = await producer.queue('split').getJobCounts('waiting', 'active', 'delayed', 'failed');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  }, 30_000);

  it('finishes the job of a worker process killed with SIGKILL in another, within 30 s, once', async () => {
    const prefix = freshPrefix();
    const pair = await Promise.all([startWorkerProcess(prefix, 'crash'), startWorkerProcess(prefix, 'crash')]);
    const producer = runner({ prefix, work: false });
    await producer.enqueue('crash', { ms: 1_000 }, { jobId: 'sync-conn-1' });
    await until(() => pair.some((w) => w.said('STARTED').includes('sync-conn-1')), 5_000);
    const victim = pair.find((w) => w.said('STARTED').includes('sync-conn-1'));
    const survivor = pair.find((w) => w !== victim);
    if (victim === undefined || survivor === undefined) throw new Error('no worker took the job');
    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = Date.now();
    await until(() => survivor.said('DONE').includes('sync-conn-1'), 30_000);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(victim.said('DONE')).toEqual([]);
    expect(survivor.said('STARTED')).toEqual(['sync-conn-1']);
    expect(survivor.said('DONE')).toEqual(['sync-conn-1']);
    await pause(LOCK_MS + 2 * STALLED_MS);
    expect(survivor.said('DONE')).toEqual(['sync-conn-1']);
    const counts = await producer.queue('crash').getJobCounts('waiting', 'active', 'delayed', 'failed');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  }, 30_000);
});
