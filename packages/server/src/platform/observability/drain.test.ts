import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drain } from './drain.js';

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
  return { server, get, nextRequest };
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
  it('lets an in-flight request finish, closes idle keep-alive connections at once, and stops accepting', async () => {
    const { server: s, get, nextRequest } = await serve(300);
    const idle = await get('/fast', keepAlive());
    const idleClosed = closed(idle.socket);
    const busyAgent = keepAlive();
    const started = nextRequest();
    const slow = get('/slow', busyAgent);
    await started;
    const t0 = performance.now();
    const drained = drain(s, { timeoutMs: 5_000 });
    // Idle at the call: closed straight away.
    expect((await idleClosed) - t0).toBeLessThan(150);
    // No new connections.
    await expect(get('/fast', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // The slow request is answered in full, then its keep-alive connection is closed.
    const answered = await slow;
    expect([answered.status, answered.body]).toEqual([200, 'done /slow']);
    const slowClosed = closed(answered.socket);
    expect(await drained).toEqual({ forced: false });
    expect((await slowClosed) - t0).toBeLessThan(1_000);
    expect(performance.now() - t0).toBeLessThan(1_000);
  });

  it('closes what is left once the timeout passes', async () => {
    const { server: s, get, nextRequest } = await serve(10_000);
    const started = nextRequest();
    const slow = get('/slow', keepAlive());
    await started;
    const t0 = performance.now();
    expect(await drain(s, { timeoutMs: 200 })).toEqual({ forced: true });
    expect(performance.now() - t0).toBeLessThan(1_500);
    await expect(slow).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
