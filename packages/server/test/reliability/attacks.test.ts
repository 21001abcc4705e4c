import { createECDH, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startMain, stop } from '../support/main-process.js';

/**
 * Attacks on the built server (`dist/main.js`) over loopback, each bounded in size and time
 * (issue 21). Every figure the server's process shows (resident memory, open descriptors) is read
 * from /proc before and after, and printed for docs/reliability.md.
 */

let server: Running;
let host: string;
let port: number;

beforeAll(async () => {
  server = await startMain({});
  const url = new URL(server.url);
  host = url.hostname;
  port = Number(url.port);
}, 40_000);

afterAll(async () => {
  await stop(server);
});

/** Resident memory (MB) and open descriptors of the server process. */
function processFigures(): { rssMb: number; fds: number } {
  const pid = server.child.pid;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb / 1024), fds: readdirSync(`/proc/${pid}/fd`).length };
}

/**
 * Sends `head` on a raw connection, then up to `bodyBytes` of body in 1 MB writes (chunked when
 * `chunked`), stopping as soon as the server answers or closes; resolves with the answer and how
 * many body bytes went out. Bounded by `timeoutMs`.
 */
function rawRequest(
  head: string,
  options: { bodyBytes?: number; chunked?: boolean; timeoutMs?: number } = {},
): Promise<{ answer: string; sent: number }> {
  const { bodyBytes = 0, chunked = false, timeoutMs = 30_000 } = options;
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let answer = '';
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, sent });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
      // The whole answer is in once its declared body is.
      const split = answer.indexOf('\r\n\r\n');
      const length = Number(/content-length:\s*(\d+)/i.exec(answer)?.[1] ?? Number.NaN);
      if (split >= 0 && Number.isFinite(length) && answer.length - split - 4 >= length) finish();
    });
    socket.on('error', () => finish());
    socket.on('close', () => finish());
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const pump = () => {
      while (!done && answer === '' && sent < bodyBytes) {
        const size = Math.min(chunk.length, bodyBytes - sent);
        const piece = chunk.subarray(0, size);
        sent += size;
        if (chunked) socket.write(`${size.toString(16)}\r\n`);
        const written = socket.write(piece);
        const ok = chunked ? socket.write('\r\n') : written;
        if (!ok) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!done && answer === '' && chunked && sent >= bodyBytes) socket.write('0\r\n\r\n');
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: unknown };

const MB = 1024 * 1024;
/** The server reads and discards the rest of a refused body for up to half a second, then closes. */
const settle = () => new Promise((r) => setTimeout(r, 800));

describe('attacks on the built server', () => {
  it('refuses a 300 MB chunked body with 413 while it streams, without buffering it', async () => {
    const before = processFigures();
    const { answer, sent } = await rawRequest(
      `POST /v1/auth/signup HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      { bodyBytes: 300 * MB, chunked: true },
    );
    await settle();
    const after = processFigures();
    console.log(
      `[attack] 300 MB chunked body: ${statusOf(answer)} after ${Math.round(sent / MB)} MB sent; RSS ${before.rssMb} -> ${after.rssMb} MB, fds ${before.fds} -> ${after.fds}`,
    );
    expect(statusOf(answer)).toBe(413);
    expect(bodyOf(answer).code).toBe('PayloadTooLarge');
    expect(after.rssMb - before.rssMb).toBeLessThan(64);
  }, 60_000);

  it('refuses a declared 300 MB body with 413 before reading it', async () => {
    const before = processFigures();
    const { answer, sent } = await rawRequest(
      `POST /oauth/register HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${300 * MB}\r\n\r\n`,
      { bodyBytes: 300 * MB },
    );
    await settle();
    const after = processFigures();
    console.log(
      `[attack] 300 MB declared body: ${statusOf(answer)} after ${Math.round(sent / MB)} MB sent; RSS ${before.rssMb} -> ${after.rssMb} MB, fds ${before.fds} -> ${after.fds}`,
    );
    expect(statusOf(answer)).toBe(413);
    expect(bodyOf(answer).code).toBe('PayloadTooLarge');
    expect(after.rssMb - before.rssMb).toBeLessThan(64);
  }, 60_000);

  it('answers a 64 KB header with 431 and an ErrorResponse', async () => {
    const { answer } = await rawRequest(
      `GET /v2/config HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
      { timeoutMs: 10_000 },
    );
    console.log(`[attack] 64 KB header: ${answer.split('\r\n')[0]}`);
    expect(statusOf(answer)).toBe(431);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(bodyOf(answer)).toEqual({ success: false, code: 'HeadersTooLarge', message: expect.any(String) });
  }, 20_000);

  it('holds at most one address share of 2,000 half-sent headers, closes them within the header timeout and keeps answering others', async () => {
    const SOCKETS = 2_000;
    const before = processFigures();
    const sockets: Socket[] = [];
    // The attacker is 127.0.0.2 (also loopback), so this process's own requests come from another
    // address. It never reads: an answer (408) and a close from the server do not end its sockets.
    for (let i = 0; i < SOCKETS; i += 250) {
      await Promise.all(
        Array.from(
          { length: 250 },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect({ port, host, localAddress: '127.0.0.2' });
              sockets.push(socket);
              socket.on('error', () => undefined);
              socket.once('close', () => resolve());
              socket.once('connect', () => {
                socket.write(`GET /v2/config HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `);
                resolve();
              });
            }),
        ),
      );
    }
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 1_000));
    const during = processFigures();
    // Another client meanwhile.
    const answers: { status: number; ms: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const t = Date.now();
      const res = await fetch(`${server.url}/v2/config`, { headers: { connection: 'close' } });
      await res.arrayBuffer();
      answers.push({ status: res.status, ms: Date.now() - t });
    }
    // The server's own descriptors tell whether it still holds the attacker's connections.
    let now = processFigures();
    const deadline = Date.now() + 20_000;
    while (now.fds > before.fds + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      now = processFigures();
    }
    const releasedS = (Date.now() - started) / 1000;
    for (const socket of sockets) socket.destroy();
    await settle();
    const after = processFigures();
    const slowest = Math.max(...answers.map((a) => a.ms));
    console.log(
      `[attack] ${SOCKETS} half-sent headers from one address, never read: server fds ${before.fds} -> ${during.fds} after 1 s -> ${now.fds} ${releasedS.toFixed(1)} s after the last connect -> ${after.fds} once the attacker closed; another client: ${answers.filter((a) => a.status === 200).length}/20 answered 200, slowest ${slowest} ms; RSS ${before.rssMb} -> ${during.rssMb} -> ${after.rssMb} MB`,
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(during.fds - before.fds).toBeLessThanOrEqual(300);
    expect(now.fds - before.fds).toBeLessThanOrEqual(2);
  }, 60_000);

  it('refuses push endpoints that reach inside the network or another port', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    const endpoints = [
      'https://[64:ff9b::7f00:1]/push',
      'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      'https://[::127.0.0.1]/push',
      'https://[::a9fe:a9fe]/push',
      'https://[2002:7f00:1::1]/push',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/push',
      'https://198.18.0.1/push',
      'https://224.0.0.1/push',
      'https://[ff02::1]/push',
      'https://255.255.255.255/push',
      'https://fcm.googleapis.com:22/fcm/send/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://localhost./push',
    ];
    const accepted: string[] = [];
    for (const endpoint of endpoints) {
      const res = await fetch(`${server.url}/v1/devices`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-token': server.token },
        body: JSON.stringify({ endpoint, keys }),
      });
      if (res.status !== 400) accepted.push(`${endpoint} ${res.status}`);
    }
    console.log(`[attack] ${endpoints.length} inward or off-port push endpoints: ${accepted.length} accepted`);
    expect(accepted).toEqual([]);
  }, 20_000);

  it("does not move another account's push device to whoever knows its URL", async () => {
    const key = () => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    };
    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-session-token': token } : {}) },
        body: JSON.stringify(body),
      });
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`;
    expect((await post('/v1/devices', { endpoint, keys: key() }, server.token)).status).toBe(200);
    const signup = await post('/v1/auth/signup', { email: 'attacker@example.com', password: 'password-123' });
    const attacker = ((await signup.json()) as { data: { session_token: string } }).data.session_token;
    const stolen = await post('/v1/devices', { endpoint, keys: key() }, attacker);
    const list = async (token: string) =>
      (
        (await (await fetch(`${server.url}/v1/devices`, { headers: { 'x-session-token': token } })).json()) as {
          data: { endpoint: string }[];
        }
      ).data.map((d) => d.endpoint);
    const victimKeeps = (await list(server.token)).includes(endpoint);
    console.log(
      `[attack] re-registering another account's endpoint with other keys: ${stolen.status}, victim keeps it: ${victimKeeps}`,
    );
    expect(stolen.status).toBe(400);
    expect(victimKeeps).toBe(true);
    expect(await list(attacker)).toEqual([]);
  }, 20_000);

  it('keeps the data folder 0700 and its SQLite files 0600 outside production too', async () => {
    const data = join(server.dir, 'data');
    const modes: Record<string, string> = { data: (statSync(data).mode & 0o777).toString(8) };
    for (const name of readdirSync(data)) modes[name] = (statSync(join(data, name)).mode & 0o777).toString(8);
    console.log(`[attack] file modes (development): ${JSON.stringify(modes)}`);
    expect(modes.data).toBe('700');
    for (const [name, mode] of Object.entries(modes)) {
      if (name.startsWith('marketlens.sqlite')) expect([name, mode]).toEqual([name, '600']);
    }
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['marketlens.sqlite-wal', 'marketlens.sqlite-shm']));
  });
});
