import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppState } from '../../platform/app-state.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';
import { type RunningServer, startServer } from '../../server.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { configureLive, type Live, liveIn } from '../live.js';

/**
 * `GET /v2/stream` over real HTTP (@hono/node-server): the frames are written to the Node response
 * directly, each as one HTTP chunk in one socket write once the headers are out. What a client
 * reads is the same stream as under `app.request` (v2-stream.test.ts): the order, the resumption,
 * the slow client, the cleanup.
 */

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: boolean;
}

/** Reads an SSE body (fetch over HTTP/1.1 chunked: a framing error fails the read). */
function sseReader(res: Response) {
  const body = res.body;
  if (body === null) throw new Error('no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const queue: Frame[] = [];
  let ended = false;
  return {
    async next(): Promise<Frame | null> {
      while (queue.length === 0) {
        if (ended) return null;
        const { done, value } = await reader.read();
        if (done) ended = true;
        else text += decoder.decode(value, { stream: true });
        for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
          const frame: Frame = {};
          for (const line of text.slice(0, cut).split('\n')) {
            if (line.startsWith(':')) frame.comment = true;
            const m = /^(id|event|data): (.*)$/.exec(line);
            if (m !== null) frame[m[1] as 'id' | 'event' | 'data'] = m[2];
          }
          text = text.slice(cut + 2);
          queue.push(frame);
        }
      }
      return queue.shift() ?? null;
    },
    async nextOf(event: string): Promise<Frame> {
      for (;;) {
        const f = await this.next();
        if (f === null) throw new Error(`stream ended before a ${event} event`);
        if (f.event === event) return f;
      }
    },
    cancel: () => reader.cancel(),
  };
}

const clock = { now: Date.UTC(2026, 0, 15, 12, 0, 0) };
let srv: RunningServer;
let deps: AppDeps;
let token: string;
let userId: string;

beforeAll(async () => {
  const state = new AppState();
  configureLive(
    { state },
    { settleMs: 0, heartbeatMs: 100, priceMs: 60_000, closeRetryMs: 20, closeRetries: 1_000, warn: () => {} },
  );
  const storage = createSqliteStorage(':memory:');
  const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 1e9, windowMs: 60_000 } };
  const now = () => clock.now;
  const market = createSimulatedVenue({ now });
  deps = { storage, config, now, market, state, credentialsKey: randomBytes(32) };
  srv = await startServer(
    { port: 0, host: '127.0.0.1', dataDir: mkdtempSync(join(tmpdir(), 'ml-live-')), config },
    storage,
    market,
    { deps },
  );
  const res = await fetch(`${srv.url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'live-node@example.com', password: 'password-123' }),
  });
  const b = (await res.json()) as { data: { session_token: string; user: { id: string } } };
  token = b.data.session_token;
  userId = b.data.user.id;
});

afterAll(async () => {
  await srv?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const open = (follow: string, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}/v2/stream?follow=${encodeURIComponent(follow)}`, {
    headers: { 'x-session-token': token, ...headers },
  });

function live(): Live {
  const l = liveIn(deps);
  if (l === null) throw new Error('no live engine yet');
  return l;
}

/** Waits until `check` holds (the server sees a client's close a moment after it happens). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('GET /v2/stream over real HTTP', () => {
  it('writes each frame after the headers as one chunk in one socket write, in order, and resumes', async () => {
    const writes: string[] = [];
    const realWrite = Socket.prototype.write;
    vi.spyOn(Socket.prototype, 'write').mockImplementation(function (this: Socket, ...args: unknown[]) {
      const chunk = args[0];
      if (chunk instanceof Uint8Array) {
        const text = Buffer.from(chunk).toString('latin1');
        if (text.includes('event: sync')) writes.push(text);
      }
      return (realWrite as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof Socket.prototype.write);

    const res = await open('bitcoin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const s = sseReader(res);
    expect(JSON.parse((await s.nextOf('ready')).data ?? '')).toMatchObject({ user_events: true, resumed: false });
    for (let i = 0; i < 5; i++) await live().publishUser(userId, 'sync', JSON.stringify({ n: i }));
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await s.nextOf('sync'));
    expect(got.map((f) => JSON.parse(f.data ?? '').n)).toEqual([0, 1, 2, 3, 4]);
    // One socket write per frame: the chunk's size line, the frame, CRLF.
    expect(writes).toHaveLength(5);
    for (const w of writes) {
      const m = /^([0-9a-f]+)\r\n([\s\S]*)\r\n$/.exec(w);
      expect(m).not.toBeNull();
      expect(Number.parseInt(m?.[1] ?? '', 16)).toBe(Buffer.byteLength(m?.[2] ?? '', 'latin1'));
    }
    await s.cancel();
    await until(() => live().stats().streams === 0);

    // Missed while away: resumed from the third, on a new connection.
    for (let i = 5; i < 7; i++) await live().publishUser(userId, 'sync', JSON.stringify({ n: i }));
    const again = sseReader(await open('bitcoin', { 'last-event-id': got[2].id ?? '' }));
    expect(JSON.parse((await again.nextOf('ready')).data ?? '').resumed).toBe(true);
    const replayed = [];
    for (let i = 0; i < 4; i++) replayed.push(JSON.parse((await again.nextOf('sync')).data ?? '').n);
    expect(replayed).toEqual([3, 4, 5, 6]);
    await again.cancel();
    await until(() => live().stats().streams === 0);
  });

  it('sends the closed candle’s analysis and heartbeats, and ends with an error event, then the body’s end', async () => {
    const dayEnd = Date.UTC(2026, 0, 16);
    clock.now = dayEnd - 30;
    const s = sseReader(await open('bitcoin'));
    await s.nextOf('ready');
    clock.now = dayEnd + 500;
    const event = await s.nextOf('analysis');
    expect(JSON.parse(event.data ?? '').as_of).toBe(new Date(dayEnd - 86_400_000).toISOString());
    const rest = (await (
      await fetch(`${srv.url}/v2/analysis/bitcoin`, { headers: { 'x-session-token': token } })
    ).json()) as { data: unknown };
    expect(JSON.parse(event.data ?? '')).toEqual(rest.data);
    // The last frame goes before the end of the body (the chunked terminator).
    const other = await fetch(`${srv.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'live-node-2@example.com', password: 'password-123' }),
    });
    const second = ((await other.json()) as { data: { session_token: string } }).data.session_token;
    const t = sseReader(await open('bitcoin', { 'x-session-token': second }));
    await t.nextOf('ready');
    expect((await t.next())?.comment).toBe(true); // a heartbeat, written directly too
    await fetch(`${srv.url}/v1/auth/logout`, { method: 'POST', headers: { 'x-session-token': second } });
    const err = await t.nextOf('error');
    expect(JSON.parse(err.data ?? '')).toMatchObject({ success: false, code: 'InvalidSession' });
    expect(await t.next()).toBeNull();
    await s.cancel();
    await until(() => live().stats().streams === 0);
  });

  it('closes the connection of a client that does not read, and keeps nothing of it', async () => {
    const before = live().stats().streams;
    const url = new URL(srv.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /v2/stream?follow=bitcoin HTTP/1.1\r\nhost: ${url.host}\r\nx-session-token: ${token}\r\n\r\n`);
    socket.pause(); // reads nothing: the kernel's buffers fill, then the server's
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => {});
    await until(() => live().stats().streams === before + 1);
    const big = JSON.stringify({ pad: 'x'.repeat(100_000) });
    for (let i = 0; i < 2_000 && live().stats().streams > before; i++) {
      await live().publishUser(userId, 'sync', big);
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, 5));
    }
    expect(live().stats().streams).toBe(before);
    socket.resume();
    await until(() => closed);
    expect(live().stats()).toMatchObject({ streams: 0, subscriptions: 0 });
  });
});
