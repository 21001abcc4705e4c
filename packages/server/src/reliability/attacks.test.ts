import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startMain, stop } from '../testing/main-process.js';

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
});
