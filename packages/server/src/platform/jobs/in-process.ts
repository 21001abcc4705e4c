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

interface Queued {
  id: string;
  data: unknown;
}

interface Lane {
  handler: JobHandler<unknown> | null;
  concurrency: number;
  queue: Queued[];
  /** Ids queued or running: an id here is not queued again. */
  ids: Set<string>;
  active: number;
}

/**
 * The embedded runner: repeatable jobs on `setInterval` timers (unref'd, so they never keep the
 * process alive) and fan-out jobs in memory, worked in this process. A repeatable run still under
 * way when its interval comes round is not piled upon: that tick is skipped. Nothing survives the
 * process; the schedulers find their due work again in storage after a restart.
 */
export class InProcessJobs implements JobRunner {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly lanes = new Map<JobName, Lane>();
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;
  private readonly onError: JobErrorHandler;

  constructor(options: { onError?: JobErrorHandler } = {}) {
    this.onError = options.onError ?? logJobError;
  }

  async every(name: JobName, intervalMs: number, handler: JobHandler<void>, options: EveryOptions = {}): Promise<void> {
    checkJobName(name);
    if (this.closed) return;
    let current: Promise<unknown> | null = null;
    let runs = 0;
    const run = (): void => {
      if (current !== null || this.closed) return;
      runs++;
      const id = `${name}-${runs}`;
      current = this.track(
        Promise.resolve().then(() => handler(undefined, { id, attempt: 1 })),
        name,
      ).finally(() => {
        current = null;
      });
    };
    const timer = setInterval(run, intervalMs);
    timer.unref();
    this.timers.add(timer);
    if (options.immediately === true) run();
  }

  async enqueue<T>(name: JobName, data: T, options: EnqueueOptions): Promise<void> {
    checkJobName(name);
    checkJobId(options.jobId);
    if (this.closed) return;
    const lane = this.lane(name);
    if (lane.ids.has(options.jobId)) return;
    lane.ids.add(options.jobId);
    lane.queue.push({ id: options.jobId, data });
    this.pump(name, lane);
  }

  async work<T>(name: JobName, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    checkJobName(name);
    const lane = this.lane(name);
    if (lane.handler !== null) throw new Error(`Jobs ${name} are worked already`);
    // The lane holds handlers of every data type; each name's data is what its enqueuers pass.
    lane.handler = handler as JobHandler<unknown>;
    lane.concurrency = Math.max(1, options.concurrency ?? 1);
    this.pump(name, lane);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    for (const lane of this.lanes.values()) {
      for (const job of lane.queue) lane.ids.delete(job.id);
      lane.queue = [];
    }
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Jobs queued and not started, per name (for tests and metrics). */
  pending(name: JobName): number {
    return this.lanes.get(name)?.queue.length ?? 0;
  }

  private lane(name: JobName): Lane {
    let lane = this.lanes.get(name);
    if (lane === undefined) {
      lane = { handler: null, concurrency: 1, queue: [], ids: new Set(), active: 0 };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  /** Starts queued jobs of `name` while slots are free. */
  private pump(name: JobName, lane: Lane): void {
    const handler = lane.handler;
    if (handler === null) return;
    while (!this.closed && lane.active < lane.concurrency && lane.queue.length > 0) {
      const job = lane.queue.shift();
      if (job === undefined) break;
      lane.active++;
      void this.track(
        // A handler that throws at once is a failed job like one that rejects.
        Promise.resolve().then(() => handler(job.data, { id: job.id, attempt: 1 })),
        name,
      ).finally(() => {
        lane.active--;
        lane.ids.delete(job.id);
        this.pump(name, lane);
      });
    }
  }

  /** Keeps `work` among the handlers {@link close} waits for; its failure goes to `onError`. */
  private track(work: Promise<unknown>, name: JobName): Promise<unknown> {
    const tracked = work.catch((err: unknown) => this.onError(name, err));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
    return tracked;
  }
}
