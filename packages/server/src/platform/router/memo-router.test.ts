import fc from 'fast-check';
import { Hono } from 'hono';
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { MEMO_ROUTER_MAX_PATH_LENGTH, MemoRouter } from './memo-router.js';

/** Routes shaped like the contract's, including the static-beside-parameter pairs. */
const ROUTES: [string, string][] = [
  ['ALL', '/v2/positions/manual/*'],
  ['GET', '/v2/positions'],
  ['PATCH', '/v2/positions/manual'],
  ['PATCH', '/v2/positions/:position_id'],
  ['GET', '/v2/positions/:position_id/analysis'],
  ['GET', '/v1/promotions/volume'],
  ['GET', '/v1/promotions/:connection_id'],
  ['POST', '/v1/promotions/:connection_id/sign_up'],
  ['GET', '/v2/analysis/:asset_id'],
  ['GET', '/v2/analysis/:asset_id/signal'],
  ['GET', '/v2/config'],
  ['ALL', '/mcp/*'],
];

const SEGMENTS = [
  'v1',
  'v2',
  'positions',
  'manual',
  'promotions',
  'volume',
  'analysis',
  'signal',
  'sign_up',
  'config',
  'mcp',
  'bitcoin',
  'x%20y',
  '',
];

function routerOf<T, R extends Router<T>>(router: R, handlers: T[]): R {
  for (const [i, [method, path]] of ROUTES.entries()) router.add(method, path, handlers[i]);
  return router;
}

const plain = <T>(r: Result<T>) =>
  // Both result forms, as the handlers with their decoded parameters.
  r[0].map(([h, p]) => [h, Object.fromEntries(Object.entries(p).map(([k, v]) => [k, r[1] ? r[1][v as number] : v]))]);

describe('MemoRouter', () => {
  const handlers = ROUTES.map((_, i) => `h${i}`);

  it('settles on the TrieRouter for these routes, like hono would', () => {
    const r = routerOf(new MemoRouter<string>(), handlers);
    r.match('GET', '/v2/config');
    expect(r.name).toBe('MemoRouter + SmartRouter + TrieRouter');
  });

  it('answers every request exactly as hono router does, on first sight and remembered', () => {
    const memo = routerOf(new MemoRouter<string>(undefined, 8), handlers);
    const reference = routerOf(new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] }), handlers);
    const path = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`);
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), path, (method, p) => {
        const want = plain(reference.match(method, p));
        expect(plain(memo.match(method, p))).toEqual(want);
        expect(plain(memo.match(method, p))).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });

  it('remembers a bounded number of paths in all, and no long ones', () => {
    let calls = 0;
    const inner = new TrieRouter<string>();
    const counting = {
      name: 'counting',
      add: inner.add.bind(inner),
      match: (m: string, p: string) => {
        calls++;
        return inner.match(m, p);
      },
    };
    const memo = routerOf(new MemoRouter<string>(counting, 2), handlers);
    memo.match('GET', '/a');
    memo.match('GET', '/b');
    memo.match('GET', '/a');
    expect(calls).toBe(2);
    memo.match('POST', '/a'); // full, and POST has nothing to give up: answered, not remembered
    memo.match('POST', '/a');
    expect(calls).toBe(4);
    memo.match('GET', '/c'); // full: '/a', GET's oldest, goes
    memo.match('GET', '/b');
    memo.match('GET', '/a');
    expect(calls).toBe(6);
    const long = `/${'x'.repeat(MEMO_ROUTER_MAX_PATH_LENGTH)}`;
    const fresh = routerOf(new MemoRouter<string>(counting), handlers);
    fresh.match('GET', long);
    fresh.match('GET', long);
    expect(calls).toBe(8);
  });

  it('forgets what it remembered when a route is added', () => {
    const memo = new MemoRouter<string>(new TrieRouter<string>());
    memo.add('GET', '/a/:id', 'param');
    expect(memo.match('GET', '/a/b')[0].map(([h]) => h)).toEqual(['param']);
    memo.add('GET', '/a/b', 'static');
    expect(memo.match('GET', '/a/b')[0].map(([h]) => h)).toEqual(['param', 'static']);
  });

  it('serves a hono app: parameters per request, the static route beside the parameter', async () => {
    const app = new Hono({ router: new MemoRouter() });
    app.get('/v1/promotions/volume', (c) => c.text('volume'));
    app.get('/v1/promotions/:id', (c) => c.text(`id ${c.req.param('id')}`));
    for (let i = 0; i < 2; i++) {
      expect(await (await app.request('/v1/promotions/volume')).text()).toBe('volume');
      expect(await (await app.request('/v1/promotions/a%20b')).text()).toBe('id a b');
      expect(await (await app.request('/v1/promotions/c')).text()).toBe('id c');
    }
  });
});
