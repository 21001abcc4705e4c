/**
 * A small least-recently-used map with an optional age limit: reading an entry makes it the
 * newest; adding past `capacity` drops the oldest. Times are the caller's clock (epoch ms), so
 * tests drive expiry with their fixed clock.
 */
export class Lru<V> {
  readonly #entries = new Map<string, { value: V; at: number }>();

  constructor(
    readonly capacity: number,
    /** Entries older than this (ms) are misses; Infinity keeps them until evicted. */
    readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be >= 1, got ${capacity}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entry and when it was stored, or undefined when absent or too old at `now`. */
  entry(key: string, now: number): { value: V; at: number } | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    this.#entries.delete(key);
    if (now - e.at >= this.maxAgeMs || now < e.at) return undefined;
    this.#entries.set(key, e);
    return e;
  }

  get(key: string, now: number): V | undefined {
    return this.entry(key, now)?.value;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  set(key: string, value: V, now: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: now });
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
}
