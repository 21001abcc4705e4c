/**
 * The background sync: every `pollMs` the connections that are due are queued, one job per
 * connection, and synced at most `concurrency` at a time per process, so a slow or failing venue
 * cannot take the server's resources. On a shared job runner (Redis) the poll runs once across all
 * instances and any worker process syncs the queued connections. A connection is never synced twice
 * at once in one process, nor queued twice for the same due time. Tests drive it with `tick(now)`
 * and `syncOnce(id)` over an injected clock instead of `start()`.
 */
import type { AccountData } from '@marketlens/exchanges';
import { InProcessJobs } from '../../platform/jobs/in-process.js';
import type { JobRunner } from '../../platform/jobs/runner.js';
import { type SyncContext, type SyncResult, syncConnection } from './job.js';

/** Options of {@link SyncScheduler}: the job's context, with `open` cached per connection. */
export type SyncSchedulerOptions = SyncContext;

/** The repeatable job that queues the due connections. */
export const SYNC_DUE_JOB = 'sync-due';
/** One sync of one connection. */
export const SYNC_CONNECTION_JOB = 'sync-connection';
/** Due connections one poll queues at most (most overdue first); the rest are queued by the next. */
export const SYNC_POLL_BATCH = 1_000;

/** The data of a {@link SYNC_CONNECTION_JOB}. */
export interface SyncJob {
  connection_id: string;
  /**
   * The connection's `next_sync_at` when it was queued: the job syncs only while it is still that
   * (and due), so a job run again after its worker died resumes the sync, and one queued late after
   * a finished sync does nothing. Absent: sync now, due or not (asked after connecting).
   */
  due_at?: number;
}

/** The job id of a connection's sync: one per connection and due time (or per request). */
export function syncJobId(job: SyncJob): string {
  return `${job.connection_id}-${job.due_at ?? 'now'}`;
}

export class SyncScheduler {
  private readonly running = new Map<string, Promise<SyncResult | null>>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private jobs: JobRunner | undefined;
  /** The runner {@link start} made itself (no runner given), closed by {@link stop}. */
  private ownJobs: InProcessJobs | undefined;
  private stopped = false;
  /** Opened accounts, kept between syncs (a ccxt client loads the venue's markets once); dropped on failure. */
  private readonly accounts = new Map<string, Promise<{ account: AccountData; secrets: readonly string[] }>>();
  private readonly ctx: SyncContext;

  constructor(options: SyncSchedulerOptions) {
    this.ctx = {
      ...options,
      shouldStop: () => this.stopped || options.shouldStop?.() === true,
      open: (connection) => {
        let opened = this.accounts.get(connection.id);
        if (opened === undefined) {
          opened = options.open(connection);
          this.accounts.set(connection.id, opened);
          opened.catch(() => this.accounts.delete(connection.id));
        }
        return opened;
      },
    };
  }

  /**
   * Polls for due connections every `pollMs` (the first poll at once) and syncs them, until
   * {@link stop}: on `jobs` when given (its owner closes it), else on timers in this process.
   */
  async start(jobs?: JobRunner): Promise<void> {
    if (this.jobs !== undefined || this.stopped) return;
    if (jobs === undefined) {
      this.ownJobs = new InProcessJobs({
        onError: (name, err) => this.ctx.log?.(`${name} failed: ${err instanceof Error ? err.message : 'error'}`),
      });
    }
    const runner = jobs ?? this.ownJobs;
    if (runner === undefined) return;
    this.jobs = runner;
    await runner.work<SyncJob>(SYNC_CONNECTION_JOB, (job) => this.runJob(job), {
      concurrency: this.ctx.config.concurrency,
    });
    await runner.every(
      SYNC_DUE_JOB,
      this.ctx.config.pollMs,
      async () => {
        try {
          await this.enqueueDue();
        } catch (err) {
          this.ctx.log?.(`sync tick failed: ${err instanceof Error ? err.message : 'error'}`);
        }
      },
      { immediately: true },
    );
  }

  /** Stops polling and waits for the syncs under way to end (each bounded by the call timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.ownJobs?.close();
    await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Queues a sync job for each connection due at `now` (at most {@link SYNC_POLL_BATCH}); resolves
   * with how many were due. A connection already queued for the same due time is not queued again.
   */
  async enqueueDue(now: number = this.ctx.now()): Promise<number> {
    const jobs = this.jobs;
    if (this.stopped || jobs === undefined) return 0;
    const due = await this.ctx.storage.connections.due(now, SYNC_POLL_BATCH);
    // Queued together (on Redis without waiting for each answer), in the order read: most overdue first.
    await Promise.all(
      due.map((c) => {
        const job: SyncJob = { connection_id: c.id, due_at: c.next_sync_at };
        return jobs.enqueue(SYNC_CONNECTION_JOB, job, { jobId: syncJobId(job) });
      }),
    );
    return due.length;
  }

  /** Connections being synced now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Syncs the connections due at `now` (up to the free slots), and resolves when those syncs end. */
  async tick(now: number = this.ctx.now()): Promise<SyncResult[]> {
    if (this.stopped) return [];
    const free = this.ctx.config.concurrency - this.active;
    if (free <= 0) return [];
    const due = await this.ctx.storage.connections.due(now, free + this.running.size);
    const started: Promise<SyncResult | null>[] = [];
    for (const c of due) {
      if (started.length >= free) break;
      if (this.running.has(c.id)) continue;
      started.push(this.run(c.id));
    }
    const results = await Promise.all(started);
    return results.filter((r): r is SyncResult => r !== null);
  }

  /**
   * Syncs one connection now, whether due or not (waiting for a free slot); joins the sync under
   * way when there is one. Null when the connection does not exist or the scheduler stopped.
   */
  syncOnce(connectionId: string): Promise<SyncResult | null> {
    const current = this.running.get(connectionId);
    if (current !== undefined) return current;
    if (this.stopped) return Promise.resolve(null);
    return this.run(connectionId);
  }

  /**
   * Fire-and-forget sync of one connection now (after it is created): queued on the runner once
   * started (any worker takes it), else synced in this process at once.
   */
  requestSync(connectionId: string): void {
    const job: SyncJob = { connection_id: connectionId };
    const requested =
      this.jobs === undefined
        ? this.syncOnce(connectionId)
        : this.jobs.enqueue(SYNC_CONNECTION_JOB, job, { jobId: syncJobId(job) });
    void requested.catch((err: unknown) =>
      this.ctx.log?.(`sync of ${connectionId} failed: ${err instanceof Error ? err.message : 'error'}`),
    );
  }

  /**
   * Runs one queued sync: joins the sync of the connection under way in this process, else syncs
   * it unless the job is stale (the connection was synced or rescheduled since it was queued).
   */
  async runJob(job: SyncJob): Promise<SyncResult | null> {
    const current = this.running.get(job.connection_id);
    if (current !== undefined) return current;
    if (job.due_at !== undefined) {
      const connection = await this.ctx.storage.connections.byId(job.connection_id);
      if (connection === null || connection.next_sync_at !== job.due_at || job.due_at > this.ctx.now()) return null;
    }
    return this.syncOnce(job.connection_id);
  }

  private run(connectionId: string): Promise<SyncResult | null> {
    const work = (async (): Promise<SyncResult | null> => {
      await this.acquire();
      try {
        if (this.stopped) return null;
        // Read the record only now: the sync state (cursor, failures) may have moved while this waited.
        const connection = await this.ctx.storage.connections.byId(connectionId);
        if (connection === null) return null;
        const result = await syncConnection(this.ctx, connection);
        if (!result.ok) this.accounts.delete(connectionId);
        this.ctx.onSynced?.(connection, result);
        return result;
      } finally {
        this.release();
      }
    })();
    this.running.set(connectionId, work);
    const clear = (): void => {
      if (this.running.get(connectionId) === work) this.running.delete(connectionId);
    };
    work.then(clear, clear);
    return work;
  }

  private acquire(): Promise<void> {
    if (this.active < this.ctx.config.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(() => {
        this.active++;
        resolve();
      });
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}
