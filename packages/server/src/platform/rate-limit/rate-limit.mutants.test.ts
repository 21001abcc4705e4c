/**
 * The rate limiter against its documented rules: the sliding-window budget recomputed from a plain
 * list of admissions (used units, refusals and `retryAt` to the millisecond, through growth and
 * same-millisecond requests), idle keys swept, the weight of a route found from the matched route,
 * and the budget headers on each kind of server. Written against the survivors of
 * `MUTATION_MODULES=rate-limit pnpm mutation:server` (docs/testing.md).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { type AppDeps, type AppEnv, DEFAULT_CONFIG } from '../deps.js';
import { errorHandler } from '../errors/handler.js';
import { platform } from '../pipeline.js';
import { WeightedBudget } from './rate-limit.js';

/** The documented rule, by brute force: admissions of the last window, oldest first. */
class Model {
  readonly admitted = new Map<string, { t: number; w: number }[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  spend(key: string, w: number, now: number) {
    const live = (this.admitted.get(key) ?? []).filter((e) => e.t > now - this.windowMs);
    this.admitted.set(key, live);
    const used = live.reduce((s, e) => s + e.w, 0);
    if (used + w <= this.limit) {
      live.push({ t: now, w });
      return { allowed: true, used: used + w, retryAt: now };
    }
    // the first moment enough of the oldest entries have left the window
    let rest = used;
    for (const e of live) {
      rest -= e.w;
      if (rest + w <= this.limit) return { allowed: false, used, retryAt: e.t + this.windowMs };
    }
    const newest = live.length > 0 ? live[live.length - 1].t : 0;
    return { allowed: false, used, retryAt: newest + this.windowMs };
  }
}

describe('WeightedBudget against the rule it documents', () => {
  it('answers every spend as the brute-force window does (property)', () => {
    const step = fc.record({
      key: fc.constantFrom('a', 'a', 'a', 'b'),
      weight: fc.constantFrom(1, 1, 1, 2, 3, 5, 20),
      // same-millisecond requests, small steps, and pauses past the window
      advance: fc.oneof(
        { arbitrary: fc.nat(20), weight: 6 },
        { arbitrary: fc.constant(0), weight: 2 },
        { arbitrary: fc.integer({ min: 900, max: 2500 }), weight: 1 },
      ),
    });
    let runs = 0;
    let refusedRuns = 0;
    let grownRuns = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 60, maxLength: 300 }), (steps) => {
        const budget = new WeightedBudget(60, 1000);
        const model = new Model(60, 1000);
        let now = 0;
        let refused = false;
        let grown = false;
        for (const s of steps) {
          now += s.advance;
          const got = budget.spend(s.key, s.weight, now);
          expect(got).toEqual(model.spend(s.key, s.weight, now));
          if (!got.allowed) refused = true;
          // more distinct arrival times in the window than a log's first 8 entries
          if (new Set(model.admitted.get(s.key)?.map((e) => e.t)).size > 8) grown = true;
        }
        runs++;
        if (refused) refusedRuns++;
        if (grown) grownRuns++;
      }),
      { numRuns: 150 },
    );
    // most draws reach a refusal and a log past its first 8 entries
    expect({ refused: refusedRuns / runs > 0.8, grown: grownRuns / runs > 0.8 }).toEqual({
      refused: true,
      grown: true,
    });
  });

  it('a request that never fits is told to come back a window after the newest entry', () => {
    const b = new WeightedBudget(10, 1000);
    expect(b.spend('k', 4, 100).allowed).toBe(true);
    expect(b.spend('k', 4, 300).allowed).toBe(true);
    expect(b.spend('k', 11, 400)).toEqual({ allowed: false, used: 8, retryAt: 1300 });
    // an empty log: a window from time 0
    expect(new WeightedBudget(10, 1000).spend('k', 11, 50)).toEqual({ allowed: false, used: 0, retryAt: 1000 });
  });

  it('requests of one millisecond share an entry and leave the window together', () => {
    const b = new WeightedBudget(100, 1000);
    for (let i = 0; i < 20; i++) b.take('k', 1, 500);
    expect(b.take('k', 1, 600)).toBe(21);
    expect(b.spend('k', 90, 1499)).toEqual({ allowed: false, used: 21, retryAt: 1500 });
    expect(b.take('k', 90, 1500)).toBe(91);
  });

  it('drops the keys idle for a window, once per window', () => {
    const b = new WeightedBudget(10, 1000);
    b.take('old', 1, -10);
    b.take('old', 1, 0); // two entries: its newest is not its first
    b.take('recent', 1, 500);
    expect(b.keys).toBe(2);
    // a window after the last sweep (at 0): 'old' (its newest entry at the horizon) goes
    b.take('new', 1, 1000);
    expect(b.keys).toBe(2);
    // before another window has passed since that sweep, nothing is swept
    b.take('new', 1, 1999);
    expect(b.keys).toBe(2);
    b.take('new', 1, 2000);
    expect(b.keys).toBe(1);
    // a refused key holds nothing: swept like an idle one
    const r = new WeightedBudget(1, 1000);
    r.take('x', 5, 0);
    r.take('y', 1, 1000);
    expect(r.keys).toBe(1);
  });
});

/** An app with the platform steps as one layer and a route of its own (weights found per request). */
function appOf(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use(platform(deps));
  app.get('/v2/analysis/:asset_id', (c) => c.json({ ok: true }));
  app.get('/somewhere', (c) => c.json({ ok: true }));
  app.onError(errorHandler(() => {}));
  return app;
}

const storage = createSqliteStorage(':memory:');
const depsOf = (limit: number, extra: Partial<AppDeps> = {}): AppDeps => ({
  storage,
  config: { ...DEFAULT_CONFIG, rateLimit: { limit, windowMs: 60_000 } },
  now: () => 1_000_000,
  ...extra,
});
const env = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });

describe('RateLimiter on a route of its own', () => {
  it('weighs a request by its matched route, not the middleware layer in front of it', async () => {
    const app = appOf(depsOf(100));
    const analysis = await app.request('/v2/analysis/bitcoin', {}, env('192.0.2.1'));
    expect(analysis.headers.get('x-ratelimit-used')).toBe('20');
    const other = await app.request('/somewhere', {}, env('192.0.2.1'));
    expect(other.headers.get('x-ratelimit-used')).toBe('21');
    // unmatched: weighed by its path
    const missing = await app.request('/v2/analysis', {}, env('192.0.2.1'));
    expect(missing.headers.get('x-ratelimit-used')).toBe('41');
  });

  it('writes the headers without a Node response too, and refuses with the budget in the message', async () => {
    const app = appOf(depsOf(25));
    const first = await app.request('/v2/analysis/bitcoin'); // no env at all
    expect(first.status).toBe(200);
    expect(Object.fromEntries([...first.headers].filter(([k]) => k.startsWith('x-ratelimit')))).toEqual({
      'x-ratelimit-limit': '25',
      'x-ratelimit-remaining': '5',
      'x-ratelimit-used': '20',
      'x-ratelimit-window': '60',
    });
    const refused = await app.request('/v2/analysis/bitcoin');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      code: 'RateLimited',
      message: 'Request budget of 25 units per 60 s is spent',
    });
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('5');
    expect(refused.headers.get('retry-after')).toBe('60');
  });

  it('follows a change of the limit alone, or of the window alone', async () => {
    const deps = depsOf(100);
    const app = appOf(deps);
    expect((await app.request('/somewhere', {}, env('192.0.2.9'))).headers.get('x-ratelimit-limit')).toBe('100');
    deps.config = { ...deps.config, rateLimit: { limit: 50, windowMs: 60_000 } };
    const lowered = await app.request('/somewhere', {}, env('192.0.2.9'));
    expect([lowered.headers.get('x-ratelimit-limit'), lowered.headers.get('x-ratelimit-used')]).toEqual(['50', '1']);
    deps.config = { ...deps.config, rateLimit: { limit: 50, windowMs: 30_000 } };
    const shorter = await app.request('/somewhere', {}, env('192.0.2.9'));
    expect([shorter.headers.get('x-ratelimit-window'), shorter.headers.get('x-ratelimit-used')]).toEqual(['30', '1']);
  });

  it('takes the verdict of a shared budget when there is one, remaining never below 0', async () => {
    const asked: [string, number, number][] = [];
    const shared = {
      budget: (limit: number, windowMs: number) => ({
        spend: async (key: string, weight: number, now: number) => {
          asked.push([key, weight, now]);
          expect([limit, windowMs]).toEqual([100, 60_000]);
          return { allowed: false, used: 120, retryAt: now + 4_500 };
        },
      }),
    } as unknown as AppDeps['shared'];
    const app = appOf(depsOf(100, { shared }));
    const res = await app.request('/somewhere', {}, env('192.0.2.44'));
    expect(res.status).toBe(429);
    expect(asked).toEqual([['192.0.2.44', 1, 1_000_000]]);
    expect(res.headers.get('x-ratelimit-used')).toBe('120');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('retry-after')).toBe('5');
  });

  it('sets the headers on a plain Node server (no marketlens response class)', async () => {
    const app = appOf(depsOf(100));
    const server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v2/analysis/bitcoin`);
      expect(res.status).toBe(200);
      expect([
        res.headers.get('x-ratelimit-limit'),
        res.headers.get('x-ratelimit-remaining'),
        res.headers.get('x-ratelimit-used'),
        res.headers.get('x-ratelimit-window'),
      ]).toEqual(['100', '80', '20', '60']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
