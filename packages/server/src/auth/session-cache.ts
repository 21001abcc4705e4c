import type { Caller } from '../platform/deps.js';
import type { InvalidationBus } from '../platform/redis/invalidation.js';
import { secretHash } from './secrets.js';

/** How long a resolved session is believed without asking storage again. */
export const SESSION_CACHE_TTL_MS = 1000;
/** Most sessions kept; the least recently used goes first. */
export const SESSION_CACHE_MAX = 10_000;

/** A session token resolved to its caller (user and effective tier). */
export type SessionCaller = Exclude<Caller, { kind: 'anonymous' }>;

/** A session read from storage: its caller and when the session itself expires. */
export interface LoadedSession {
  caller: SessionCaller;
  sessionExpiresAt: number;
}

/**
 * Reads a session from storage at `now`; rejects when the token is not a live session. `ctx` is
 * passed through, so callers need not make a closure per request.
 */
export type SessionLoader<C> = (token: string, now: number, ctx: C) => Promise<LoadedSession>;

interface Entry {
  caller: SessionCaller;
  /** Not believed at or after this time (TTL, session expiry or the lifting grant's expiry). */
  until: number;
  /** From this time on, a hit also reloads the session in the background (refresh ahead). */
  refreshAt: number;
}

const ignore = () => {};

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
 * Session token -> user and tier, for a short TTL, least recently used evicted first ({@link get});
 * through {@link resolve}, least recently loaded first, which for a session in use is within half
 * a TTL of its last use. Storage
 * stays the truth: entries live at most `ttlMs`, never past the session's or the grant's expiry,
 * and {@link forgetSession} / {@link forgetUser} (called by logout, tier changes and grants in
 * this process) drop them at once. Failures are never cached.
 *
 * {@link resolve} keeps a busy session from ever waiting on storage: one load per token at a
 * time (concurrent misses share it), and a hit in the second half of an entry's life reloads it
 * in the background, so the entry is renewed before it expires. An expired entry is never served.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  /** Loads under way, by token (dropped by every invalidation, so none outlives one). */
  readonly #loading = new Map<string, Promise<SessionCaller>>();
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

  /**
   * The caller of `token` at `now`: synchronously when cached, else the promise of a load (one per
   * token at a time; it rejects as `load` does). A hit past its entry's refresh time starts a
   * background load that renews the entry, or drops it if the load fails (storage decides again on
   * the next request).
   */
  resolve<C>(token: string, now: number, load: SessionLoader<C>, ctx: C): SessionCaller | Promise<SessionCaller> {
    const e = this.#entries.get(token);
    if (e !== undefined) {
      // No move to the recent end on a hit (two more hash-table operations per request): a session
      // in use is reloaded, and so re-inserted at that end, every half TTL (refresh ahead).
      if (now < e.until) {
        if (now >= e.refreshAt && !this.#loading.has(token)) this.#load(token, now, load, ctx).catch(ignore);
        return e.caller;
      }
      this.#entries.delete(token);
    }
    return this.#loading.get(token) ?? this.#load(token, now, load, ctx);
  }

  #load<C>(token: string, now: number, load: SessionLoader<C>, ctx: C): Promise<SessionCaller> {
    const epoch = this.#epoch;
    const done = () => {
      if (this.#loading.get(token) === loading) this.#loading.delete(token);
    };
    const loading: Promise<SessionCaller> = load(token, now, ctx).then(
      ({ caller, sessionExpiresAt }) => {
        done();
        // An unreadable subscription (tier null) is not remembered, so it heals on the next request.
        if (caller.tier !== null) this.set(token, caller, sessionExpiresAt, now, epoch);
        return caller;
      },
      (err: unknown) => {
        done();
        if (epoch === this.#epoch) this.#entries.delete(token);
        throw err;
      },
    );
    this.#loading.set(token, loading);
    return loading;
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
    this.#entries.set(token, { caller, until, refreshAt: now + this.ttlMs / 2 });
  }

  deleteToken(token: string): void {
    this.#epoch++;
    this.#entries.delete(token);
    this.#loading.delete(token);
  }

  /** Drops the token whose {@link secretHash} is `hash` (an invalidation from another instance). */
  deleteTokenHash(hash: string): void {
    this.#epoch++;
    for (const token of this.#entries.keys()) if (secretHash(token) === hash) this.#entries.delete(token);
    for (const token of this.#loading.keys()) if (secretHash(token) === hash) this.#loading.delete(token);
  }

  deleteUser(userId: string): void {
    this.#epoch++;
    for (const [token, e] of this.#entries) if (e.caller.user.id === userId) this.#entries.delete(token);
    // A load under way does not say whose token it is: let every later request start afresh.
    this.#loading.clear();
  }

  clear(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#loading.clear();
  }
}

/** Where this process tells the other instances, when they share Redis ({@link shareInvalidations}). */
let bus: InvalidationBus | null = null;

/**
 * The session ended (logout): no cache of this process serves the token again, nor, with shared
 * state, any other instance's (told by the token's hash, never the token).
 */
export function forgetSession(token: string): void {
  eachCache((c) => c.deleteToken(token));
  bus?.publish('session', secretHash(token)).catch(ignore);
}

/** The user's tier or grants changed: every cached session of the user is dropped, on every instance. */
export function forgetUser(userId: string): void {
  eachCache((c) => c.deleteUser(userId));
  bus?.publish('user-tier', userId).catch(ignore);
}

/**
 * Shares invalidations with every instance on `shared`: this process's logouts and tier changes
 * are published, and the others' applied here; after a gap in the subscription (Redis was away)
 * every cache is cleared, since what was missed is unknown. If a publish fails (Redis away), the
 * other instances still stop believing the entry within its TTL ({@link SESSION_CACHE_TTL_MS}).
 * Resolves to the function that stops sharing.
 */
export async function shareInvalidations(shared: InvalidationBus): Promise<() => void> {
  const stop = await shared.subscribe(
    ({ kind, id }) => {
      if (kind === 'session') eachCache((c) => c.deleteTokenHash(id));
      else eachCache((c) => c.deleteUser(id));
    },
    () => eachCache((c) => c.clear()),
  );
  bus = shared;
  return () => {
    stop();
    if (bus === shared) bus = null;
  };
}
