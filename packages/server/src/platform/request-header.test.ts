import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './deps.js';
import { requestHeader } from './request-header.js';

describe('requestHeader', () => {
  const app = new Hono<AppEnv>();
  app.get('/h', (c) =>
    c.json({
      token: requestHeader(c, 'x-session-token') ?? null,
      platform: requestHeader(c, 'x-platform') ?? null,
      authorization: requestHeader(c, 'authorization') ?? null,
    }),
  );
  type Read = { token: string | null; platform: string | null; authorization: string | null };
  const read = async (headers: Record<string, string>, nodeHeaders?: Record<string, string>) =>
    (await (
      await app.request('/h', { headers }, nodeHeaders ? { incoming: { headers: nodeHeaders } } : {})
    ).json()) as Read;

  it("reads Node's parsed headers when the adapter passes them, hono's otherwise, with the same answer", async () => {
    const sent = { 'x-session-token': 'mls_abc', authorization: 'Bearer x' };
    const viaHono = await read(sent);
    const viaNode = await read(sent, { host: 'h', 'x-session-token': 'mls_abc', authorization: 'Bearer x' });
    expect(viaNode).toEqual({ token: 'mls_abc', platform: null, authorization: 'Bearer x' });
    expect(viaHono).toEqual(viaNode);
  });

  it('leaves an empty value to hono, which joins repeats Node keeps once', async () => {
    // Node keeps the first `authorization` of two ('' here); hono's view of the request has both.
    const r = await read({ authorization: 'Bearer y' }, { host: 'h', authorization: '' });
    expect(r.authorization).toBe('Bearer y');
  });
});
