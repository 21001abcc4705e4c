import type { Redis } from 'ioredis';
import { guarded, luaScript, runScript } from './client.js';

/**
 * Counts one call unless the count has reached the limit; a refused call is not counted, so the
 * count never passes the limit and reads as "used" as it is. The key expires two days after the
 * day's first call: the day is over by then in every time zone, and `used` can still read it.
 *
 * KEYS: counter. ARGV: limit, ttl seconds. Reply: { allowed (1 or 0), count after it }.
 */
const CONSUME = luaScript(`
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return {1, used}
`);

const TTL_SECONDS = 2 * 24 * 3600;

/** The outcome of one {@link RedisAllowance.consume}. */
export interface AllowanceUse {
  /** False when the allowance was used up: the call was not counted. */
  allowed: boolean;
  /** Calls counted for the day, this one included when allowed. */
  used: number;
}

/** Where a {@link RedisAllowance} keeps its counters. */
export interface RedisAllowanceOptions {
  /** Prepended to every key (default `marketlens:allowance:`). */
  prefix?: string;
}

/**
 * Daily allowance counters shared by every instance (the API-key calls a user makes in a UTC
 * day): each call is counted by one atomic script in one round trip, so concurrent calls on any
 * number of instances admit exactly `limit` a day, never more. Redis failures reject with
 * `SharedStateUnavailable`.
 */
export class RedisAllowance {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: RedisAllowanceOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'marketlens:allowance:';
  }

  /** Counts one call of `userId` on `day` (`YYYY-MM-DD`, UTC) unless `limit` calls were counted already. */
  async consume(userId: string, day: string, limit: number): Promise<AllowanceUse> {
    const reply = await runScript(this.#redis, CONSUME, [this.#key(userId, day)], [limit, TTL_SECONDS]);
    const [allowed, used] = reply as [number, number];
    return { allowed: allowed === 1, used };
  }

  /** Calls of `userId` counted on `day`. */
  async used(userId: string, day: string): Promise<number> {
    return Number((await guarded(this.#redis, this.#redis.get(this.#key(userId, day)))) ?? 0);
  }

  #key(userId: string, day: string): string {
    return `${this.#prefix}${day}:${userId}`;
  }
}
