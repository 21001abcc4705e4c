/**
 * The background sync: every `pollMs` it syncs the connections that are due, at most
 * `concurrency` at a time, so a slow or failing venue cannot take the server's resources. A
 * connection is never synced twice at once. Tests drive it with `tick(now)` and `syncOnce(id)`
 * over an injected clock instead of `start()`.
 */
import type { AccountData } from '@marketlens/exchanges';
import { type SyncContext, type SyncResult, syncConnection } from './job.js';

/** Options of {@link SyncScheduler}: the job's context, with `open` cached per connection. */
export type SyncSchedulerOptions = SyncContext;

export class SyncScheduler {
  private readonly running = new Map<string, Promise<SyncResult | null>>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private ticking: Promise<unknown> | undefined;
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

  /** Polls for due connections every `pollMs` until {@link stop}. */
  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    const poll = (): void => {
      // One tick at a time: a tick still waiting on slow venues is not piled upon.
      if (this.ticking !== undefined) return;
      this.ticking = this.tick()
        .catch((err: unknown) => this.ctx.log?.(`sync tick failed: ${err instanceof Error ? err.message : 'error'}`))
        .finally(() => {
          this.ticking = undefined;
        });
    };
    this.timer = setInterval(poll, this.ctx.config.pollMs);
    this.timer.unref();
    poll();
  }

  /** Stops polling and waits for the syncs under way to end (each bounded by the call timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running.values()]);
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

  /** Fire-and-forget {@link syncOnce} (after a connection is created). */
  requestSync(connectionId: string): void {
    void this.syncOnce(connectionId).catch((err: unknown) =>
      this.ctx.log?.(`sync of ${connectionId} failed: ${err instanceof Error ? err.message : 'error'}`),
    );
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
