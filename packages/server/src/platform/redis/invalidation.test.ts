import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { connectRedis, whenReady } from './client.js';
import { type Invalidation, InvalidationBus } from './invalidation.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

/** Resolves with what `handler` received once `count` messages arrived; rejects after `ms`. */
function collect(
  count: number,
  ms: number,
): { received: Invalidation[]; done: Promise<number>; handler: (m: Invalidation) => void } {
  const received: Invalidation[] = [];
  const start = performance.now();
  let finish: (elapsed: number) => void = () => {};
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    setTimeout(() => reject(new Error(`${received.length} of ${count} invalidations within ${ms} ms`)), ms).unref();
  });
  return {
    received,
    done,
    handler: (m) => {
      received.push(m);
      if (received.length === count) finish(performance.now() - start);
    },
  };
}

describe.skipIf(noRedis)('InvalidationBus (skips without MARKETLENS_TEST_REDIS_URL: source .ci/services.sh)', () => {
  let instances: Redis[] = [];
  let buses: InvalidationBus[] = [];
  const channel = `test:${randomBytes(6).toString('hex')}:invalidate`;

  beforeAll(async () => {
    instances = await Promise.all(
      [0, 1, 2].map((i) => connectRedis(REDIS_URL, { connectionName: `invalidation-test-${i}` })),
    );
    await Promise.all(instances.map((r) => whenReady(r)));
    buses = instances.map((r) => new InvalidationBus(r, { channel }));
  });

  afterAll(async () => {
    for (const b of buses) await b.close();
    for (const r of instances) r.disconnect();
  });

  it('delivers an invalidation to every other instance within a second', async () => {
    const b = collect(3, 1000);
    const c = collect(3, 1000);
    const stopB = await buses[1].subscribe(b.handler);
    const stopC = await buses[2].subscribe(c.handler);
    await buses[0].publish('session', 'token-1');
    await buses[0].publish('api-key', 'key-1');
    await buses[0].publish('user-tier', 'user-1');
    const [tb, tc] = await Promise.all([b.done, c.done]);
    expect(Math.max(tb, tc)).toBeLessThan(1000);
    const expected = [
      { kind: 'session', id: 'token-1' },
      { kind: 'api-key', id: 'key-1' },
      { kind: 'user-tier', id: 'user-1' },
    ];
    expect(b.received).toEqual(expected);
    expect(c.received).toEqual(expected);
    stopB();
    stopC();
  });

  it('ignores foreign messages on the channel and stops delivering once unsubscribed', async () => {
    const got = collect(1, 1000);
    const stop = await buses[1].subscribe(got.handler);
    await instances[0].publish(channel, 'not json');
    await instances[0].publish(channel, JSON.stringify({ kind: 'planet', id: 'x' }));
    await instances[0].publish(channel, JSON.stringify({ kind: 'session', id: 7 }));
    await buses[2].publish('session', 'token-2');
    await got.done;
    expect(got.received).toEqual([{ kind: 'session', id: 'token-2' }]);
    stop();
    await buses[0].publish('session', 'token-3');
    // A message to the ended subscription would arrive well within this pause.
    await new Promise((r) => setTimeout(r, 100));
    expect(got.received).toHaveLength(1);
  });
});
