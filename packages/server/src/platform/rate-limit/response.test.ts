import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PLATFORM_SERVER_OPTIONS, PlatformResponse, type RateLimitHeaders } from './response.js';

const VALUES: RateLimitHeaders = {
  'x-ratelimit-limit': '2000',
  'x-ratelimit-remaining': '1999',
  'x-ratelimit-used': '1',
  'x-ratelimit-window': '60',
};

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A real Node server with the platform's response class, answering with `respond`. */
async function serve(respond: (res: PlatformResponse<IncomingMessage>) => void): Promise<string> {
  server = createServer(PLATFORM_SERVER_OPTIONS, (_req, res) => respond(res as PlatformResponse<IncomingMessage>));
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const rateLimitOf = (r: Response) => Object.keys(VALUES).map((k) => r.headers.get(k));

describe('PlatformResponse', () => {
  it('is the response class of the server', async () => {
    const url = await serve((res) => res.end(String(res instanceof PlatformResponse)));
    expect(await (await fetch(url)).text()).toBe('true');
  });

  it('writes the values with the record given to writeHead, and leaves that record untouched', async () => {
    const shared = { 'content-type': 'application/json' };
    const url = await serve((res) => {
      res.rateLimitHeaders = { ...VALUES };
      res.writeHead(200, shared);
      res.end('{}');
    });
    const r = await fetch(url);
    expect(rateLimitOf(r)).toEqual(Object.values(VALUES));
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(shared).toEqual({ 'content-type': 'application/json' });
  });

  it('writes them with a status line reason, with no record, and beside a raw header array', async () => {
    const cases: ((res: PlatformResponse<IncomingMessage>) => void)[] = [
      (res) => res.writeHead(201, 'Made', { 'x-a': '1' }),
      (res) => res.writeHead(204),
      (res) => res.writeHead(200, ['x-a', '1', 'x-b', '2']),
    ];
    let i = 0;
    const url = await serve((res) => {
      res.rateLimitHeaders = { ...VALUES };
      cases[i++](res);
      res.end();
    });
    const made = await fetch(url);
    expect([made.status, made.statusText, made.headers.get('x-a'), ...rateLimitOf(made)]).toEqual([
      201,
      'Made',
      '1',
      ...Object.values(VALUES),
    ]);
    const empty = await fetch(url);
    expect([empty.status, ...rateLimitOf(empty)]).toEqual([204, ...Object.values(VALUES)]);
    const raw = await fetch(url);
    expect([raw.headers.get('x-b'), ...rateLimitOf(raw)]).toEqual(['2', ...Object.values(VALUES)]);
  });

  it('merges with headers set before, lets the response override a value, and adds nothing when unset', async () => {
    let i = 0;
    const url = await serve((res) => {
      if (i++ === 0) {
        res.setHeader('cache-control', 'no-store');
        res.rateLimitHeaders = { ...VALUES };
        res.writeHead(429, { 'x-ratelimit-remaining': '0' });
      } else res.writeHead(200, { 'content-type': 'text/plain' });
      res.end();
    });
    const first = await fetch(url);
    expect([first.headers.get('cache-control'), first.headers.get('x-ratelimit-remaining')]).toEqual(['no-store', '0']);
    expect(first.headers.get('x-ratelimit-used')).toBe('1');
    const plain = await fetch(url);
    expect(rateLimitOf(plain)).toEqual([null, null, null, null]);
  });
});
