import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';
import type { BullMqJobsOptions } from './bullmq.js';
import type { JobRunObserver } from './runner.js';

/** Where a process reports its jobs: its log, its metrics, and the name it goes by in both. */
export interface JobReporting {
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  metrics?: Metrics;
  /** Which process ran a job: `api-<pid>` or `worker-<pid>`, as in Redis' CLIENT LIST. */
  process: string;
}

/**
 * The observer of every job run of a process: one log line per run (`job run`, at info; `job
 * failed`, at error, with the message) naming the job, its id, attempt, duration and the process
 * that ran it, and the `jobs_run_total`/`jobs_failed_total`/last-run metrics.
 */
export function jobRunReporter(r: JobReporting): JobRunObserver {
  return (run) => {
    const line = {
      job: run.job,
      jobId: run.id,
      attempt: run.attempt,
      durationMs: Math.round(run.ms * 1000) / 1000,
      process: r.process,
    };
    if (run.ok) r.logger.info(line, 'job run');
    else r.logger.error({ ...line, error: run.error }, 'job failed');
    r.metrics?.jobRun(run.job, run.ok, run.ms / 1000, Date.now());
  };
}

/** The BullMQ runner's reports of a process: queue errors, failed jobs and schedule checks, as log lines and metrics. */
export function queueReporters(
  r: JobReporting,
): Required<Pick<BullMqJobsOptions, 'onError' | 'onConnectionError' | 'onScheduleCheck' | 'onScheduleRecreated'>> {
  return {
    // Nothing: every handler of startBackgroundJobs is observed, and its run line (jobRunReporter)
    // already says it failed; a second line would double every failure.
    onError: () => undefined,
    onConnectionError: (err) => r.logger.warn({ process: r.process, error: err.message }, 'job queue: Redis error'),
    onScheduleCheck: (name, state) => r.metrics?.jobSchedule(name, state === 'missing', state === 'recreated'),
    onScheduleRecreated: (name, everyMs) =>
      r.logger.warn(
        { job: name, everyMs, process: r.process },
        'job schedule was missing from Redis (restarted empty?): re-created',
      ),
  };
}
