import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPENAPI_PATH } from '../../src/app.js';
import { offlineHarness } from './offline.js';

/** Platform fixes the reliability suite led to (docs/reliability.md, findings F3 and F5). */

describe('error statuses always match the error table', () => {
  it('a body that is not JSON answers 400 InvalidRequest (the validator says 415)', async () => {
    const h = offlineHarness();
    for (const type of ['text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded']) {
      const res = await h.request('/v1/auth/signup', {
        method: 'POST',
        headers: { 'content-type': type },
        body: 'email=a@b.cd&password=password-123',
      });
      expect([type, res.status]).toEqual([type, 400]);
      expect(await res.json()).toMatchObject({ success: false, code: 'InvalidRequest' });
    }
  });

  it('every operation documents 401: even public ones refuse a bearer token', async () => {
    const h = offlineHarness();
    const doc = (await (await h.request(OPENAPI_PATH)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const res = await h.json(
      '/v1/auth/login',
      { email: 'a@b.cd', password: 'password-123' },
      {
        headers: { authorization: 'Bearer x' },
      },
    );
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([401, 'BearerNotAccepted']);
    expect(doc.paths['/v1/auth/login'].post.responses).toHaveProperty('401');
  });
});

describe('GET /docs/openapi.json', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is generated once per route table and serialised once per origin', async () => {
    const h = offlineHarness();
    // Counted, not timed: regenerating costs hundreds of milliseconds; scripts/bench-timings.mjs
    // measures what the cache saves.
    const generate = vi.spyOn(h.app, 'getOpenAPI31Document');
    const stringify = vi.spyOn(JSON, 'stringify');
    const serialised = () =>
      stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'openapi' in value)
        .length;
    const first = await (await h.request(OPENAPI_PATH)).text();
    for (let i = 0; i < 20; i++) expect(await (await h.request(OPENAPI_PATH)).text()).toBe(first);
    expect(generate).toHaveBeenCalledTimes(1);
    expect(serialised()).toBe(1);
    const fromElsewhere = async () =>
      (await (
        await h.app.request(
          'http://api.example.org/docs/openapi.json',
          {},
          { incoming: { socket: { remoteAddress: '192.0.2.1' } } },
        )
      ).json()) as { servers: { url: string }[]; info: { description: string } };
    const elsewhere = await fromElsewhere();
    expect(elsewhere.servers[0].url).toBe('http://api.example.org');
    expect(elsewhere.info.description).toContain('http://api.example.org/releases.atom');
    expect(await fromElsewhere()).toEqual(elsewhere);
    // Another origin is serialised again (once), never generated again.
    expect(generate).toHaveBeenCalledTimes(1);
    expect(serialised()).toBe(2);
  });
});
