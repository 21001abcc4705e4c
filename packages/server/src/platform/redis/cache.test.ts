import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { SharedCache } from './cache.js';
import { connectRedis, whenReady } from './client.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(noRedis)('SharedCache (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)', () => {
  // Three connections stand for three server instances sharing one Redis.
  let instances: Redis[] = [];
  const prefix = `test:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    instances = await Promise.all([0, 1, 2].map((i) => connectRedis(REDIS_URL, { connectionName: `cache-test-${i}` })));
    await Promise.all(instances.map((r) => whenReady(r)));
  });

  afterAll(() => {
    for (const r of instances) r.disconnect();
  });

  it('computes a missing value once across three instances, and serves it to all', async () => {
    const caches = instances.map((r) => new SharedCache(r, { prefix }));
    let computed = 0;
    const compute = async () => {
      computed++;
      await pause(100);
      return JSON.stringify({ rsi: 42.5 });
    };
    const values = await Promise.all(
      Array.from({ length: 30 }, (_, i) => caches[i % 3].getOrCompute('analysis:btc', 10_000, compute)),
    );
    expect(computed).toBe(1);
    expect(new Set(values)).toEqual(new Set(['{"rsi":42.5}']));
    // Later callers hit the stored value.
    expect(await caches[2].getOrCompute('analysis:btc', 10_000, compute)).toBe('{"rsi":42.5}');
    expect(computed).toBe(1);
    const ttl = await instances[0].pttl(`${prefix}{analysis:btc}`);
    expect(ttl).toBeGreaterThan(9000);
    expect(await instances[0].exists(`${prefix}{analysis:btc}:lock`)).toBe(0);
  });

  it('keeps bytes as they are', async () => {
    const cache = new SharedCache(instances[0], { prefix });
    const bytes = Buffer.from([0, 255, 128, 10, 13, 0xc3]);
    expect(await cache.getOrComputeBuffer('bytes', 10_000, async () => bytes)).toEqual(bytes);
    const other = new SharedCache(instances[1], { prefix });
    expect(await other.getOrComputeBuffer('bytes', 10_000, async () => Buffer.alloc(0))).toEqual(bytes);
  });

  it('does not cache a failed computation: a waiting instance computes instead', async () => {
    const [a, b] = instances.map((r) => new SharedCache(r, { prefix }));
    let calls = 0;
    const failing = async (): Promise<string> => {
      calls++;
      await pause(50);
      throw new Error('venue down');
    };
    const working = async () => {
      calls++;
      return 'fresh';
    };
    const first = a.getOrCompute('flaky', 10_000, failing);
    await pause(10);
    const second = b.getOrCompute('flaky', 10_000, working);
    await expect(first).rejects.toThrow('venue down');
    expect(await second).toBe('fresh');
    expect(calls).toBe(2);
  });

  it('computes by itself after waiting waitMs for a computation that never ends', async () => {
    // An instance that took the lock and died: its lock outlives the wait.
    await instances[0].set(`${prefix}{orphan}:lock`, 'dead-instance', 'PX', 10_000);
    const cache = new SharedCache(instances[1], { prefix, waitMs: 200 });
    const start = performance.now();
    expect(await cache.getOrCompute('orphan', 10_000, async () => 'mine')).toBe('mine');
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
    // The dead instance's lock is not ours to release; the value is stored for everyone.
    expect(await instances[0].get(`${prefix}{orphan}:lock`)).toBe('dead-instance');
    expect(await instances[2].get(`${prefix}{orphan}`)).toBe('mine');
  });
});
