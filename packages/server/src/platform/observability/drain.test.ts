import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drain, trackResponses } from './drain.js';

let server: Server | undefined;
const agents: Agent[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
  server?.closeAllConnections();
  server?.close();
});

/** A real server on port 0: `/slow` answers after `slowMs`, anything else at once; `started` resolves at each request. */
async function serve(slowMs: number) {
  let onRequest: () => void = () => {};
  server = createServer((req, res) => {
    onRequest();
    setTimeout(() => res.end(`done ${req.url}`), req.url === '/slow' ? slowMs : 0);
  });
  const inFlight = trackResponses(server);
  // Longer than any test: a connection closing early was closed by the drain, not by Node's timer.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const get = (path: string, agent: Agent) =>
    new Promise<{ status: number; body: string; socket: Socket }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path, agent }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: req.socket as Socket }));
      });
      req.on('error', reject);
      req.end();
    });
  const nextRequest = () => new Promise<void>((resolve) => (onRequest = resolve));
  return { server, get, nextRequest, inFlight };
}

const keepAlive = () => {
  const a = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(a);
  return a;
};
const closed = (socket: Socket) =>
  new Promise<number>((resolve) =>
    socket.destroyed ? resolve(0) : socket.once('close', () => resolve(performance.now())),
  );

describe('drain', () => {
  it('stops accepting at once, answers in-flight requests and requests on open keep-alive connections with connection: close', async () => {
    const { server: s, get, nextRequest, inFlight } = await serve(300);
    const idleAgent = keepAlive();
    const idle = await get('/fast', idleAgent);
    const idleSocket = idle.socket;
    const busyAgent = keepAlive();
    const started = nextRequest();
    const slow = get('/slow', busyAgent);
    await started;
    const t0 = performance.now();
    const drained = drain(s, { timeoutMs: 5_000, inFlight });
    // No new connections.
    await expect(get('/fast', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // The idle keep-alive connection is still open: a request sent on it now is answered, on it.
    await new Promise((r) => setTimeout(r, 100));
    expect(idleSocket.destroyed).toBe(false);
    const late = await get('/fast', idleAgent);
    expect([late.status, late.body]).toEqual([200, 'done /fast']);
    expect(late.socket).toBe(idleSocket);
    // The slow request is answered in full; both connections close after their responses.
    const answered = await slow;
    expect([answered.status, answered.body]).toEqual([200, 'done /slow']);
    expect(await drained).toEqual({ forced: false, answered: 1 });
    // The server closed both; the client sees it a moment later.
    await Promise.all([closed(idleSocket), closed(answered.socket)]);
    // Long before the drain period ended: nothing waited for it.
    expect(performance.now() - t0).toBeLessThan(1_500);
  });

  it('tells the client to close: the responses of the drain carry connection: close', async () => {
    const { server: s } = await serve(0);
    const port = (s.address() as AddressInfo).port;
    const agent = keepAlive();
    const headerOf = () =>
      new Promise<string | undefined>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/fast', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers.connection));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await headerOf()).toBe('keep-alive');
    const drained = drain(s, { timeoutMs: 5_000 });
    expect(await headerOf()).toBe('close');
    expect(await drained).toMatchObject({ forced: false, answered: 1 });
  });

  it('closes a connection left idle through the drain period once the period ends', async () => {
    const { server: s, get } = await serve(0);
    const idle = await get('/fast', keepAlive());
    const t0 = performance.now();
    const idleClosed = closed(idle.socket);
    const drained = drain(s, { timeoutMs: 300 });
    const at = (await idleClosed) - t0;
    expect(at).toBeGreaterThanOrEqual(280);
    expect(at).toBeLessThan(1_000);
    expect(await drained).toEqual({ forced: false, answered: 0 });
  });

  it('closes what is still busy forceAfterMs after the drain period', async () => {
    const { server: s, get, nextRequest } = await serve(10_000);
    const started = nextRequest();
    const slow = get('/slow', keepAlive());
    await started;
    const t0 = performance.now();
    expect(await drain(s, { timeoutMs: 200, forceAfterMs: 200 })).toEqual({ forced: true, answered: 0 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
    expect(performance.now() - t0).toBeLessThan(1_500);
    await expect(slow).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('resolves at once for a server that is not listening', async () => {
    const idle = createServer();
    expect(await drain(idle, { timeoutMs: 10_000 })).toEqual({ forced: false, answered: 0 });
  });
});
