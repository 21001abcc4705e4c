import type { Caller } from '../env.js';

/** How long a resolved session is believed without asking storage again. */
export const SESSION_CACHE_TTL_MS = 1000;
/** Most sessions kept; the least recently used goes first. */
export const SESSION_CACHE_MAX = 10_000;

/** A session token resolved to its caller (user and effective tier). */
export type SessionCaller = Exclude<Caller, { kind: 'anonymous' }>;

interface Entry {
  caller: SessionCaller;
  /** Not believed at or after this time (TTL, session expiry or the lifting grant's expiry). */
  until: number;
}

/** Every live cache of this process, so logout and tier changes reach all of them at once. */
const caches = new Set<WeakRef<SessionCache>>();

function eachCache(fn: (cache: SessionCache) => void): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) fn(cache);
    else caches.delete(ref);
  }
}

/**
 * Session token -> user and tier, for a short TTL, least recently used evicted first. Storage
 * stays the truth: entries live at most `ttlMs`, never past the session's or the grant's expiry,
 * and {@link forgetSession} / {@link forgetUser} (called by logout, tier changes and grants in
 * this process) drop them at once. Failures are never cached.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  /** Bumped by every invalidation; a resolution started before one is not stored. */
  #epoch = 0;

  constructor(
    readonly ttlMs: number = SESSION_CACHE_TTL_MS,
    readonly max: number = SESSION_CACHE_MAX,
  ) {
    caches.add(new WeakRef(this));
  }

  get epoch(): number {
    return this.#epoch;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(token: string, now: number): SessionCaller | undefined {
    const e = this.#entries.get(token);
    if (e === undefined) return undefined;
    this.#entries.delete(token);
    if (now >= e.until) return undefined;
    this.#entries.set(token, e); // most recently used last
    return e.caller;
  }

  /** Stores a resolution begun at `epoch` (see {@link epoch}) unless something was invalidated since. */
  set(token: string, caller: SessionCaller, sessionExpiresAt: number, now: number, epoch: number): void {
    if (epoch !== this.#epoch || this.ttlMs <= 0) return;
    let until = Math.min(now + this.ttlMs, sessionExpiresAt);
    if (caller.tier_expires_at !== null) until = Math.min(until, caller.tier_expires_at);
    this.#entries.delete(token);
    if (this.#entries.size >= this.max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(token, { caller, until });
  }

  deleteToken(token: string): void {
    this.#epoch++;
    this.#entries.delete(token);
  }

  deleteUser(userId: string): void {
    this.#epoch++;
    for (const [token, e] of this.#entries) if (e.caller.user.id === userId) this.#entries.delete(token);
  }

  clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }
}

/** The session ended (logout): no cache of this process serves the token again. */
export function forgetSession(token: string): void {
  eachCache((c) => c.deleteToken(token));
}

/** The user's tier or grants changed: every cached session of the user is dropped. */
export function forgetUser(userId: string): void {
  eachCache((c) => c.deleteUser(userId));
}
