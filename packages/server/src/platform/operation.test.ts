import { OpenAPIHono, z } from '@hono/zod-openapi';
import { envelopeOf, OPERATIONS, type OperationId } from '@marketlens/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authStep, PUBLIC } from '../auth/authorize.js';
import type { AppEnv } from './deps.js';
import { errorHandler } from './errors/handler.js';
import { authOf, json, operation, routesOf, serveOperations, VALIDATED_URL_MAX, VALIDATED_URLS } from './operation.js';

/**
 * One GET operation whose query and path schemas count their parses, and one that also validates
 * a header; the handler answers what it was handed, and whether it was the object of the last call.
 */
function app() {
  const parses = { query: 0, header: 0 };
  const Query = z.object({
    tf: z
      .string()
      .default('h1')
      .transform((v) => {
        parses.query++;
        return v.toUpperCase();
      }),
    tags: z.array(z.string()).optional(),
  });
  const Params = z.object({ id: z.string().regex(/^[a-z]+$/) });
  const Header = z.object({
    'x-locale': z
      .string()
      .optional()
      .transform((v) => {
        parses.header++;
        return v ?? 'en';
      }),
  });
  const Out = z.object({ tf: z.string(), id: z.string(), same: z.boolean() });
  const byUrl = operation(PUBLIC, {
    method: 'get',
    path: '/things/{id}',
    operationId: 'getThing',
    summary: 'A thing',
    request: { params: Params, query: Query },
    responses: { 200: json(Out, 'A thing') },
  });
  const withHeader = operation(PUBLIC, {
    method: 'get',
    path: '/localized/{id}',
    operationId: 'getLocalizedThing',
    summary: 'A localized thing',
    request: { params: Params, query: Query, headers: Header },
    responses: { 200: json(Out, 'A thing') },
  });
  const hono = new OpenAPIHono<AppEnv>();
  hono.onError(errorHandler(() => {}));
  const serve = serveOperations(hono, () => undefined, authStep);
  let last: object | undefined;
  const seen: object[] = [];
  serve(byUrl, (c) => {
    const query = c.req.valid('query');
    const same = query === last;
    last = query;
    seen.push(query);
    return c.json({ tf: query.tf, id: c.req.valid('param').id, same }, 200);
  });
  serve(withHeader, (c) => {
    const query = c.req.valid('query');
    return c.json(
      { tf: `${query.tf}/${c.req.valid('header')['x-locale']}`, id: c.req.valid('param').id, same: false },
      200,
    );
  });
  return { hono, parses, seen };
}

describe('operations without a body: validated inputs kept per URL', () => {
  it('validates a URL once and hands every later request the same frozen objects', async () => {
    const { hono, parses, seen } = app();
    const first = await hono.request('/things/abc?tf=d1&tags=a&tags=b');
    expect(await first.json()).toEqual({ tf: 'D1', id: 'abc', same: false });
    const again = await hono.request('/things/abc?tf=d1&tags=a&tags=b');
    expect(await again.json()).toEqual({ tf: 'D1', id: 'abc', same: true });
    expect(parses.query).toBe(1);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(Object.isFrozen((seen[0] as { tags: string[] }).tags)).toBe(true);
    // Another URL (query or path) is validated on its own.
    expect(await (await hono.request('/things/abc?tf=m5')).json()).toEqual({ tf: 'M5', id: 'abc', same: false });
    expect(await (await hono.request('/things/xyz?tf=d1&tags=a&tags=b')).json()).toMatchObject({ id: 'xyz' });
    expect(parses.query).toBe(3);
  });

  it('answers every URL of a random sequence (repeats, failures, evictions) as a fresh validation would', async () => {
    // A pool of URLs larger than the memo, drawn with repeats, so that hits, misses, evictions and
    // refusals interleave; each answer is compared with what the schemas say for that URL alone.
    const tfs = ['d1', 'm5', 'h1', '', 'D1', '%64%31'];
    const ids = ['abc', 'xyz', 'ABC', 'a%62c'];
    const url = fc
      .record({
        id: fc.constantFrom(...ids),
        tf: fc.option(fc.constantFrom(...tfs), { nil: undefined }),
        tags: fc.array(fc.constantFrom('a', 'b', 'a%2Cb'), { maxLength: 3 }),
        n: fc.integer({ min: 0, max: VALIDATED_URLS * 2 }),
      })
      .map(({ id, tf, tags, n }) => {
        const q = [...(tf === undefined ? [] : [`tf=${tf}`]), ...tags.map((t) => `tags=${t}`), `n=${n}`];
        return `/things/${id}?${q.join('&')}`;
      });
    const expected = (u: string) => {
      const { pathname, searchParams } = new URL(u, 'http://localhost');
      const id = decodeURIComponent(pathname.slice('/things/'.length));
      if (!/^[a-z]+$/.test(id)) return 400;
      // A key given once reaches the schema as a string (as @hono/zod-validator reads it): not an array.
      if (searchParams.getAll('tags').length === 1) return 400;
      const tf = searchParams.get('tf') ?? 'h1';
      return { tf: tf.toUpperCase(), id };
    };
    // A pool of distinct URLs, about half of them valid: more valid ones than the memo holds. Each
    // sequence sends the whole pool (so it always overflows the memo) and then draws from it again
    // (repeats of URLs still kept and of URLs already evicted).
    const sequence = fc
      .uniqueArray(url, { minLength: VALIDATED_URLS * 3, maxLength: VALIDATED_URLS * 3 })
      .chain((pool) =>
        fc
          .array(fc.nat(pool.length - 1), { minLength: 400, maxLength: 600 })
          .map((ix) => [...pool, ...ix.map((i) => pool[i])]),
      );
    const reach = { requests: 0, repeats: 0, overflowing: 0 };
    await fc.assert(
      fc.asyncProperty(sequence, async (urls) => {
        const { hono } = app();
        const seen = new Set<string>();
        const kept = new Set<string>(); // the valid ones: only they are kept
        for (const u of urls) {
          const res = await hono.request(u);
          const want = expected(u);
          if (want === 400) expect(res.status).toBe(400);
          else {
            expect(await res.json()).toMatchObject(want);
            kept.add(u);
          }
          reach.requests++;
          if (seen.has(u)) reach.repeats++;
          seen.add(u);
        }
        if (kept.size > VALIDATED_URLS) reach.overflowing++;
      }),
      { numRuns: 10 },
    );
    // The draws reached what the property is about: repeated URLs, and more distinct ones than are kept.
    expect(reach.repeats).toBeGreaterThan(reach.requests / 5);
    expect(reach.overflowing).toBeGreaterThanOrEqual(9);
  });

  it('does not keep a URL that fails: it is refused each time', async () => {
    const { hono } = app();
    for (let i = 0; i < 3; i++) {
      const res = await hono.request('/things/ABC');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, code: 'InvalidRequest' });
    }
  });

  it('keeps at most VALIDATED_URLS URLs, the oldest going first', async () => {
    const { hono, parses } = app();
    for (let i = 0; i <= VALIDATED_URLS; i++) await hono.request(`/things/a?tf=t${i}`);
    expect(parses.query).toBe(VALIDATED_URLS + 1);
    await hono.request(`/things/a?tf=t${VALIDATED_URLS}`); // the newest: kept
    expect(parses.query).toBe(VALIDATED_URLS + 1);
    await hono.request('/things/a?tf=t0'); // the oldest: dropped, validated again
    expect(parses.query).toBe(VALIDATED_URLS + 2);
  });

  it('does not keep a URL longer than VALIDATED_URL_MAX (unknown query keys pass, and would be held)', async () => {
    const { hono, parses } = app();
    const long = `/things/abc?tf=d1&junk=${'x'.repeat(VALIDATED_URL_MAX)}`;
    for (let i = 0; i < 3; i++) {
      const res = await hono.request(long);
      expect(await res.json()).toMatchObject({ tf: 'D1', same: false });
    }
    expect(parses.query).toBe(3);
    const limit = `/things/abc?tf=d1&junk=`;
    const atLimit = `${limit}${'x'.repeat(VALIDATED_URL_MAX - `http://localhost${limit}`.length)}`;
    await hono.request(atLimit);
    await hono.request(atLimit);
    expect(parses.query).toBe(4);
  });

  it('validates every request of an operation that reads a header (the URL does not decide it)', async () => {
    const { hono, parses } = app();
    const fr = await hono.request('/localized/abc', { headers: { 'x-locale': 'fr' } });
    const de = await hono.request('/localized/abc', { headers: { 'x-locale': 'de' } });
    expect(((await fr.json()) as { tf: string }).tf).toBe('H1/fr');
    expect(((await de.json()) as { tf: string }).tf).toBe('H1/de');
    expect(parses.header).toBe(2);
    expect(parses.query).toBe(2);
  });
});

describe('routesOf: a declaration completed from the registry', () => {
  /** The OpenAPI document of one app serving `route` (no handler is called). */
  function documentOf(route: Parameters<ReturnType<typeof serveOperations>>[0]): string {
    const hono = new OpenAPIHono<AppEnv>();
    serveOperations(hono, () => undefined, authStep)(route, (c) => c.json({}, 200));
    return JSON.stringify(hono.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }));
  }

  it('publishes, for every operation REST can serve, the document of the hand-written declaration', () => {
    const ids = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => OPERATIONS[id].caller !== 'admin');
    expect(ids.length).toBeGreaterThan(30);
    const route = routesOf('Things');
    const securities = new Set<string>();
    for (const [i, id] of ids.entries()) {
      // Alternately named and inline envelopes, with and without a path parameter and extra failures.
      const envelope = i % 2 === 0 ? `Env${i}` : undefined;
      const withParam = i % 3 === 0;
      const path = withParam ? `/things/${i}/{thing_id}` : `/things/${i}`;
      const request = withParam ? { request: { params: z.object({ thing_id: z.string() }) } } : {};
      const errors = i % 4 === 0 ? ([404, 503] as const) : ([] as const);
      const head = { method: 'get', path, operationId: `op${i}` } as const;
      const text = { summary: `Op ${i}`, description: `About ${id}` };
      const completed = route(id, { ...head, ...text, ...request, ok: envelope ? ['It', envelope] : 'It', errors });
      const handWritten = operation(
        id,
        {
          ...head,
          tags: ['Things'],
          ...text,
          ...request,
          responses: { 200: json(envelopeOf(OPERATIONS[id].output, envelope), 'It') },
        },
        errors,
      );
      expect(documentOf(completed), id).toBe(documentOf(handWritten));
      expect(completed.security, id).toEqual(operation(authOf(id), { ...head, ...text, responses: {} }).security);
      securities.add(JSON.stringify(completed.security));
    }
    // The four caller needs REST serves were all reached: none, optional, key and session (three
    // until session 16 declared `optional`, the caller need of /v2/config).
    expect(securities.size).toBe(4);
  });
});
