import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  DeviceIdParams,
  envelopeOf,
  FavoriteRequestSchema,
  NewsQuery,
  NotificationIdParams,
  NotificationPayloadSchema,
  ok,
  PositionsQuery,
  PositionsSchema,
  PromotionConnectionParams,
  PromotionSignUpWithUIDSchema,
} from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './deps.js';
import { AppError } from './errors/app-error.js';
import { errorHandler } from './errors/handler.js';
import { json, operation, type RunOperation, routesOf, type Serve, serveOperations } from './operation.js';
import { restTable, serveTable } from './rest-table.js';

const noAuth = () => () => undefined;
const ID = '0b6c3a56-8d7e-4a3b-9f0e-2c1d4e5f6a7b';

/** An app serving through `serveOperations` (no caller check), with the runs it made. */
function appOf() {
  const hono = new OpenAPIHono<AppEnv>();
  hono.onError(errorHandler());
  const runs: [string, unknown][] = [];
  const run = (async (_c: unknown, id: string, input: unknown) => {
    runs.push([id, input]);
    return { ran: id };
  }) as unknown as RunOperation;
  const serve = serveOperations(hono, () => undefined, noAuth);
  const document = () =>
    JSON.stringify(hono.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }));
  return { hono, runs, run, serve, document };
}

const SignUpBody = { content: { 'application/json': { schema: PromotionSignUpWithUIDSchema } }, required: true };

describe('restTable: one row a REST binding', () => {
  it('publishes the document of the routesOf declaration, row by row, in the table order', () => {
    const rows = appOf();
    const table = restTable('Things', {
      'market.news': [{ get: '/t/news', id: 'news', query: NewsQuery, ok: ['News', 'NewsEnv'] }, 'News', 'About news'],
      'alerts.removeDevice': [
        { delete: '/t/devices/{device_id}', id: 'rm', params: DeviceIdParams, ok: 'Gone', errors: [404] },
        'Remove',
      ],
      'promotions.signUp': [
        {
          post: '/t/promotions/{connection_id}',
          id: 'signUp',
          params: PromotionConnectionParams,
          json: PromotionSignUpWithUIDSchema,
          ok: 'Claimed',
          errors: [404, 422],
        },
        'Sign up',
        'With a UID',
      ],
    });
    serveTable(rows.serve, rows.run, table);

    const routes = appOf();
    const route = routesOf('Things');
    const handler = (c: { json: (v: unknown, s: 200) => Response }) => c.json({}, 200);
    const serve = routes.serve as unknown as (op: object, h: typeof handler) => void;
    serve(
      route('market.news', {
        method: 'get',
        path: '/t/news',
        operationId: 'news',
        summary: 'News',
        description: 'About news',
        request: { query: NewsQuery },
        ok: ['News', 'NewsEnv'],
      }),
      handler,
    );
    serve(
      route('alerts.removeDevice', {
        method: 'delete',
        path: '/t/devices/{device_id}',
        operationId: 'rm',
        summary: 'Remove',
        request: { params: DeviceIdParams },
        ok: 'Gone',
        errors: [404],
      }),
      handler,
    );
    serve(
      route('promotions.signUp', {
        method: 'post',
        path: '/t/promotions/{connection_id}',
        operationId: 'signUp',
        summary: 'Sign up',
        description: 'With a UID',
        request: { params: PromotionConnectionParams, body: SignUpBody },
        ok: 'Claimed',
        errors: [404, 422],
      }),
      handler,
    );
    expect(rows.document()).toBe(routes.document());
    expect(Object.keys(JSON.parse(rows.document()).paths)).toEqual([
      '/t/news',
      '/t/devices/{device_id}',
      '/t/promotions/{connection_id}',
    ]);
  });

  it("publishes `data` as the 200's data where REST answers more than the operation's output", () => {
    const Legacy = z.object({ legacy: z.boolean() });
    const rows = appOf();
    const table = restTable('Things', {
      'accounts.positions': [
        {
          get: '/t/p',
          id: 'p',
          query: PositionsQuery,
          ok: ['Both', 'BothEnv'],
          data: z.union([PositionsSchema, Legacy]),
        },
        'Positions',
      ],
    });
    serveTable(rows.serve, rows.run, table);
    const declared = appOf();
    const route = {
      method: 'get' as const,
      path: '/t/p',
      operationId: 'p',
      tags: ['Things'],
      summary: 'Positions',
      request: { query: PositionsQuery },
      responses: { 200: json(envelopeOf(z.union([PositionsSchema, Legacy]), 'BothEnv'), 'Both') },
    };
    (declared.serve as unknown as (op: object, h: () => Response) => void)(
      operation('accounts.positions', route),
      () => new Response(),
    );
    expect(rows.document()).toBe(declared.document());
    expect(rows.document()).toContain('"legacy"');
  });

  it('refuses a row without a method', () => {
    const row = [{ id: 'x', ok: 'X' }, 'X'] as const;
    expect(() => restTable('Things', { 'market.news': row as never })).toThrow('market.news: a row names its method');
  });
});

describe('serveTable: the plain handler, and the rows that name their own', () => {
  it('merges the validated path, query and body into the input, runs it and answers 200 in the envelope', async () => {
    const { hono, runs, run, serve } = appOf();
    const table = restTable('Things', {
      'market.news': [{ get: '/t/news', id: 'news', query: NewsQuery, ok: 'News', cacheControl: 'no-store' }, 'News'],
      'alerts.removeDevice': [{ delete: '/t/devices/{device_id}', id: 'rm', params: DeviceIdParams, ok: 'Gone' }, 'Rm'],
      'promotions.signUp': [
        {
          post: '/t/p/{connection_id}',
          id: 'up',
          params: PromotionConnectionParams,
          json: PromotionSignUpWithUIDSchema,
          ok: 'Up',
        },
        'Up',
      ],
    });
    serveTable(serve, run, table);

    const news = await hono.request('/t/news?limit=3');
    expect(news.status).toBe(200);
    expect(await news.json()).toEqual(ok({ ran: 'market.news' }));
    expect(news.headers.get('cache-control')).toBe('no-store');
    const device = await hono.request(`/t/devices/${ID}`, { method: 'DELETE' });
    expect(device.status).toBe(200);
    expect(device.headers.get('cache-control')).toBeNull();
    const up = await hono.request('/t/p/binance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uid: '123456789' }),
    });
    expect(up.status).toBe(200);
    expect(runs).toEqual([
      ['market.news', NewsQuery.parse({ limit: '3' })],
      ['alerts.removeDevice', { device_id: ID }],
      ['promotions.signUp', { connection_id: 'binance', uid: '123456789' }],
    ]);
    // A bad query is refused before the run, as every operation's.
    expect((await hono.request('/t/news?limit=nope')).status).toBe(400);
    expect(runs).toHaveLength(3);
  });

  it("serves a row named in `own` with its handler, and a row's hook on a failed validation", async () => {
    const { hono, runs, run, serve } = appOf();
    const table = restTable('Things', {
      'alerts.update': [
        {
          patch: '/t/n/{notification_id}',
          id: 'update',
          params: NotificationIdParams,
          json: NotificationPayloadSchema,
          ok: 'Updated',
          hook: (result) => {
            if (!result.success) throw new AppError('InvalidNotification', `Invalid ${result.target}`);
            return undefined;
          },
        },
        'Update',
      ],
      'market.addFavorite': [{ post: '/t/f', id: 'fav', json: FavoriteRequestSchema, ok: 'Favorited' }, 'Fav'],
    });
    serveTable(serve, run, table, {
      'alerts.update': async (c) => {
        const input = { alert_id: c.req.valid('param').notification_id, payload: c.req.valid('json') };
        return c.json(ok(await run(c, 'alerts.update', input)), 200);
      },
    });
    const bad = await hono.request(`/t/n/${ID}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"kind":"nope"}',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'InvalidNotification' });
    const fav = await hono.request('/t/f', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ asset_id: 'bitcoin' }),
    });
    expect(fav.status).toBe(200);
    expect(runs).toEqual([['market.addFavorite', { asset_id: 'bitcoin' }]]);
  });

  it('types: a row whose merged input is not its operation input must name its own handler', async () => {
    const { hono, runs, run, serve } = appOf();
    const table = restTable('Things', {
      'alerts.delete': [
        { delete: '/t/n/{notification_id}', id: 'del', params: NotificationIdParams, ok: 'Gone' },
        'Del',
      ],
    });
    // Never called: the check is tsc's (the package's typecheck covers the tests).
    const plainOnly = (s: Serve) => {
      // @ts-expect-error `notification_id` is not the operation's `alert_id`: the row needs its own handler
      serveTable(s, run, table);
    };
    serveTable(serve, run, table, {
      'alerts.delete': async (c) => {
        const alert_id = c.req.valid('param').notification_id;
        return c.json(ok(await run(c, 'alerts.delete', { alert_id })), 200);
      },
    });
    expect((await hono.request(`/t/n/${ID}`, { method: 'DELETE' })).status).toBe(200);
    expect(runs).toEqual([['alerts.delete', { alert_id: ID }]]);
    expect(plainOnly).toBeTypeOf('function');
  });
});
