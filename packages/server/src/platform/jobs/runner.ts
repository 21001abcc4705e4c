/**
 * The background work of a server (account sync, alert evaluation, the pilot, the market
 * refresher) is written against this port, so the same handlers run on timers in one process
 * ({@link InProcessJobs}, the embedded default) or on a job queue shared by any number of
 * processes ({@link BullMqJobs}, with Redis).
 *
 * Two kinds of job: a repeatable one ({@link JobRunner.every}: one schedule however many processes
 * declare it, and never two runs of it at once) and fan-out work ({@link JobRunner.enqueue} +
 * {@link JobRunner.work}: any worker takes it, a job id already queued or running is not queued
 * again). A job whose worker dies is run again by another worker, so every handler must be
 * idempotent: running it twice, or once more after a crash half-way, changes nothing the first
 * complete run did not.
 */

/** Names a job kind: letters, digits, `-` and `_` (Redis queues reserve `:`). */
export type JobName = string;

/** What a handler receives besides its data. */
export interface JobInfo {
  /** The job's id: the one given to {@link JobRunner.enqueue}, or one the runner picked. */
  id: string;
  /** How many times the job has been started, 1 the first time (more after its worker died). */
  attempt: number;
}

export type JobHandler<T> = (data: T, job: JobInfo) => Promise<unknown>;

export interface EveryOptions {
  /**
   * Runs once when the job is declared, as well as every interval (default false). In process this
   * is when `every` is called; on BullMQ a new schedule always runs its first job at once, and a
   * schedule another process created already keeps its rhythm.
   */
  immediately?: boolean;
}

export interface EnqueueOptions {
  /**
   * Identifies the work: while a job with this id is queued or running, enqueueing it again does
   * nothing, so two schedulers that see the same due work queue it once. Not empty, no `:`, and
   * not an integer (those are the runner's own ids).
   */
  jobId: string;
}

export interface WorkOptions {
  /** Jobs of this name one process runs at once (default 1). */
  concurrency?: number;
}

export interface JobRunner {
  /**
   * Runs `handler` every `intervalMs`, never two runs at once (across all processes on a shared
   * runner). A process that does not work jobs only declares the schedule; one that does not
   * schedule only registers the handler for the runs another process scheduled.
   */
  every(name: JobName, intervalMs: number, handler: JobHandler<void>, options?: EveryOptions): Promise<void>;
  /** Queues one job of `name`, unless a job with the same id is queued or running already. */
  enqueue<T>(name: JobName, data: T, options: EnqueueOptions): Promise<void>;
  /** Works the jobs of `name` in this process (nothing when this runner does not work jobs). */
  work<T>(name: JobName, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /**
   * Stops scheduling and taking jobs, and waits for the handlers under way to end. Jobs queued and
   * not started stay queued (on BullMQ another worker takes them; in process they are dropped, the
   * schedulers find that work again after a restart).
   */
  close(): Promise<void>;
}

/** Reports a handler's failure; the job itself is not retried (the next schedule or enqueue does that). */
export type JobErrorHandler = (name: JobName, err: unknown) => void;

/** The default {@link JobErrorHandler}: one line on stderr. */
export const logJobError: JobErrorHandler = (name, err) =>
  console.error(`[marketlens] job ${name} failed:`, err instanceof Error ? err.message : err);

const JOB_NAME = /^[A-Za-z0-9_-]+$/;

/** Throws unless `name` is a valid {@link JobName}. */
export function checkJobName(name: string): void {
  if (!JOB_NAME.test(name)) throw new Error(`Job name must be letters, digits, - or _: ${name}`);
}

/** Throws unless `jobId` can identify a job on every runner: not empty, no `:`, not an integer (BullMQ's own ids). */
export function checkJobId(jobId: string): void {
  if (jobId === '' || jobId.includes(':') || /^-?\d+$/.test(jobId)) throw new Error(`Invalid job id: ${jobId}`);
}

/** One ended run of a job, as {@link observeJobs} reports it. */
export interface JobRun {
  job: JobName;
  /** The job's id ({@link JobInfo.id}). */
  id: string;
  attempt: number;
  /** Wall time of the handler, in milliseconds. */
  ms: number;
  ok: boolean;
  /** The failure's message when `ok` is false. */
  error?: string;
}

/** Told of every ended run (metrics, the log). */
export type JobRunObserver = (run: JobRun) => void;

/**
 * `runner` with every handler it is given timed and reported to `observe` once it ends (resolved
 * or thrown); the handler's outcome is passed on unchanged, so failures still reach the runner's
 * own error handling. An observer that throws is ignored: reporting never fails a job.
 */
export function observeJobs(runner: JobRunner, observe: JobRunObserver): JobRunner {
  const timed =
    <T>(name: JobName, handler: JobHandler<T>): JobHandler<T> =>
    async (data, info) => {
      const start = performance.now();
      const report = (ok: boolean, err?: unknown) => {
        try {
          observe({
            job: name,
            id: info.id,
            attempt: info.attempt,
            ms: performance.now() - start,
            ok,
            ...(ok ? {} : { error: err instanceof Error ? err.message : String(err) }),
          });
        } catch {
          // the job's outcome is what matters
        }
      };
      try {
        const result = await handler(data, info);
        report(true);
        return result;
      } catch (err) {
        report(false, err);
        throw err;
      }
    };
  return {
    every: (name, intervalMs, handler, options) => runner.every(name, intervalMs, timed(name, handler), options),
    enqueue: (name, data, options) => runner.enqueue(name, data, options),
    work: (name, handler, options) => runner.work(name, timed(name, handler), options),
    close: () => runner.close(),
  };
}
