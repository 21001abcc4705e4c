import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OBSERVED_SERVER_OPTIONS, type ObservedResponse, REQUEST_ID_HEADER } from './response.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function serve(respond: (res: ObservedResponse<IncomingMessage>) => void): Promise<string> {
  server = createServer(OBSERVED_SERVER_OPTIONS, (_req, res) => respond(res as ObservedResponse<IncomingMessage>));
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('ObservedResponse', () => {
  it('writes the request id with the record given to writeHead, beside the rate-limit headers, leaving the record untouched', async () => {
    const shared = { 'content-type': 'application/json' };
    const url = await serve((res) => {
      res.requestId = 'req-1';
      res.rateLimitHeaders = {
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '9',
        'x-ratelimit-used': '1',
        'x-ratelimit-window': '60',
      };
      res.writeHead(200, shared);
      res.end('{}');
    });
    const r = await fetch(url);
    expect([
      r.headers.get(REQUEST_ID_HEADER),
      r.headers.get('x-ratelimit-used'),
      r.headers.get('content-type'),
    ]).toEqual(['req-1', '1', 'application/json']);
    expect(shared).toEqual({ 'content-type': 'application/json' });
  });

  it('writes it with a reason, with no record, beside a raw array; an id the app sets wins; none when unset', async () => {
    const cases: ((res: ObservedResponse<IncomingMessage>) => void)[] = [
      (res) => res.writeHead(201, 'Made', { 'x-a': '1' }),
      (res) => res.writeHead(204),
      (res) => res.writeHead(200, ['x-b', '2']),
      (res) => res.writeHead(200, { [REQUEST_ID_HEADER]: 'from-app' }),
    ];
    let i = 0;
    const url = await serve((res) => {
      if (i < cases.length) res.requestId = 'req-2';
      const c = cases[i++];
      if (c) c(res);
      else res.writeHead(200);
      res.end();
    });
    const ids: (string | null)[] = [];
    for (let n = 0; n <= cases.length; n++) ids.push((await fetch(url)).headers.get(REQUEST_ID_HEADER));
    expect(ids).toEqual(['req-2', 'req-2', 'req-2', 'from-app', null]);
  });
});
