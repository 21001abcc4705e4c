import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { startServer } from '../../server.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { DEFAULT_CONFIG } from '../deps.js';
import { honoPath, WeightedBudget } from './rate-limit.js';
import { weightOf } from './weights.js';

describe('rate limit', () => {
  it('spends weights within a sliding window', () => {
    const b = new WeightedBudget(10, 1000);
    expect(b.spend('a', 6, 0).allowed).toBe(true);
    expect(b.spend('a', 6, 10)).toMatchObject({ allowed: false, used: 6, retryAt: 1000 });
    expect(b.spend('b', 6, 10).allowed).toBe(true);
    expect(b.spend('a', 4, 500)).toMatchObject({ allowed: true, used: 10 });
    // The 6 units of t=0 leave at t=1000, the 4 of t=500 only at t=1500.
    expect(b.spend('a', 6, 1000)).toMatchObject({ allowed: true, used: 10 });
    expect(b.spend('a', 1, 1001)).toMatchObject({ allowed: false, used: 10, retryAt: 1500 });
  });

  it('admits no more than the limit across a window boundary', () => {
    // A fixed window let 1,999 units in just before its end and 2,000 more just after: 3,999 in 4 s.
    const b = new WeightedBudget(2000, 60_000);
    let admitted = 0;
    const burst = (at: number) => {
      for (let i = 0; i < 100; i++) if (b.spend('ip', 20, at + i).allowed) admitted += 20;
    };
    b.spend('ip', 1, 0);
    burst(58_000);
    burst(60_000);
    expect(admitted).toBeLessThanOrEqual(2000);
  });

  const WINDOW = 60_000;
  const LIMIT = 2000;
  const WEIGHTS = [1, 1, 1, 2, 3, 5, 10, 20];

  it('admits at most the limit plus one weight in any window, and says exactly how much is used (property)', () => {
    // Bursts of requests a few ms apart, between pauses of up to a window, so that bursts straddle windows.
    const burst = fc.record({
      pause: fc.nat(70_000),
      count: fc.integer({ min: 1, max: 400 }),
      gap: fc.nat(40),
      weight: fc.constantFrom(...WEIGHTS),
    });
    fc.assert(
      fc.property(fc.array(burst, { minLength: 1, maxLength: 16 }), (bursts) => {
        const b = new WeightedBudget(LIMIT, WINDOW);
        const admitted: { t: number; w: number }[] = [];
        let t = 0;
        let oldest = 0;
        let inWindow = 0;
        for (const { pause, count, gap, weight } of bursts) {
          t += pause;
          for (let i = 0; i < count; i++, t += gap) {
            const r = b.spend('ip', weight, t);
            // The used figure (x-ratelimit-used) is the units admitted in (t - window, t].
            while (oldest < admitted.length && admitted[oldest].t <= t - WINDOW) inWindow -= admitted[oldest++].w;
            if (r.allowed) {
              admitted.push({ t, w: weight });
              inWindow += weight;
            } else expect(r.retryAt).toBeGreaterThan(t);
            expect(r.used).toBe(inWindow);
          }
        }
        // Every window [s, s + 60 s) starting at an admitted request.
        let end = 0;
        let sum = 0;
        for (let start = 0; start < admitted.length; start++) {
          while (end < admitted.length && admitted[end].t < admitted[start].t + WINDOW) sum += admitted[end++].w;
          expect(sum).toBeLessThanOrEqual(LIMIT + Math.max(...WEIGHTS));
          sum -= admitted[start].w;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('never refuses a steady client under the rate (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WEIGHTS),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 1, max: 3000 }),
        (w, start, slack, count) => {
          // The smallest spacing at which ceil(window / spacing) requests of weight w fit the limit.
          const spacing = Math.ceil(WINDOW / Math.floor(LIMIT / w)) + slack;
          const b = new WeightedBudget(LIMIT, WINDOW);
          for (let i = 0; i < count; i++) expect(b.spend('steady', w, start + i * spacing).allowed).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('weighs routes from the one table', () => {
    expect(weightOf('POST', '/v1/auth/login')).toBe(20);
    expect(weightOf('GET', '/somewhere')).toBe(1);
    expect(honoPath('/v1/users/api_keys/{key_id}')).toBe('/v1/users/api_keys/:key_id');
    expect(honoPath('/a/{b}/c/{d}')).toBe('/a/:b/c/:d');
  });

  it('charges an operation the weight resolved when it was registered', async () => {
    const h = harness({ rateLimit: { limit: 100, windowMs: 60_000 } });
    const r = await h.json('/v1/auth/signup', { email: 'weights@example.com', password: 'password-123' });
    expect([r.status, r.headers.get('x-ratelimit-used')]).toEqual([200, '20']);
    const key = await h.request('/v1/users/api_keys/nope', { method: 'DELETE' });
    expect(key.headers.get('x-ratelimit-used')).toBe('21');
    const doc = await h.request('/docs/openapi.json');
    expect(doc.headers.get('x-ratelimit-used')).toBe('23');
  });

  it('puts the headers on every response and answers 429 with retry-after per IP', async () => {
    const h = harness({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const r404 = await h.request('/nowhere');
    expect(r404.status).toBe(404);
    expect(r404.headers.get('x-ratelimit-used')).toBe('1');
    expect(r404.headers.get('x-ratelimit-window')).toBe('60');
    await h.request('/v2/config');
    const r3 = await h.request('/v2/config');
    expect(r3.headers.get('x-ratelimit-remaining')).toBe('0');
    const r4 = await h.request('/v2/config');
    expect(r4.status).toBe(429);
    expect(r4.headers.get('retry-after')).toBe('60');
    expect(r4.headers.get('x-ratelimit-limit')).toBe('3');
    expect(((await r4.json()) as { code: string }).code).toBe('RateLimited');
    expect((await h.request('/v2/config', {}, '198.51.100.9')).status).toBe(200);
    h.clock.now += 60_000;
    expect((await h.request('/v2/config')).status).toBe(200);
  });

  it('answers retry-after when the oldest units leave the window', async () => {
    const h = harness({ rateLimit: { limit: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) {
      expect((await h.request('/v2/config')).status).toBe(200);
      h.clock.now += 10_000;
    }
    const over = await h.request('/v2/config');
    expect([over.status, over.headers.get('retry-after'), over.headers.get('x-ratelimit-used')]).toEqual([
      429,
      '30',
      '3',
    ]);
    h.clock.now += 30_000;
    const ok = await h.request('/v2/config');
    expect([ok.status, ok.headers.get('x-ratelimit-used'), ok.headers.get('x-ratelimit-remaining')]).toEqual([
      200,
      '3',
      '0',
    ]);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const h = harness({ rateLimit: { limit: 1, windowMs: 60_000 }, trustedProxies: ['10.0.0.1'] });
    const xff = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    expect((await h.request('/v2/config', xff('1.1.1.1'), '10.0.0.1')).status).toBe(200);
    expect((await h.request('/v2/config', xff('2.2.2.2'), '10.0.0.1')).status).toBe(200);
    expect((await h.request('/v2/config', xff('3.3.3.3'), '198.51.100.1')).status).toBe(200);
    expect((await h.request('/v2/config', xff('4.4.4.4'), '198.51.100.1')).status).toBe(429);
  });

  it('puts the headers on real HTTP responses too (set on the Node response)', async () => {
    const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 2, windowMs: 60_000 } };
    const srv = await startServer(
      { port: 0, host: '127.0.0.1', dataDir: mkdtempSync(join(tmpdir(), 'ml-rl-')), config },
      createSqliteStorage(':memory:'),
    );
    try {
      const ok = await fetch(`${srv.url}/v2/config`);
      expect([ok.status, ok.headers.get('x-ratelimit-used'), ok.headers.get('x-ratelimit-remaining')]).toEqual([
        200,
        '1',
        '1',
      ]);
      expect(ok.headers.get('content-type')).toMatch(/application\/json/);
      const missing = await fetch(`${srv.url}/nowhere`);
      expect([missing.status, missing.headers.get('x-ratelimit-used')]).toEqual([404, '2']);
      const over = await fetch(`${srv.url}/v2/config`);
      expect([over.status, over.headers.get('retry-after'), over.headers.get('x-ratelimit-limit')]).toEqual([
        429,
        '60',
        '2',
      ]);
      expect(over.headers.get('x-ratelimit-window')).toBe('60');
    } finally {
      await srv.close();
    }
  });
});
