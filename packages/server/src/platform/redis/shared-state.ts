/**
 * What every instance of one deployment shares through Redis (`redis.url`): the weighted rate
 * limit, the daily API-key allowances, the invalidation of cached sessions, and a cache with
 * single-flight across instances. Without Redis each of these lives in the process, as on the
 * embedded default.
 */
import type { Redis } from 'ioredis';
import type { ApiUsageRepository } from '../../storage/types.js';
import { RedisAllowance } from './allowance.js';
import { SharedCache } from './cache.js';
import { connectRedis, type RedisConnectOptions, whenReady } from './client.js';
import { InvalidationBus } from './invalidation.js';
import { RedisWeightedBudget } from './rate-limit.js';

/** The shared state of one deployment, over one Redis connection (and one for subscriptions). */
export interface SharedState {
  readonly redis: Redis;
  /** Daily API-key calls, counted for every instance at once. */
  readonly usage: ApiUsageRepository;
  /** Logout, tier changes and grants, told to every instance's session cache. */
  readonly invalidation: InvalidationBus;
  /** Values computed once for all instances. */
  readonly cache: SharedCache;
  /** The weighted request budget of `limit` units per `windowMs` (one per setting, reused). */
  budget(limit: number, windowMs: number): RedisWeightedBudget;
  /** Ends the subscriptions and the connections. */
  close(): Promise<void>;
}

/**
 * Connects to Redis at `url` and waits until it answers (a start with an unreachable Redis fails
 * here, naming it). Once running, a Redis that goes away makes the requests that need it answer
 * 503 until it is back; the connection recovers on its own.
 */
export async function openSharedState(url: string, options: RedisConnectOptions = {}): Promise<SharedState> {
  const redis = await connectRedis(url, { connectionName: 'marketlens', ...options });
  try {
    await whenReady(redis);
  } catch (err) {
    redis.disconnect();
    throw err;
  }
  const allowance = new RedisAllowance(redis);
  const invalidation = new InvalidationBus(redis);
  const cache = new SharedCache(redis);
  const budgets = new Map<string, RedisWeightedBudget>();
  return {
    redis,
    usage: {
      async consume(userId, day, limit) {
        const r = await allowance.consume(userId, day, limit);
        return r.allowed ? r.used : null;
      },
      used: (userId, day) => allowance.used(userId, day),
    },
    invalidation,
    cache,
    budget(limit, windowMs) {
      const key = `${limit}/${windowMs}`;
      let b = budgets.get(key);
      if (b === undefined) {
        b = new RedisWeightedBudget(redis, limit, windowMs);
        budgets.set(key, b);
      }
      return b;
    },
    async close() {
      await invalidation.close();
      redis.disconnect();
    },
  };
}
