import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { CLIENT_CLOSED_STATUS, observeRequests } from './observe.js';
import type { RequestLogEnv } from './request-log.js';
import { OBSERVED_SERVER_OPTIONS, REQUEST_ID_HEADER } from './response.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** An app whose handlers run the step first, as the platform steps do, served by @hono/node-server. */
async function observed() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const l of String(chunk).split('\n')) if (l.length > 0) lines.push(JSON.parse(l));
      done();
    },
  });
  const metrics = createMetrics();
  const step = observeRequests<RequestLogEnv>({ logger: createLogger({ format: 'json', destination }), metrics });
  const app = new Hono<RequestLogEnv>();
  app.get('/v2/assets/:asset_id', (c) => {
    step(c);
    return c.json({ id: c.get('requestId') });
  });
  app.get('/hang', (c) => {
    step(c);
    return new Promise<Response>(() => {});
  });
  app.notFound((c) => {
    step(c);
    return c.text('no route', 404);
  });
  const url = await new Promise<string>((resolve) => {
    server = serve(
      { fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: OBSERVED_SERVER_OPTIONS },
      (info) => resolve(`http://127.0.0.1:${info.port}`),
    ) as Server;
  });
  return { app, url, lines, metrics };
}

const count = async (metrics: Metrics, labels: string) => {
  const line = (await metrics.registry.metrics())
    .split('\n')
    .find((l) => l.startsWith(`http_requests_total{${labels}} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
};
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('observeRequests', () => {
  it('answers the request id and, once the response is sent, logs and counts it by route pattern', async () => {
    const { url, lines, metrics } = await observed();
    const kept = await fetch(`${url}/v2/assets/btc`, { headers: { [REQUEST_ID_HEADER]: 'trace-7' } });
    expect(kept.headers.get(REQUEST_ID_HEADER)).toBe('trace-7');
    expect(await kept.json()).toEqual({ id: 'trace-7' });
    const fresh = await fetch(`${url}/v2/assets/eth`);
    const id = fresh.headers.get(REQUEST_ID_HEADER);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await fresh.json()).toEqual({ id });
    await fetch(`${url}/nowhere`);
    await settled();
    expect(lines.map((l) => [l.requestId, l.method, l.route, l.status])).toEqual([
      ['trace-7', 'GET', '/v2/assets/:asset_id', 200],
      [id, 'GET', '/v2/assets/:asset_id', 200],
      [expect.any(String), 'GET', 'unmatched', 404],
    ]);
    expect(await count(metrics, 'method="GET",route="/v2/assets/:asset_id",status="200"')).toBe(2);
    expect(await count(metrics, 'method="GET",route="unmatched",status="404"')).toBe(1);
  });

  it('records a request whose client left before the answer as 499', async () => {
    const { url, lines, metrics } = await observed();
    const abort = new AbortController();
    const pending = fetch(`${url}/hang`, { signal: abort.signal }).catch(() => undefined);
    await settled();
    abort.abort();
    await pending;
    await settled();
    expect(lines.map((l) => [l.route, l.status])).toEqual([['/hang', CLIENT_CLOSED_STATUS]]);
    expect(await count(metrics, `method="GET",route="/hang",status="${CLIENT_CLOSED_STATUS}"`)).toBe(1);
  });

  it('only assigns the id under app.request, where there is no Node response to watch', async () => {
    const { app, lines } = await observed();
    const r = await app.request('/v2/assets/btc', { headers: { [REQUEST_ID_HEADER]: 'local-1' } });
    expect(r.headers.get(REQUEST_ID_HEADER)).toBe('local-1');
    await settled();
    expect(lines).toEqual([]);
  });
});
