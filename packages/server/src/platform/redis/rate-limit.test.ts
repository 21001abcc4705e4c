import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { WeightedBudget } from '../rate-limit/rate-limit.js';
import { connectRedis, whenReady } from './client.js';
import { RedisWeightedBudget } from './rate-limit.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

describe.skipIf(noRedis)(
  'RedisWeightedBudget (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)',
  () => {
    // Three connections stand for three server instances sharing one Redis.
    let instances: Redis[] = [];
    const run = `test:${randomBytes(6).toString('hex')}`;
    let prefixes = 0;
    const freshPrefix = () => `${run}:${++prefixes}:`;

    beforeAll(async () => {
      instances = await Promise.all(
        [0, 1, 2].map((i) => connectRedis(REDIS_URL, { connectionName: `rate-limit-test-${i}` })),
      );
      await Promise.all(instances.map((r) => whenReady(r)));
    });

    afterAll(() => {
      for (const r of instances) r.disconnect();
    });

    it('admits exactly floor(limit / weight) of 600 concurrent requests spread over three instances', async () => {
      const prefix = freshPrefix();
      const budgets = instances.map((r) => new RedisWeightedBudget(r, 2000, 60_000, { prefix }));
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 600 }, (_, i) => budgets[i % 3].spend('1.2.3.4', 7, now)));
      const admitted = results.filter((r) => r.allowed);
      expect(admitted.length).toBe(Math.floor(2000 / 7));
      // Every admission saw a distinct total: they were serialized, none lost.
      expect(new Set(admitted.map((r) => r.used)).size).toBe(admitted.length);
      expect(Math.max(...admitted.map((r) => r.used))).toBe(285 * 7);
      for (const r of results.filter((x) => !x.allowed)) {
        expect(r.used).toBe(285 * 7);
        expect(r.retryAt).toBe(now + 60_000);
      }
      // Another key has its own budget.
      expect((await budgets[0].spend('5.6.7.8', 7, now)).allowed).toBe(true);
    });

    it('lets a request in once enough units leave the window, and spends nothing on a refusal', async () => {
      const prefix = freshPrefix();
      const [a, b] = instances.map((r) => new RedisWeightedBudget(r, 10, 1000, { prefix }));
      const t = 1_000_000;
      expect(await a.spend('k', 6, t)).toEqual({ allowed: true, used: 6, retryAt: t });
      expect(await b.spend('k', 6, t + 500)).toEqual({ allowed: false, used: 6, retryAt: t + 1000 });
      expect(await a.spend('k', 4, t + 600)).toEqual({ allowed: true, used: 10, retryAt: t + 600 });
      // At t + 1000 the first request leaves the window (it holds (now - window, now]).
      expect(await b.spend('k', 6, t + 1000)).toEqual({ allowed: true, used: 10, retryAt: t + 1000 });
      expect(await a.spend('k', 1, t + 1000)).toEqual({ allowed: false, used: 10, retryAt: t + 1600 });
    });

    it('admits exactly what the in-memory WeightedBudget admits, for any sequence (fast-check)', async () => {
      const limit = 60;
      const windowMs = 10_000;
      let mixed = 0;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              // Coarse steps, so requests often sit exactly on the window's edge.
              gap: fc.integer({ min: 0, max: 8 }).map((g) => g * 250),
              // Now and then a request heavier than the whole budget, which never fits.
              weight: fc.oneof(
                { arbitrary: fc.integer({ min: 1, max: 25 }), weight: 19 },
                { arbitrary: fc.integer({ min: 61, max: 70 }), weight: 1 },
              ),
              key: fc.constantFrom('a', 'b'),
              instance: fc.integer({ min: 0, max: 2 }),
            }),
            { minLength: 20, maxLength: 60 },
          ),
          async (steps) => {
            runs++;
            const prefix = freshPrefix();
            const shared = instances.map((r) => new RedisWeightedBudget(r, limit, windowMs, { prefix }));
            const local = new WeightedBudget(limit, windowMs);
            let now = 1_700_000_000_000;
            let admitted = 0;
            let refused = 0;
            for (const s of steps) {
              now += s.gap;
              const expected = local.spend(s.key, s.weight, now);
              const got = await shared[s.instance].spend(s.key, s.weight, now);
              expect(got).toEqual(expected);
              if (got.allowed) admitted++;
              else refused++;
            }
            if (admitted > 0 && refused > 0) mixed++;
          },
        ),
        { numRuns: 100 },
      );
      // The draws must exercise refusals, not only admissions.
      expect(mixed / runs).toBeGreaterThan(0.7);
    });

    it('reloads its script when Redis lost it (NOSCRIPT falls back to EVAL)', async () => {
      const prefix = freshPrefix();
      const budget = new RedisWeightedBudget(instances[0], 5, 1000, { prefix });
      expect((await budget.spend('k', 2, 1)).used).toBe(2);
      await instances[1].script('FLUSH');
      expect((await budget.spend('k', 2, 2)).used).toBe(4);
      expect((await budget.spend('k', 2, 3)).allowed).toBe(false);
    });

    it('keeps a key no longer than a window after its last admission', async () => {
      const prefix = freshPrefix();
      const budget = new RedisWeightedBudget(instances[0], 5, 60_000, { prefix });
      await budget.spend('k', 1, Date.now());
      const ttl = await instances[0].pttl(`${prefix}k`);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      // One key: the entry and the sum.
      expect(await instances[0].zcard(`${prefix}k`)).toBe(2);
    });
  },
);
