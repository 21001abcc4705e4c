/**
 * One counting rule behind both engines of the daily API-key allowance: the same table of cases
 * runs against the rule itself (`countCall`), the SQL engine (`sqlApiUsage`, on SQLite and, when
 * configured, PostgreSQL) and the Lua engine (`RedisAllowance` through the shared state, when a
 * Redis is configured), and every one answers each call as the table says.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { engines, engineTitle } from '../../test/support/storage/engines.js';
import { openSharedState, type SharedState } from '../platform/redis/shared-state.js';
import type { ApiUsageRepository } from '../storage/types.js';
import { countCall } from './tiers.js';

/** One call: whose, which UTC day, under which limit, and the count it answers (null: refused). */
type Call = [user: string, day: string, limit: number, answer: number | null];

/** Each case: the calls in order, then what `used` reads for each user and day named. */
const CASES: { name: string; calls: Call[]; used: [user: string, day: string, count: number][] }[] = [
  {
    name: 'counts up to the limit, then refuses without counting',
    calls: [
      ['a', '2026-11-29', 3, 1],
      ['a', '2026-11-29', 3, 2],
      ['a', '2026-11-29', 3, 3],
      ['a', '2026-11-29', 3, null],
      ['a', '2026-11-29', 3, null],
    ],
    used: [['a', '2026-11-29', 3]],
  },
  {
    name: 'a limit of 0 refuses the first call',
    calls: [['a', '2026-11-29', 0, null]],
    used: [['a', '2026-11-29', 0]],
  },
  {
    name: 'users are counted apart',
    calls: [
      ['a', '2026-11-29', 1, 1],
      ['b', '2026-11-29', 1, 1],
      ['a', '2026-11-29', 1, null],
      ['b', '2026-11-29', 1, null],
    ],
    used: [
      ['a', '2026-11-29', 1],
      ['b', '2026-11-29', 1],
    ],
  },
  {
    name: 'a new UTC day starts from zero; the old day keeps its count',
    calls: [
      ['a', '2026-11-29', 2, 1],
      ['a', '2026-11-29', 2, 2],
      ['a', '2026-11-29', 2, null],
      ['a', '2026-11-30', 2, 1],
    ],
    used: [
      ['a', '2026-11-29', 2],
      ['a', '2026-11-30', 1],
      ['a', '2026-12-01', 0],
    ],
  },
  {
    name: 'a limit raised during the day (an upgrade) admits the difference',
    calls: [
      ['a', '2026-11-29', 2, 1],
      ['a', '2026-11-29', 2, 2],
      ['a', '2026-11-29', 2, null],
      ['a', '2026-11-29', 4, 3],
      ['a', '2026-11-29', 4, 4],
      ['a', '2026-11-29', 4, null],
    ],
    used: [['a', '2026-11-29', 4]],
  },
  {
    name: 'a limit lowered below the count (a grant ended) refuses and keeps the count',
    calls: [
      ['a', '2026-11-29', 5, 1],
      ['a', '2026-11-29', 5, 2],
      ['a', '2026-11-29', 5, 3],
      ['a', '2026-11-29', 2, null],
      ['a', '2026-11-29', 3, null],
      ['a', '2026-11-29', 4, 4],
    ],
    used: [['a', '2026-11-29', 4]],
  },
];

/** The rule as a counter: what either engine must agree with. */
function reference(): ApiUsageRepository {
  const counts = new Map<string, number>();
  return {
    consume: async (user, day, limit) => {
      const next = countCall(counts.get(`${user} ${day}`) ?? 0, limit);
      if (next !== null) counts.set(`${user} ${day}`, next);
      return next;
    },
    used: async (user, day) => counts.get(`${user} ${day}`) ?? 0,
  };
}

/** Runs every case on a fresh counter of `open`. */
function runsTheTable(open: () => Promise<ApiUsageRepository>): void {
  for (const c of CASES) {
    it(c.name, async () => {
      const usage = await open();
      const answers: (number | null)[] = [];
      for (const [user, day, limit] of c.calls) answers.push(await usage.consume(user, day, limit));
      expect(answers).toEqual(c.calls.map((call) => call[3]));
      for (const [user, day, count] of c.used) expect(await usage.used(user, day)).toBe(count);
    });
  }
}

describe('the allowance rule (countCall)', () => {
  runsTheTable(async () => reference());
});

for (const engine of engines()) {
  describe.skipIf(engine.skip)(`the SQL engine [${engineTitle(engine)}]`, () => {
    runsTheTable(async () => {
      const storage = await engine.open();
      // The counts belong to users (a foreign key): the table's two.
      for (const id of ['a', 'b']) {
        await storage.users.create({ id, email: `${id}@x.io`, password_hash: 'h', tier: 'free', created_at: 1 }, []);
      }
      return storage.apiUsage;
    });
  });
}

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

describe.skipIf(noRedis)('the Lua engine [Redis] (skips without MARKETLENS_TEST_REDIS_URL)', () => {
  let shared: SharedState | undefined;
  let run = 0;
  const tag = `:${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    shared = await openSharedState(REDIS_URL);
  });
  afterAll(async () => {
    await shared?.close();
  });
  // Each case counts users of its own (the tag and the case number), on the one shared Redis.
  runsTheTable(async () => {
    const usage = (shared as SharedState).usage;
    const mine = `${tag}:${++run}`;
    return {
      consume: (user, day, limit) => usage.consume(`${user}${mine}`, day, limit),
      used: (user, day) => usage.used(`${user}${mine}`, day),
    };
  });
});
