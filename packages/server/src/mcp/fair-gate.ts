/**
 * Fair admission of CPU-heavy work (the `/mcp` messages) between client addresses.
 *
 * The rate limit bounds what one address may spend in a minute, not when: 2,000 units bought 100
 * cold analyses that one address could run back to back, four connections at a time, and every
 * other client's request then waited behind them on the one event loop. The gate bounds the when:
 *
 * - at most `perKey` messages of one key (an address group: an IPv4 address, an IPv6 /64) run at
 *   once, and at most `slots` in all;
 * - the others wait in a queue per key, at most `queuePerKey` deep (past that: refused, 429);
 * - a freed slot goes to the keys in turn (round robin over the keys with work waiting; the key whose
 *   message just ended goes to the back), so a key that just arrived is admitted before the next
 *   message of a key that has many queued, and at once while a slot is free;
 * - a freed slot is handed on from a `setImmediate`, after the event loop has read the sockets:
 *   requests that arrived during a heavy message (a `/v2/config`, another client's message) start
 *   before the flood's next message does.
 *
 * - a key's share of the time is bounded, as a bucket of time: a key earns `share` ms of slot time
 *   per ms of wall clock, up to `burstMs` saved; each message spends the time it held its slot
 *   (wall clock, awaits included); a key in debt waits until it has earned it back. A client that
 *   uses less than its share never waits for it; a flood, once its burst is spent, occupies the
 *   event loop at most `share` of the time however many messages it sends, so a request of another
 *   client arriving at a random moment finds none of the flood's messages running with a
 *   probability of at least `1 - share`: more than half are served as on a quiet server, and their
 *   median latency stays a quiet server's. Other keys are not held back by it.
 *
 * So one address occupies at most `perKey` of the loop's turns in a row and `share` of its time;
 * what another client waits for is at most the `perKey` messages in flight, never the flood's queue.
 */

/** The bounds of a gate. */
export interface FairGateOptions {
  /** Messages running at once, all keys together. */
  slots: number;
  /** Messages of one key running at once. */
  perKey: number;
  /** Messages of one key waiting at most; past that `acquire` refuses. */
  queuePerKey: number;
  /** Most of the time one key's messages may hold a slot (0 < share <= 1; 1: no bound). */
  share?: number;
  /** Slot time a key may save up while it uses less than its share (ms; default 0). */
  burstMs?: number;
}

/**
 * The `/mcp` gate's bounds: 4 messages at once, 1 per address, 16 waiting per address, and an
 * address's messages at most a quarter of the time beyond a burst of 200 ms.
 */
export const MCP_FAIRNESS: FairGateOptions = { slots: 4, perKey: 1, queuePerKey: 16, share: 1 / 4, burstMs: 200 };

/** The gate's clock and timers, injectable for tests. */
export interface FairGateTiming {
  /** Hands a freed slot on (after the sockets are read): setImmediate. */
  defer: (fn: () => void) => void;
  /** Milliseconds, monotonic: performance.now. */
  now: () => number;
  /** Runs `fn` after `ms`: setTimeout, unref'd. */
  after: (fn: () => void, ms: number) => void;
}

const REAL_TIMING: FairGateTiming = {
  defer: setImmediate,
  now: () => performance.now(),
  after: (fn, ms) => {
    setTimeout(fn, ms).unref();
  },
};

/** Ends an admitted message's hold on its slot (a second call does nothing). */
export type Release = () => void;

/** What the gate holds now: in flight and waiting, in all and for one key. */
export interface FairGateState {
  running: number;
  waiting: number;
  runningOf(key: string): number;
  waitingOf(key: string): number;
}

/** Per-key fair admission (see the module's comment). */
export class FairGate implements FairGateState {
  #running = 0;
  readonly #inFlight = new Map<string, number>();
  /** Keys with work waiting, in the order they get their next turn. */
  readonly #waiting = new Map<string, Array<(release: Release) => void>>();
  #pumpQueued = false;
  /** The time credit of each key that spent some (absent: a full bucket), as of `at`. */
  readonly #credit = new Map<string, { credit: number; at: number }>();
  #wakeAt = Number.POSITIVE_INFINITY;
  readonly #timing: FairGateTiming;
  readonly #share: number;
  readonly #burst: number;

  constructor(
    readonly options: FairGateOptions,
    timing: Partial<FairGateTiming> = {},
    /** Called as each message is admitted (tests count with it). */
    private readonly onAdmit?: (key: string) => void,
  ) {
    const share = options.share ?? 1;
    if (!(options.slots >= 1 && options.perKey >= 1 && options.queuePerKey >= 0 && share > 0 && share <= 1)) {
      throw new Error('a fair gate needs slots >= 1, perKey >= 1, queuePerKey >= 0 and 0 < share <= 1');
    }
    this.#timing = { ...REAL_TIMING, ...timing };
    this.#share = share;
    this.#burst = Math.max(0, options.burstMs ?? 0);
  }

  /** The key's time credit at `now`: what it saved, plus what it earned since, at most the burst. */
  #creditOf(key: string, now: number): number {
    const c = this.#credit.get(key);
    if (c === undefined) return this.#burst;
    return Math.min(this.#burst, c.credit + (now - c.at) * this.#share);
  }

  /** When a key in debt has earned its way back to zero (undefined: not in debt). */
  #readyAt(key: string): number | undefined {
    const c = this.#credit.get(key);
    return c === undefined || c.credit >= 0 ? undefined : c.at - c.credit / this.#share;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    let n = 0;
    for (const q of this.#waiting.values()) n += q.length;
    return n;
  }

  runningOf(key: string): number {
    return this.#inFlight.get(key) ?? 0;
  }

  waitingOf(key: string): number {
    return this.#waiting.get(key)?.length ?? 0;
  }

  /**
   * Admits a message of `key`: resolves with its release once it may run (at once when a slot is
   * free and the key has nothing waiting), or returns null when the key already has
   * `queuePerKey` messages waiting.
   */
  acquire(key: string): Promise<Release> | null {
    // A slot freed a moment ago belongs to the keys already waiting (their turn is being handed on).
    const handingOn = this.#pumpQueued && this.#waiting.size > 0;
    if (!handingOn && !this.#waiting.has(key) && this.#admissible(key)) return Promise.resolve(this.#start(key));
    const queue = this.#waiting.get(key) ?? [];
    if (queue.length >= this.options.queuePerKey) return null;
    const admitted = new Promise<Release>((resolve) => queue.push(resolve));
    this.#waiting.set(key, queue);
    // Waiting only for its share: admitted when rested, whatever else happens meanwhile.
    this.#wakeForRested();
    return admitted;
  }

  #admissible(key: string): boolean {
    if (this.#running >= this.options.slots || this.runningOf(key) >= this.options.perKey) return false;
    if (!this.#credit.has(key)) return true;
    const now = this.#timing.now();
    const credit = this.#creditOf(key, now);
    if (credit < 0) return false;
    if (credit >= this.#burst) this.#credit.delete(key);
    return true;
  }

  #start(key: string): Release {
    this.#running += 1;
    this.#inFlight.set(key, this.runningOf(key) + 1);
    this.onAdmit?.(key);
    const admittedAt = this.#timing.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.#share < 1) {
        const now = this.#timing.now();
        this.#credit.set(key, { credit: this.#creditOf(key, now) - (now - admittedAt), at: now });
      }
      this.#running -= 1;
      const left = this.runningOf(key) - 1;
      if (left > 0) this.#inFlight.set(key, left);
      else this.#inFlight.delete(key);
      // The key just served waits behind every other key for its next turn.
      const queue = this.#waiting.get(key);
      if (queue !== undefined) {
        this.#waiting.delete(key);
        this.#waiting.set(key, queue);
      }
      if (!this.#pumpQueued) {
        this.#pumpQueued = true;
        this.#timing.defer(() => {
          this.#pumpQueued = false;
          this.#pump();
        });
      }
    };
  }

  /** Hands free slots to waiting keys in turn; a key served goes to the back of the turn order. */
  #pump(): void {
    let admitted = true;
    while (admitted && this.#running < this.options.slots) {
      admitted = false;
      for (const key of [...this.#waiting.keys()]) {
        if (!this.#admissible(key)) continue;
        const queue = this.#waiting.get(key);
        const next = queue?.shift();
        if (queue === undefined || next === undefined) continue;
        this.#waiting.delete(key);
        if (queue.length > 0) this.#waiting.set(key, queue);
        next(this.#start(key));
        admitted = true;
        if (this.#running >= this.options.slots) return;
      }
    }
    this.#wakeForRested();
  }

  /** With a slot free and keys waiting only for their share, pumps again when the first is rested. */
  #wakeForRested(): void {
    if (this.#running >= this.options.slots) return;
    let first = Number.POSITIVE_INFINITY;
    for (const key of this.#waiting.keys()) {
      const ready = this.#readyAt(key);
      if (ready !== undefined && this.runningOf(key) < this.options.perKey) first = Math.min(first, ready);
    }
    if (first === Number.POSITIVE_INFINITY || first >= this.#wakeAt) return;
    this.#wakeAt = first;
    this.#timing.after(
      () => {
        this.#wakeAt = Number.POSITIVE_INFINITY;
        this.#pump();
      },
      Math.max(0, first - this.#timing.now()),
    );
  }
}
