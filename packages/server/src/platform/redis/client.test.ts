import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { connectRedis, SharedStateUnavailable, whenReady } from './client.js';
import { InvalidationBus } from './invalidation.js';
import { RedisWeightedBudget } from './rate-limit.js';

// These tests stop and restart a Redis of their own, so no other test file feels the outage.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const noRedisServer = skipWithout(
  hasRedisServer,
  'redis-server',
  'Install it with `source .ci/services.sh` (or apt-get install -y redis-server).',
);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/** A throwaway redis-server on `port`, resolved once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${port}: ${out}`)), 5000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
  child.stdout?.resume();
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}

/** How long `op` takes to reject, and with what. */
async function rejection(op: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  try {
    await op();
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
  throw new Error('expected a rejection');
}

describe.skipIf(noRedisServer)(
  'connectRedis through an outage (skips without redis-server: source .ci/services.sh)',
  () => {
    let port = 0;
    let server: ChildProcess | null = null;
    let redis: Redis;

    beforeAll(async () => {
      port = await freePort();
      server = await startRedis(port);
      redis = await connectRedis(`redis://127.0.0.1:${port}`, { commandTimeoutMs: 300, maxReconnectDelayMs: 200 });
      await whenReady(redis);
    });

    afterAll(async () => {
      redis?.disconnect();
      if (server) await stopRedis(server);
    });

    it('fails fast with SharedStateUnavailable while Redis is down, and recovers by itself', async () => {
      const budget = new RedisWeightedBudget(redis, 100, 60_000);
      expect((await budget.spend('k', 1, Date.now())).allowed).toBe(true);

      if (server) await stopRedis(server);
      server = null;
      // In flight when the connection drops, and issued while it is down: both fail at once.
      for (let i = 0; i < 3; i++) {
        const { error, ms } = await rejection(() => budget.spend('k', 1, Date.now()));
        expect(error).toBeInstanceOf(SharedStateUnavailable);
        expect(ms).toBeLessThan(200);
      }

      server = await startRedis(port);
      const start = performance.now();
      for (;;) {
        try {
          // A fresh Redis: the script is reloaded (NOSCRIPT -> EVAL), the budget starts empty.
          expect((await budget.spend('k', 1, Date.now())).used).toBe(1);
          break;
        } catch (err) {
          expect(err).toBeInstanceOf(SharedStateUnavailable);
          if (performance.now() - start > 3000) throw err;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      expect(performance.now() - start).toBeLessThan(3000);
    });

    it('serves an answer that arrived while the event loop was held up past the command timeout', async () => {
      await whenReady(redis);
      const budget = new RedisWeightedBudget(redis, 100, 60_000);
      for (let i = 1; i <= 3; i++) {
        const spent = budget.spend('stalled', 1, Date.now());
        // Past the 300 ms command timeout: Node runs the expired timer before it reads the answer.
        const until = performance.now() + 450;
        while (performance.now() < until) {}
        expect(await spent).toMatchObject({ allowed: true, used: i });
      }
    });

    it('fails within the command timeout when Redis stops answering', async () => {
      await whenReady(redis);
      const budget = new RedisWeightedBudget(redis, 100, 60_000);
      const pid = server?.pid;
      if (pid === undefined) throw new Error('no redis-server');
      process.kill(pid, 'SIGSTOP');
      try {
        const { error, ms } = await rejection(() => budget.spend('hung', 1, Date.now()));
        expect(error).toBeInstanceOf(SharedStateUnavailable);
        expect(ms).toBeGreaterThanOrEqual(250);
        expect(ms).toBeLessThan(1000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      await whenReady(redis);
      expect((await budget.spend('hung', 1, Date.now())).allowed).toBe(true);
    });

    it('tells subscribers to drop everything after their connection was lost, then delivers again', async () => {
      await whenReady(redis);
      const bus = new InvalidationBus(redis, { channel: 'outage:invalidate' });
      const received: string[] = [];
      let gaps = 0;
      await bus.subscribe(
        (m) => received.push(m.id),
        () => gaps++,
      );
      await bus.publish('session', 'before');
      await expect.poll(() => received, { timeout: 1000 }).toEqual(['before']);

      if (server) await stopRedis(server);
      server = null;
      await expect(bus.publish('session', 'lost')).rejects.toBeInstanceOf(SharedStateUnavailable);
      server = await startRedis(port);

      await expect.poll(() => gaps, { timeout: 3000 }).toBe(1);
      await whenReady(redis);
      await bus.publish('session', 'after');
      await expect.poll(() => received, { timeout: 1000 }).toEqual(['before', 'after']);
      await bus.close();
    });

    it('rejects with SharedStateUnavailable when Redis cannot be reached at all', async () => {
      const nowhere = await connectRedis(`redis://127.0.0.1:${await freePort()}`, { connectTimeoutMs: 200 });
      try {
        await expect(whenReady(nowhere, 300)).rejects.toBeInstanceOf(SharedStateUnavailable);
        const { error, ms } = await rejection(() => new RedisWeightedBudget(nowhere, 10, 1000).spend('k', 1, 0));
        expect(error).toBeInstanceOf(SharedStateUnavailable);
        expect(ms).toBeLessThan(50);
      } finally {
        nowhere.disconnect();
      }
    });
  },
);
