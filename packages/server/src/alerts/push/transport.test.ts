import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedLookup, httpTransport, PushEndpointRefused, type Resolver } from './transport.js';

/** A resolver that answers every name with `addresses` (no DNS needed). */
const resolveTo =
  (...addresses: string[]): Resolver =>
  (_host, _options, callback) =>
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

const lookupOnce = (resolve: Resolver, all: boolean, allowInternal = false) =>
  new Promise<string | LookupAddress[]>((ok, fail) =>
    guardedLookup(resolve, allowInternal)('push.example.test', { all }, (err, address) =>
      err ? fail(err) : ok(address as string | LookupAddress[]),
    ),
  );

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A local push service recording what it receives. */
async function pushService(respond = true) {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (respond) res.writeHead(201).end();
    });
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return { port: (server.address() as AddressInfo).port, received };
}

const push = (endpoint: string) => ({ endpoint, headers: { TTL: '60' }, body: new TextEncoder().encode('sealed') });

describe('guardedLookup', () => {
  it('refuses a name with any internal address', async () => {
    for (const inward of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.7',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:172.16.0.1',
      '64:ff9b::7f00:1',
      '::127.0.0.1',
      '2002:7f00:1::1',
      '198.18.0.1',
      '224.0.0.251',
      'ff02::fb',
      '255.255.255.255',
    ]) {
      await expect(lookupOnce(resolveTo('93.184.216.34', inward), true)).rejects.toBeInstanceOf(PushEndpointRefused);
    }
  });

  it('hands public addresses to the connection, one or all as asked', async () => {
    expect(await lookupOnce(resolveTo('93.184.216.34'), false)).toBe('93.184.216.34');
    expect(await lookupOnce(resolveTo('93.184.216.34', '2606:2800:220:1::1'), true)).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(await lookupOnce(resolveTo('127.0.0.1'), false, true)).toBe('127.0.0.1');
  });
});

describe('httpTransport', () => {
  it('never sends to a public name that resolves inward, nor to an internal address literal', async () => {
    const svc = await pushService();
    const send = httpTransport({ allowInternal: false, resolve: resolveTo('127.0.0.1') });
    await expect(send(push(`http://push.example.test:${svc.port}/sub`))).rejects.toThrow(PushEndpointRefused);
    await expect(send(push('https://push.example.test/sub'))).rejects.toThrow(/internal address 127\.0\.0\.1/);
    for (const literal of ['127.0.0.1', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '198.18.0.1']) {
      await expect(send(push(`https://${literal}/sub`)), literal).rejects.toThrow(/internal address/);
    }
    expect(svc.received).toHaveLength(0);
  });

  it('sends only https on 443 unless internal addresses are allowed', async () => {
    const svc = await pushService();
    // The name resolves to loopback so that nothing leaves this machine even if the port check were gone.
    const send = httpTransport({ allowInternal: false, resolve: resolveTo('127.0.0.1') });
    for (const endpoint of ['https://push.example.test:8443/sub', `http://push.example.test:${svc.port}/sub`]) {
      await expect(send(push(endpoint)), endpoint).rejects.toThrow(/not https on port 443/);
    }
    expect(svc.received).toHaveLength(0);
  });

  it('delivers body and headers and reports the status when internal addresses are allowed', async () => {
    const svc = await pushService();
    const send = httpTransport({ allowInternal: true, resolve: resolveTo('127.0.0.1') });
    expect(await send(push(`http://push.example.test:${svc.port}/sub`))).toEqual({ status: 201 });
    expect(svc.received).toEqual([
      expect.objectContaining({
        body: 'sealed',
        headers: expect.objectContaining({ ttl: '60', 'content-length': '6' }),
      }),
    ]);
  });

  it('gives up on a push service that does not answer in time', async () => {
    const svc = await pushService(false);
    const send = httpTransport({ allowInternal: true, timeoutMs: 100 });
    await expect(send(push(`http://127.0.0.1:${svc.port}/sub`))).rejects.toThrow(/timed out after 100 ms/);
  });

  it('cuts off a receiver that trickles: the deadline is total, not idle', async () => {
    // Headers never finish: a byte of the status line every 20 ms keeps an idle timeout from firing.
    let ticks = 0;
    server = createServer();
    server.on('connection', (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
      const drip = setInterval(() => {
        ticks++;
        if (socket.destroyed) return clearInterval(drip);
        socket.write('a');
      }, 20);
      socket.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    const send = httpTransport({ allowInternal: true, timeoutMs: 300 });
    await expect(send(push(`http://127.0.0.1:${port}/sub`))).rejects.toThrow(/timed out after 300 ms/);
    // The receiver was still sending when the request was cut (many drips, well past an idle gap of 20 ms).
    expect(ticks).toBeGreaterThanOrEqual(2);
  });

  it('answers the status of a body that trickles on, once the deadline or the read cap is reached', async () => {
    let sent = 0;
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(202);
      const drip = setInterval(() => {
        if (res.destroyed) return clearInterval(drip);
        res.write('x'.repeat(1024));
        sent += 1024;
      }, 5);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    // A large cap: the deadline ends the read.
    expect(await httpTransport({ allowInternal: true, timeoutMs: 200 })(push(`http://127.0.0.1:${port}/s`))).toEqual({
      status: 202,
    });
    // A small cap: the read ends after 4 KiB, long before the deadline.
    sent = 0;
    const capped = httpTransport({ allowInternal: true, timeoutMs: 60_000, readCap: 4096 });
    expect(await capped(push(`http://127.0.0.1:${port}/s`))).toEqual({ status: 202 });
    expect(sent).toBeLessThan(64 * 1024);
  });

  it('sends a fresh connection per request and closes it', async () => {
    const svc = await pushService();
    const sockets = new Set<unknown>();
    server?.on('connection', (s) => sockets.add(s));
    const send = httpTransport({ allowInternal: true });
    for (let i = 0; i < 3; i++) expect(await send(push(`http://127.0.0.1:${svc.port}/sub`))).toEqual({ status: 201 });
    expect(sockets.size).toBe(3);
    expect(svc.received.map((r) => r.headers.connection)).toEqual(['close', 'close', 'close']);
  });
});
