import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../env.js';
import { startServer } from '../../server.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { harness } from '../../testing/harness.js';
import { honoPath, WeightedBudget } from './index.js';
import { weightOf } from './weights.js';

describe('rate limit', () => {
  it('spends weights within a fixed window', () => {
    const b = new WeightedBudget(10, 1000);
    expect(b.spend('a', 6, 0).allowed).toBe(true);
    expect(b.spend('a', 6, 10)).toMatchObject({ allowed: false, used: 6 });
    expect(b.spend('b', 6, 10).allowed).toBe(true);
    expect(b.spend('a', 6, 1000)).toMatchObject({ allowed: true, used: 6 });
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
