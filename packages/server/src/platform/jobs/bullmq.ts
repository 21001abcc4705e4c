import { Queue, Worker } from 'bullmq';
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
}

/**
 * The shared runner: one BullMQ queue per job name on Redis. A repeatable job is a BullMQ job
 * scheduler of the job's name (`upsertJobScheduler`: every instance declaring it updates the same
 * one, so it runs once per interval, not once per instance) on a queue of global concurrency 1, so
 * two runs never overlap across the fleet. Enqueued jobs carry the caller's id: BullMQ ignores an
 * id that is queued or running, and forgets it once the job ends (so the same work can be queued
 * again later). Any number of processes work the queues; a failed handler is not retried (the
 * next schedule finds the work again), a dead worker's job is (see `lockDurationMs`).
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
  }

  /** Whether this process works jobs (false: it only schedules and enqueues). */
  get working(): boolean {
    return this.works;
  }

  async every(name: JobName, intervalMs: number, handler: JobHandler<void>, _options?: EveryOptions): Promise<void> {
    checkJobName(name);
    if (this.closed) return;
    if (this.schedules) {
      const queue = this.queue(name);
      await queue.setGlobalConcurrency(1);
      await queue.upsertJobScheduler(
        name,
        { every: intervalMs },
        { name, data: {}, opts: { removeOnComplete: true, removeOnFail: KEEP_FAILED } },
      );
    }
    if (this.works) this.startWorker(name, (_data: unknown, info) => handler(undefined, info), 1);
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
