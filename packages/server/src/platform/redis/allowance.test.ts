import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { RedisAllowance } from './allowance.js';
import { connectRedis, whenReady } from './client.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

describe.skipIf(noRedis)('RedisAllowance (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)', () => {
  // Three connections stand for three server instances sharing one Redis.
  let instances: Redis[] = [];
  const prefix = `test:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    instances = await Promise.all(
      [0, 1, 2].map((i) => connectRedis(REDIS_URL, { connectionName: `allowance-test-${i}` })),
    );
    await Promise.all(instances.map((r) => whenReady(r)));
  });

  afterAll(() => {
    for (const r of instances) r.disconnect();
  });

  it('allows exactly the limit of 500 concurrent calls spread over three instances', async () => {
    const allowances = instances.map((r) => new RedisAllowance(r, { prefix }));
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) => allowances[i % 3].consume('user-1', '2026-11-26', 300)),
    );
    const allowed = results.filter((r) => r.allowed);
    expect(allowed.length).toBe(300);
    // Each allowed call was counted once, in some order: the counts are 1..300.
    expect(allowed.map((r) => r.used).sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    // Refused calls are not counted.
    for (const r of results.filter((x) => !x.allowed)) expect(r.used).toBe(300);
    expect(await allowances[1].used('user-1', '2026-11-26')).toBe(300);
  });

  it('counts each user and day apart, and forgets a day after two days', async () => {
    const allowance = new RedisAllowance(instances[0], { prefix });
    expect(await allowance.consume('user-2', '2026-11-26', 2)).toEqual({ allowed: true, used: 1 });
    expect(await allowance.consume('user-2', '2026-11-26', 2)).toEqual({ allowed: true, used: 2 });
    expect(await allowance.consume('user-2', '2026-11-26', 2)).toEqual({ allowed: false, used: 2 });
    expect(await allowance.consume('user-2', '2026-11-27', 2)).toEqual({ allowed: true, used: 1 });
    expect(await allowance.consume('user-3', '2026-11-26', 2)).toEqual({ allowed: true, used: 1 });
    expect(await allowance.used('user-4', '2026-11-26')).toBe(0);
    const ttl = await instances[0].ttl(`${prefix}2026-11-26:user-2`);
    expect(ttl).toBeGreaterThan(2 * 24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(2 * 24 * 3600);
  });

  it('refuses every call under a limit of 0', async () => {
    const allowance = new RedisAllowance(instances[2], { prefix });
    expect(await allowance.consume('user-5', '2026-11-26', 0)).toEqual({ allowed: false, used: 0 });
    expect(await allowance.used('user-5', '2026-11-26')).toBe(0);
  });
});
