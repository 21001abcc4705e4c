import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { bodyLimitOf, limitBody } from './body-limit.js';
import type { AppEnv } from './deps.js';
import { errorHandler } from './errors/handler.js';

function app(limit: number) {
  const a = new Hono<AppEnv>();
  a.onError(errorHandler(() => {}));
  a.post('/echo', async (c) => {
    await limitBody(c, limit);
    return c.text(await c.req.text());
  });
  return a;
}

/** A body of `chunks` chunks of `size` bytes that counts how many were pulled. */
function counted(chunks: number, size: number) {
  const pulled = { n: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.n === chunks) return controller.close();
      pulled.n++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { stream, pulled };
}

describe('limitBody', () => {
  it('refuses a declared length over the limit with 413 PayloadTooLarge, without reading the body', async () => {
    const { stream, pulled } = counted(1000, 1024);
    const res = await app(1024).request('/echo', {
      method: 'POST',
      headers: { 'content-length': String(1000 * 1024) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, code: 'PayloadTooLarge' });
    expect(pulled.n).toBeLessThanOrEqual(1);
  });

  it('counts a body of unknown length and stops reading once it passes the limit', async () => {
    const { stream, pulled } = counted(1000, 1024);
    const res = await app(4096).request('/echo', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled.n).toBeLessThan(10);
  });

  it('hands a body within the limit on, whole', async () => {
    const { stream } = counted(4, 1024);
    const res = await app(4096).request('/echo', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBe(4096);
  });

  it('is 8 KB on client registration, 64 KB on REST routes, 1 MB elsewhere', () => {
    expect(bodyLimitOf('/oauth/register')).toBe(8 * 1024);
    expect(bodyLimitOf('/v1/connections/user')).toBe(64 * 1024);
    expect(bodyLimitOf('/oauth/token')).toBe(64 * 1024);
    expect(bodyLimitOf('/mcp')).toBe(64 * 1024);
    expect(bodyLimitOf('/elsewhere')).toBe(1024 * 1024);
  });
});
