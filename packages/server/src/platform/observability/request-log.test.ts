import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { logRequest, type RequestLogEnv, requestLog } from './request-log.js';
import { REQUEST_ID_HEADER } from './response.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function logged() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const l of String(chunk).split('\n')) if (l.length > 0) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ format: 'json', destination }) };
}

function app() {
  const log = logged();
  const a = new Hono<RequestLogEnv>();
  a.use(requestLog(log.logger));
  a.get('/v2/assets/:asset_id', (c) => c.text(c.get('requestId')));
  a.get('/boom', () => {
    throw new Error('boom');
  });
  a.onError((_err, c) => c.text('internal', 500));
  return { app: a, lines: log.lines };
}

describe('requestLog', () => {
  it('keeps a well-formed x-request-id: on the context, in the response and in the log line', async () => {
    const { app: a, lines } = app();
    const r = await a.request('/v2/assets/btc', { headers: { [REQUEST_ID_HEADER]: 'edge-42.a_b' } });
    expect(r.headers.get(REQUEST_ID_HEADER)).toBe('edge-42.a_b');
    expect(await r.text()).toBe('edge-42.a_b');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request', requestId: 'edge-42.a_b', method: 'GET', status: 200 });
  });

  it('generates an id when none is sent or the one sent is malformed', async () => {
    const { app: a } = app();
    for (const sent of [undefined, '', 'has space', 'a/b', 'x'.repeat(65), 'é']) {
      const r = await a.request('/v2/assets/btc', { headers: sent === undefined ? {} : { [REQUEST_ID_HEADER]: sent } });
      const id = r.headers.get(REQUEST_ID_HEADER);
      expect(id).toMatch(UUID);
      expect(await r.text()).toBe(id);
    }
    const a1 = await a.request('/v2/assets/btc');
    const a2 = await a.request('/v2/assets/btc');
    expect(a1.headers.get(REQUEST_ID_HEADER)).not.toBe(a2.headers.get(REQUEST_ID_HEADER));
  });

  it('logs the route pattern, not the path, and a duration', async () => {
    const { app: a, lines } = app();
    await a.request('/v2/assets/btc');
    await a.request('/v2/assets/eth');
    expect(lines.map((l) => l.route)).toEqual(['/v2/assets/:asset_id', '/v2/assets/:asset_id']);
    expect(typeof lines[0].durationMs).toBe('number');
    expect(lines[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('logs a request no route answered as unmatched, a 4xx at level warn and a 5xx at level error', async () => {
    const { app: a, lines } = app();
    expect((await a.request('/nowhere/42')).status).toBe(404);
    expect((await a.request('/boom')).status).toBe(500);
    expect(lines.map((l) => [l.route, l.status, l.level])).toEqual([
      ['unmatched', 404, 40],
      ['/boom', 500, 50],
    ]);
  });

  it('logs only the failures through a child logger at warn', async () => {
    const { lines, logger } = logged();
    const a = new Hono<RequestLogEnv>();
    a.use(requestLog(logger.child({}, { level: 'warn' })));
    a.get('/ok', (c) => c.text('ok'));
    await a.request('/ok');
    await a.request('/nowhere');
    expect(lines.map((l) => [l.route, l.status])).toEqual([['unmatched', 404]]);
  });
});

describe('logRequest', () => {
  it('carries the client address, and the proxy request id as given', () => {
    const { lines, logger } = logged();
    logRequest(logger, 'nginx-4f2a', 'POST', '/v1/auth/login', 200, 1.5, { clientIp: '198.51.100.7' });
    expect(lines).toMatchObject([
      { requestId: 'nginx-4f2a', method: 'POST', route: '/v1/auth/login', status: 200, clientIp: '198.51.100.7' },
    ]);
  });

  it('moves the lines below 400 to debug, or keeps the drawn share of them; never a 4xx or 5xx', () => {
    const { lines, logger } = logged();
    logRequest(logger, 'a', 'GET', '/x', 200, 1, { policy: 'debug' });
    logRequest(logger, 'b', 'GET', '/x', 404, 1, { policy: 'debug' });
    expect(lines.map((l) => [l.requestId, l.level])).toEqual([['b', 40]]);
    const debug = logged();
    const atDebug = createLogger({
      format: 'json',
      level: 'debug',
      destination: new Writable({
        write: (c, _e, d) => {
          debug.lines.push(JSON.parse(String(c)));
          d();
        },
      }),
    });
    logRequest(atDebug, 'c', 'GET', '/x', 200, 1, { policy: 'debug' });
    expect(debug.lines.map((l) => [l.requestId, l.level])).toEqual([['c', 20]]);
    const sampled = logged();
    const draws = [0.05, 0.5, 0.09999, 0.1, 0.99];
    for (const [i, d] of draws.entries()) {
      logRequest(sampled.logger, `s${i}`, 'GET', '/x', 200, 1, { policy: 0.1, draw: () => d });
    }
    for (const status of [400, 503])
      logRequest(sampled.logger, `f${status}`, 'GET', '/x', status, 1, { policy: 0.1, draw: () => 0.99 });
    expect(sampled.lines.map((l) => l.requestId)).toEqual(['s0', 's2', 'f400', 'f503']);
  });
});
