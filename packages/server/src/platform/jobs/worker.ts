import type { MarketData } from '@marketlens/exchanges';
import type { Storage } from '../../storage/types.js';
import type { AppDeps, ServerConfig } from '../deps.js';
import { SharedStateUnavailable } from '../redis/client.js';
import type { SharedState } from '../redis/shared-state.js';
import type { BullMqJobsOptions } from './bullmq.js';
import { type JobReporting, jobRunReporter, queueReporters } from './report.js';
import type { JobRunner, JobRunObserver } from './runner.js';

/** Declares and works a server's background jobs on a runner (the composition root's); `stop` ends them. */
export type JobStarter = (
  deps: AppDeps,
  runner: JobRunner,
  options: { warmMs?: number; log?: (message: string) => void; onJobRun?: JobRunObserver },
) => Promise<{ stop(): Promise<void> }>;

/** What a worker process works with; the caller builds storage and market data as for the server. */
export interface WorkerOptions {
  /** The jobs to work: the composition root's (`startBackgroundJobs` of `background.ts`). */
  startJobs: JobStarter;
  /** Collaborators of the deps built here when `deps` is absent, given the log (the mailer). */
  defaults?: (log: (message: string) => void) => Partial<AppDeps>;
  config: ServerConfig;
  storage: Storage;
  market: MarketData;
  /** The Redis of the API instances (`REDIS_URL`): their queues are the worker's. */
  redisUrl: string;
  /** The key connection credentials are encrypted with: the API instances' own (MARKETLENS_SECRET_KEY). */
  credentialsKey: Uint8Array;
  /** The state instances share, when the caller opened it (caches the handlers fill). */
  shared?: SharedState;
  /** Refresh the favorites' and popular assets' analyses this often (real sources only; absent or 0: never). */
  warmMs?: number;
  /**
   * The app's deps, built by the composition root (`createMarketlens`); absent: built here from
   * the fields above and `extra`.
   */
  deps?: AppDeps;
  /** Injected collaborators (tests: a venue server, the clock, the push transport). */
  extra?: Partial<Pick<AppDeps, 'accountFor' | 'now' | 'pushTransport' | 'mailer'>>;
  /** Queue tuning (tests shorten the dead-worker recovery, and isolate their keys by prefix). */
  queue?: Pick<BullMqJobsOptions, 'prefix' | 'lockDurationMs' | 'stalledIntervalMs' | 'name' | 'scheduleCheckMs'>;
  /**
   * Where the worker reports its jobs (a log line per run, the job metrics, schedule checks) and
   * its queue's errors; absent: failures alone, through `log`.
   */
  reporting?: JobReporting;
  /** How long to wait for Redis at start before failing (default 10 s). */
  connectTimeoutMs?: number;
  /** One line per failure (default: stderr, prefixed `[marketlens]`). */
  log?: (message: string) => void;
}

export interface RunningWorker {
  /** Stops taking jobs and waits for the ones under way (a sync ends at its next page); does not close storage. */
  stop(): Promise<void>;
}

/**
 * `marketlens worker`: a process that only works the background jobs the API instances schedule
 * on Redis (account syncs, alert passes, the pilot, the market refresher); it serves no HTTP and
 * declares no schedule at start, but re-creates one it finds missing (a Redis that restarted empty). Any number of them share the work; one killed mid-job has its job finished
 * by another. Rejects with {@link SharedStateUnavailable} when Redis cannot be reached in time.
 */
export async function startJobWorker(options: WorkerOptions): Promise<RunningWorker> {
  const reporting = options.reporting;
  const log =
    options.log ??
    (reporting !== undefined
      ? (message: string) => reporting.logger.error({ process: reporting.process }, message)
      : (message: string) => console.error(`[marketlens] ${message}`));
  const deps: AppDeps = options.deps ?? {
    storage: options.storage,
    config: options.config,
    now: Date.now,
    market: options.market,
    credentialsKey: options.credentialsKey,
    ...options.defaults?.(log),
    ...(options.shared !== undefined ? { shared: options.shared } : {}),
    ...options.extra,
  };
  // BullMQ is loaded here, not when the module is: a process that never starts a worker skips it.
  const { BullMqJobs } = await import('./bullmq.js');
  const jobs = new BullMqJobs({
    name: `marketlens-worker-${process.pid}`,
    ...options.queue,
    url: options.redisUrl,
    schedule: false,
    work: true,
    onError: (name, err) => log(`job ${name} failed: ${err instanceof Error ? err.message : String(err)}`),
    onConnectionError: (err) => log(`job queue: ${err.message}`),
    ...(reporting !== undefined ? queueReporters(reporting) : {}),
  });
  const background = await options.startJobs(deps, jobs, {
    warmMs: options.warmMs,
    log,
    ...(reporting !== undefined ? { onJobRun: jobRunReporter(reporting) } : {}),
  });
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      jobs.whenReady(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new SharedStateUnavailable(`Redis not reachable within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (err) {
    await background.stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return {
    async stop() {
      const began = performance.now();
      reporting?.logger.info(
        { process: reporting.process },
        'worker stopping: jobs under way finish, queued ones stay queued',
      );
      await background.stop();
      reporting?.logger.info(
        { process: reporting.process, durationMs: Math.round(performance.now() - began) },
        'worker stopped',
      );
    },
  };
}
