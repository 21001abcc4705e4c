import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { luaScript, runScript } from './client.js';

/**
 * The value, or else the computation lock when nobody holds it: one round trip for both.
 * KEYS: value, lock. ARGV: token, lock ms. Reply: {1, value} hit, {2} lock taken, {0} wait.
 */
const GET_OR_LOCK = luaScript(`
local v = redis.call('GET', KEYS[1])
if v then return {1, v} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2} end
return {0}
`);

/**
 * Stores the value and releases the lock if this computation still holds it (it may have
 * expired and been taken by another).
 * KEYS: value, lock. ARGV: value, ttl ms, token.
 */
const STORE = luaScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return 1
`);

/** Releases the lock if this computation still holds it. KEYS: lock. ARGV: token. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

/** Where a {@link SharedCache} keeps its entries, and how long computations may take. */
export interface SharedCacheOptions {
  /** Prepended to every key (default `marketlens:cache:`). */
  prefix?: string;
  /** How long one computation holds a key's lock at most, should its instance die (default 5000 ms). */
  lockMs?: number;
  /** How long a caller waits for another instance's computation before computing itself (default `lockMs`). */
  waitMs?: number;
  /** First pause between two looks for the value while waiting; it grows to 50 ms (default 5 ms). */
  pollMs?: number;
}

/**
 * A cache shared by every instance, computing each missing value once across all of them
 * (single flight): on a miss, the caller that takes the key's short lock computes and stores the
 * value for `ttlMs`; the others look for the value until it appears, or until the lock is
 * released without a value (the computation failed), when the next of them takes the lock and
 * computes. A caller that waited `waitMs` in vain computes by itself. Concurrent misses of one
 * key in one instance share one computation and one wait.
 *
 * Values are strings or Buffers: callers serialize. Redis failures reject with
 * `SharedStateUnavailable`; a failing computation rejects its callers with its error and is not
 * cached.
 */
export class SharedCache {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #lockMs: number;
  readonly #waitMs: number;
  readonly #pollMs: number;
  readonly #flights = new Map<string, Promise<string | Buffer>>();

  constructor(redis: Redis, options: SharedCacheOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'marketlens:cache:';
    this.#lockMs = Math.max(1, Math.ceil(options.lockMs ?? 5000));
    this.#waitMs = options.waitMs ?? this.#lockMs;
    this.#pollMs = Math.max(1, options.pollMs ?? 5);
  }

  /** The UTF-8 string cached under `key`, or `compute`'s, stored for `ttlMs` (see the class). */
  async getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string> {
    const value = await this.#flight(`s:${key}`, key, ttlMs, compute);
    return typeof value === 'string' ? value : value.toString('utf8');
  }

  /** The bytes cached under `key`, or `compute`'s, stored for `ttlMs` (see the class). */
  async getOrComputeBuffer(key: string, ttlMs: number, compute: () => Promise<Buffer>): Promise<Buffer> {
    const value = await this.#flight(`b:${key}`, key, ttlMs, compute);
    return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  }

  #flight(
    flightKey: string,
    key: string,
    ttlMs: number,
    compute: () => Promise<string | Buffer>,
  ): Promise<string | Buffer> {
    let flight = this.#flights.get(flightKey);
    if (flight === undefined) {
      flight = this.#load(key, ttlMs, compute).finally(() => this.#flights.delete(flightKey));
      this.#flights.set(flightKey, flight);
    }
    return flight;
  }

  async #load(key: string, ttlMs: number, compute: () => Promise<string | Buffer>): Promise<string | Buffer> {
    const valueKey = `${this.#prefix}{${key}}`;
    const lockKey = `${valueKey}:lock`;
    const ttl = String(Math.max(1, Math.ceil(ttlMs)));
    const token = randomBytes(9).toString('base64url');
    const deadline = performance.now() + this.#waitMs;
    let pause = this.#pollMs;
    for (;;) {
      const reply = (await runScript(this.#redis, GET_OR_LOCK, [valueKey, lockKey], [token, this.#lockMs], true)) as [
        number,
        Buffer?,
      ];
      if (reply[0] === 1 && reply[1] !== undefined) return reply[1];
      if (reply[0] === 2) break;
      const left = deadline - performance.now();
      if (left <= 0) break;
      await sleep(Math.min(pause, left));
      pause = Math.min(50, pause * 2);
    }
    // The lock is ours, or the wait ran out: compute, and store for the others either way (the
    // store releases the lock only if it is ours).
    let value: string | Buffer;
    try {
      value = await compute();
    } catch (err) {
      await runScript(this.#redis, RELEASE, [lockKey], [token]).catch(() => {});
      throw err;
    }
    await runScript(this.#redis, STORE, [valueKey, lockKey], [value, ttl, token]);
    return value;
  }
}
