import { describe, expect, it } from 'vitest';
import { isCodedError, ToolError } from './errors.js';
import { createRestBackend } from './rest-backend.js';
import { callTool, toolsOf } from './server.js';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records each request and answers from `answer` (status and JSON body). */
function fakeFetch(answer: (s: Sent) => { status: number; body: unknown } | Promise<never>) {
  const sent: Sent[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const s: Sent = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>)),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(s);
    const a = await answer(s);
    return new Response(typeof a.body === 'string' ? a.body : JSON.stringify(a.body), { status: a.status });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

const ok = (data: unknown) => ({ status: 200, body: { code: 0, success: true, data, message: null } });

describe('createRestBackend', () => {
  it('calls the REST routes with the session token and the query the routes read', async () => {
    const { fetch, sent } = fakeFetch(() => ok({ rows: [] }));
    const b = createRestBackend({ baseUrl: 'http://h:1/base/', sessionToken: 'tok', fetch });
    await b.run('analysis.signals', { timeframe: 'h1', asset_class: 'coins', limit: 5 });
    await b.run('analysis.get', { asset_id: 'stock aapl', timeframe: 'd1', limit: 500 });
    await b.run('analysis.overview', { asset_id: 'bitcoin', timeframe: 'd1', limit: 500, locale: 'de' });
    await b.run('accounts.positions', { asset_ids: ['bitcoin', 'ethereum'], coin_ids: undefined });
    await b.run('accounts.orders', { asset_id: 'bitcoin', start: Date.UTC(2024, 0, 2), limit: 50, offset: 0 });
    await b.run('accounts.editPosition', { position_id: 'p1', notes: 'hedge' });
    await b.run('alerts.delete', { alert_id: 'a1' });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET http://h:1/base/v2/assets/signals?timeframe=h1&asset_class=coins&limit=5',
      'GET http://h:1/base/v2/analysis/stock%20aapl?timeframe=d1&limit=500',
      'GET http://h:1/base/v2/analysis/bitcoin/overview?timeframe=d1&limit=500',
      'GET http://h:1/base/v2/positions?asset_ids=bitcoin%2Cethereum',
      'GET http://h:1/base/v1/orders?asset_id=bitcoin&start=2024-01-02T00%3A00%3A00.000Z&limit=50&offset=0',
      'PATCH http://h:1/base/v2/positions/p1',
      'DELETE http://h:1/base/v1/notifications/a1',
    ]);
    expect(sent.every((s) => s.headers['x-session-token'] === 'tok')).toBe(true);
    expect(sent[2]?.headers['x-locale']).toBe('de');
    expect(sent[5]?.body).toEqual({ notes: 'hedge' });
  });

  it('throws an ErrorResponse as a ToolError with the same code, so the tool error carries it', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 402,
      body: { success: false, code: 1004, message: 'The h4 timeframe needs Pro' },
    }));
    const b = createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok', fetch });
    const err = await b
      .run('analysis.signal', { asset_id: 'bitcoin', timeframe: 'h4', limit: 500 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(isCodedError(err) && err.code).toBe(1004);
    const tool = toolsOf(b).find((t) => t.name === 'get_asset_signal');
    if (!tool) throw new Error('get_asset_signal not listed');
    const result = await callTool(b, tool, { asset_id: 'bitcoin', timeframe: '4h' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ code: 1004, message: 'The h4 timeframe needs Pro' });
  });

  it('answers ServiceUnavailable when the server is unreachable, slow, or not marketlens', async () => {
    const down = createRestBackend({
      baseUrl: 'http://h:1',
      sessionToken: 'tok',
      fetch: fakeFetch(() => Promise.reject(new TypeError('fetch failed'))).fetch,
    });
    await expect(down.run('market.exchanges', {})).rejects.toMatchObject({ code: 'ServiceUnavailable' });

    const slowFetch = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      })) as typeof globalThis.fetch;
    const slow = createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok', fetch: slowFetch, timeoutMs: 50 });
    await expect(slow.run('market.exchanges', {})).rejects.toMatchObject({
      code: 'ServiceUnavailable',
      message: expect.stringContaining('within 50 ms'),
    });

    const html = createRestBackend({
      baseUrl: 'http://h:1',
      sessionToken: 'tok',
      fetch: fakeFetch(() => ({ status: 502, body: '<html>Bad gateway</html>' })).fetch,
    });
    await expect(html.run('market.exchanges', {})).rejects.toMatchObject({ code: 'ServiceUnavailable' });
  });

  it('reads the account from /v1/auth/me and the favorites', async () => {
    const { fetch } = fakeFetch((s) => {
      if (s.url.endsWith('/v1/auth/me')) {
        return ok({
          user: { id: 'u1', email: 'a@b.c', created_at: '2024-01-01T00:00:00.000Z' },
          tier: 'pro',
          tier_expires_at: '2024-02-01T00:00:00.000Z',
        });
      }
      return ok([{ id: 'bitcoin' }, { id: 'solana' }]);
    });
    const info = await createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok', fetch }).run(
      'auth.accountInfo',
      {},
    );
    expect(info).toEqual({
      user: { id: 'u1', email: 'a@b.c', created_at: '2024-01-01T00:00:00.000Z' },
      tier: 'pro',
      tier_expires_at: '2024-02-01T00:00:00.000Z',
      favorites: ['bitcoin', 'solana'],
    });
  });

  it('passes a REST failure of /v1/auth/me through with its code', async () => {
    const { fetch } = fakeFetch((s) =>
      s.url.endsWith('/v1/auth/me')
        ? { status: 401, body: { success: false, code: 'InvalidSession', message: 'Session expired' } }
        : ok([]),
    );
    const b = createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok', fetch });
    await expect(b.run('auth.accountInfo', {})).rejects.toMatchObject({ code: 'InvalidSession' });
  });

  it('runs no webhook operation (no REST route), so the webhook tools are not listed', () => {
    const b = createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok' });
    const names = toolsOf(b).map((t) => t.name);
    expect(names).not.toContain('register_alert_webhook');
    expect(names).not.toContain('list_alert_webhooks');
    expect(names).toContain('get_alerts');
    expect(b.runs('alerts.registerWebhook')).toBe(false);
    expect(b.runs('auth.accountInfo')).toBe(true);
  });

  it('refuses a base URL that is not http(s) and an empty token', () => {
    expect(() => createRestBackend({ baseUrl: 'ftp://h', sessionToken: 't' })).toThrow(/http/);
    expect(() => createRestBackend({ baseUrl: 'http://h', sessionToken: ' ' })).toThrow(/empty/);
  });
});
