import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  checkJobId,
  checkJobName,
  type EnqueueOptions,
  type EveryOptions,
  type JobErrorHandler,
  type JobHandler,
  type JobName,
  type JobRunner,
  logJobError,
  type WorkOptions,
} from './runner.js';

/** How long a job's lock lasts unless renewed (at half of it) by its live worker. */
export const DEFAULT_LOCK_DURATION_MS = 15_000;
/** How often workers look for jobs whose lock expired (their worker died). */
export const DEFAULT_STALLED_INTERVAL_MS = 5_000;
/** Times a job may be taken back from a dead worker before it counts as failed (a job that kills its worker). */
export const MAX_STALLED_RUNS = 2;
/** Failed jobs kept per queue for inspection. */
const KEEP_FAILED = 100;
/** How often each process checks that the repeatable schedules it knows of exist. */
export const DEFAULT_SCHEDULE_CHECK_MS = 30_000;

/** What one check found of one repeatable job's schedule (see {@link BullMqJobs.checkSchedules}). */
export type ScheduleState =
  /** It exists. */
  | 'present'
  /** It was missing and this process re-created it. */
  | 'recreated'
  /** It is missing and another process holds the right to re-create it (or Redis failed meanwhile). */
  | 'missing';

export interface BullMqJobsOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** Prefix of every queue's keys (default `marketlens`); instances that share work share it. */
  prefix?: string;
  /** Declares the repeatable schedules (default true); a worker process leaves it to the API instances. */
  schedule?: boolean;
  /** Works jobs in this process (default true); an API instance that should only serve sets false. */
  work?: boolean;
  /**
   * A running job's lock lasts this long and its worker renews it at half of it (default
   * {@link DEFAULT_LOCK_DURATION_MS}). A worker that dies (SIGKILL, lost host) stops renewing: its
   * job is taken back after at most `lockDurationMs + stalledIntervalMs` (20 s by default) and run
   * by another worker. A live worker whose event loop is blocked longer than half of it loses its
   * job the same way, so keep handlers asynchronous.
   */
  lockDurationMs?: number;
  /** How often workers look for jobs whose lock expired (default {@link DEFAULT_STALLED_INTERVAL_MS}). */
  stalledIntervalMs?: number;
  /** Shown as the worker of the jobs it runs, and in Redis' CLIENT LIST. */
  name?: string;
  /** A handler's failure (default: one line on stderr). */
  onError?: JobErrorHandler;
  /** Redis connection errors, at most one per 10 s (default: one line on stderr). */
  onConnectionError?: (err: Error) => void;
  /**
   * How often the repeatable schedules are checked (default {@link DEFAULT_SCHEDULE_CHECK_MS}); they
   * are also checked once every queue is connected and after each reconnection to Redis.
   */
  scheduleCheckMs?: number;
  /** Each check of each schedule (metrics); a re-creation is also reported to `onScheduleRecreated`. */
  onScheduleCheck?: (name: JobName, state: ScheduleState) => void;
  /** A schedule this process found missing and re-created (default: one line on stderr). */
  onScheduleRecreated?: (name: JobName, intervalMs: number) => void;
}

/**
 * The shared runner: one BullMQ queue per job name on Redis. A repeatable job is a BullMQ job
 * scheduler of the job's name (`upsertJobScheduler`: every instance declaring it updates the same
 * one, so it runs once per interval, not once per instance) on a queue of global concurrency 1, so
 * two runs never overlap across the fleet. Enqueued jobs carry the caller's id: BullMQ ignores an
 * id that is queued or running, and forgets it once the job ends (so the same work can be queued
 * again later). Any number of processes work the queues; a failed handler is not retried (the
 * next schedule finds the work again), a dead worker's job is (see `lockDurationMs`).
 *
 * Schedules heal: a Redis that restarts empty (no persistence, a failover, a flush) loses them, and
 * nothing else would ever declare them again. So every process, instance or worker, remembers the
 * repeatable jobs it was given and checks that each schedule exists once connected, after every
 * reconnection and every `scheduleCheckMs`; a missing one is re-created by the one process that
 * wins a short Redis lock for it (its first run then comes at once).
 */
export class BullMqJobs implements JobRunner {
  private readonly queues = new Map<JobName, Queue>();
  private readonly workers = new Map<JobName, Worker>();
  private readonly connection: { url: string; connectionName?: string };
  private readonly prefix: string;
  private readonly schedules: boolean;
  private readonly works: boolean;
  private readonly lockDuration: number;
  private readonly stalledInterval: number;
  private readonly onError: JobErrorHandler;
  private readonly onConnectionError: (err: Error) => void;
  private lastConnectionError = 0;
  private closed = false;
  /** The repeatable jobs given to {@link every}, by name: their interval. */
  private readonly repeatable = new Map<JobName, number>();
  /**
   * The repeatable jobs whose schedule this process declared itself or found in Redis: only those
   * can be missing (Redis lost them). One not seen yet is still being declared, by this process at
   * start or by another (an API instance starting after this worker), or is declared by none (a
   * deployment without API instances): none of these is healed nor reported.
   */
  private readonly seen = new Set<JobName>();
  private readonly checkMs: number;
  private checkTimer: NodeJS.Timeout | null = null;
  /** The check under way, so that a reconnection during a check does not start a second one at once. */
  private checking: Promise<void> | null = null;
  /**
   * A check was asked for while one was under way: that one may have looked before the schedule
   * went (a reconnection to a Redis that restarted empty during the check), so one more follows it.
   */
  private checkAgain = false;
  /** The connection of the schedule checks: its heal locks, and its reconnections trigger a check. */
  private watcher: Redis | null = null;
  private readonly onScheduleCheck: (name: JobName, state: ScheduleState) => void;
  private readonly onScheduleRecreated: (name: JobName, intervalMs: number) => void;

  constructor(private readonly options: BullMqJobsOptions) {
    this.connection = { url: options.url, connectionName: options.name };
    this.prefix = options.prefix ?? 'marketlens';
    this.schedules = options.schedule ?? true;
    this.works = options.work ?? true;
    this.lockDuration = options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS;
    this.stalledInterval = options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS;
    this.onError = options.onError ?? logJobError;
    const report = options.onConnectionError ?? ((err) => console.error('[marketlens] job queue:', err.message));
    this.onConnectionError = (err) => {
      const now = Date.now();
      if (now - this.lastConnectionError < 10_000) return;
      this.lastConnectionError = now;
      report(err);
    };
    this.checkMs = options.scheduleCheckMs ?? DEFAULT_SCHEDULE_CHECK_MS;
    this.onScheduleCheck = options.onScheduleCheck ?? (() => undefined);
    this.onScheduleRecreated =
      options.onScheduleRecreated ??
      ((name, every) =>
        console.error(`[marketlens] job schedule ${name} (every ${every} ms) was missing from Redis: re-created`));
  }

  /** Whether this process works jobs (false: it only schedules and enqueues). */
  get working(): boolean {
    return this.works;
  }

  async every(name: JobName, intervalMs: number, handler: JobHandler<void>, _options?: EveryOptions): Promise<void> {
    checkJobName(name);
    if (this.closed) return;
    this.repeatable.set(name, intervalMs);
    if (this.schedules) await this.declare(name, intervalMs);
    if (this.works) this.startWorker(name, (_data: unknown, info) => handler(undefined, info), 1);
    this.watchSchedules();
  }

  /**
   * Checks that the schedule of every repeatable job this process was given exists, and re-creates
   * a missing one (one it declared or found before: see {@link seen}), once across the cluster:
   * the process that first takes the job's heal lock in Redis (held one interval, at least 5 s)
   * re-creates it, the others see it back at their next check. Each result goes to
   * `onScheduleCheck`. Resolves when done; a Redis failure ends the check early (the next one tries
   * again). Runs on its own; tests and operators may call it.
   */
  checkSchedules(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.checking !== null) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checkAgain = false;
    const check = (async () => {
      for (const [name, every] of this.repeatable) {
        if (this.closed) return;
        const queue = this.queue(name);
        if ((await queue.getJobScheduler(name)) !== undefined) {
          this.seen.add(name);
          this.onScheduleCheck(name, 'present');
          continue;
        }
        // Not created yet (or being created right now), as opposed to lost: nothing to heal.
        if (!this.seen.has(name)) continue;
        const lock = `${this.prefix}:${name}:schedule-heal`;
        const won = await this.redis().set(
          lock,
          this.options.name ?? String(process.pid),
          'PX',
          Math.max(every, 5_000),
          'NX',
        );
        // Checked again under the lock: another process may have re-created it meanwhile.
        if (won === 'OK' && (await queue.getJobScheduler(name)) === undefined) {
          await this.declare(name, every);
          this.onScheduleCheck(name, 'recreated');
          this.onScheduleRecreated(name, every);
        } else {
          this.onScheduleCheck(name, won === 'OK' ? 'present' : 'missing');
        }
      }
    })()
      .catch((err: unknown) => this.onConnectionError(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        this.checking = null;
        if (this.checkAgain) void this.checkSchedules();
      });
    this.checking = check;
    return check;
  }

  /** Declares the schedule of `name` (or updates it: one per name across the cluster). */
  private async declare(name: JobName, intervalMs: number): Promise<void> {
    const queue = this.queue(name);
    await queue.setGlobalConcurrency(1);
    await queue.upsertJobScheduler(
      name,
      { every: intervalMs },
      { name, data: {}, opts: { removeOnComplete: true, removeOnFail: KEEP_FAILED } },
    );
    this.seen.add(name);
  }

  /** Starts the periodic check and the connection whose every (re)connection triggers one, on the first call. */
  private watchSchedules(): void {
    if (this.checkTimer !== null || this.closed) return;
    this.checkTimer = setInterval(() => void this.checkSchedules(), this.checkMs);
    this.checkTimer.unref();
    // ioredis says `ready` after every connection, the first included: a Redis that restarted
    // (empty or not) is checked as soon as it answers again.
    this.redis().on('ready', () => void this.checkSchedules());
  }

  /** The runner's own connection (heal locks, reconnection events), opened on first use. */
  private redis(): Redis {
    if (this.watcher === null) {
      this.watcher = new Redis(this.options.url, {
        connectionName: `${this.options.name ?? 'marketlens'}-schedules`,
        maxRetriesPerRequest: 1,
      });
      this.watcher.on('error', this.onConnectionError);
    }
    return this.watcher;
  }

  async enqueue<T>(name: JobName, data: T, options: EnqueueOptions): Promise<void> {
    checkJobName(name);
    checkJobId(options.jobId);
    if (this.closed) return;
    await this.queue(name).add(name, data, {
      jobId: options.jobId,
      attempts: 1,
      // Forgotten once ended, so the same work can be queued again.
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  async work<T>(name: JobName, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    checkJobName(name);
    if (this.closed || !this.works) return;
    this.startWorker(name, handler, Math.max(1, options.concurrency ?? 1));
  }

  /** Resolves once every queue and worker made so far is connected; rejects when Redis cannot be reached. */
  async whenReady(): Promise<void> {
    await Promise.all([...this.queues.values(), ...this.workers.values()].map((q) => q.waitUntilReady()));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.checkTimer !== null) clearInterval(this.checkTimer);
    await this.checking;
    this.watcher?.disconnect();
    this.watcher = null;
    // Workers first: each stops taking jobs and waits for the ones it runs.
    await Promise.allSettled([...this.workers.values()].map((w) => w.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.workers.clear();
    this.queues.clear();
  }

  /** The queue of `name` (for tests and metrics: its counts, its schedulers). */
  queue(name: JobName): Queue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      queue.on('error', this.onConnectionError);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private startWorker<T>(name: JobName, handler: JobHandler<T>, concurrency: number): void {
    if (this.workers.has(name)) throw new Error(`Jobs ${name} are worked already`);
    const worker = new Worker(
      name,
      async (job) => {
        await handler(job.data as T, { id: job.id ?? name, attempt: job.attemptsStarted });
      },
      {
        connection: this.connection,
        prefix: this.prefix,
        name: this.options.name,
        concurrency,
        lockDuration: this.lockDuration,
        stalledInterval: this.stalledInterval,
        maxStalledCount: MAX_STALLED_RUNS,
      },
    );
    worker.on('error', this.onConnectionError);
    worker.on('failed', (_job, err) => this.onError(name, err));
    this.workers.set(name, worker);
  }
}
