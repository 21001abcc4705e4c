import { ERROR_CODES } from '@marketlens/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { AppState } from '../../platform/app-state.js';
import { configureLive, type Live, type LiveOptions, liveIn } from '../live.js';

/** One SSE frame as read: its fields, or a comment (heartbeat). */
interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: boolean;
}

/** Reads an SSE body frame by frame. */
function sseReader(res: Response) {
  const body = res.body;
  if (body === null) throw new Error('no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const queue: Frame[] = [];
  let ended = false;
  const parse = () => {
    for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = true;
        const m = /^(id|event|data): (.*)$/.exec(line);
        if (m !== null) frame[m[1] as 'id' | 'event' | 'data'] = m[2];
      }
      queue.push(frame);
    }
  };
  return {
    /** The next frame (waits for it); null once the stream ended. */
    async next(): Promise<Frame | null> {
      while (queue.length === 0) {
        if (ended) return null;
        const { done, value } = await reader.read();
        if (done) ended = true;
        else text += decoder.decode(value, { stream: true });
        parse();
      }
      return queue.shift() ?? null;
    },
    /** The next frame of `event` (skipping heartbeats and other events). */
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

// The tests move the clock past a candle's end a moment after its timer was set: the close is
// asked again (every 20 ms, up to 20 s) until the clock has moved, however loaded the machine.
const SHORT: Partial<LiveOptions> = {
  settleMs: 0,
  heartbeatMs: 60_000,
  priceMs: 60_000,
  closeRetryMs: 20,
  closeRetries: 1_000,
  warn: () => {},
};

/** An app whose live engine has `options`, and a free user with a session and an API key. */
async function setup(options: Partial<LiveOptions> = {}) {
  const state = new AppState();
  configureLive({ state }, { ...SHORT, ...options });
  const h = harness({}, undefined, { state });
  const user = await h.signup();
  const key = await h.apiKey(user.token);
  const open = (follow: string, headers: Record<string, string>) =>
    h.request(`/v2/stream?follow=${encodeURIComponent(follow)}`, { headers });
  return { h, state, user, key, open };
}

const errorOf = async (res: Response) => (await res.json()) as { success: boolean; code: string | number };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /v2/stream: refusals before the stream starts', () => {
  it('answers the contract errors, never a stream', async () => {
    const { h, key, open } = await setup();
    const k = { 'x-api-key': key };
    // unknown asset, stablecoin, gated timeframe, too many subscriptions, malformed follow, no credential
    let r = await open('nosuchcoin', k);
    expect([r.status, (await errorOf(r)).code]).toEqual([400, 'UnknownAsset']);
    r = await open('tether', k);
    expect([r.status, (await errorOf(r)).code]).toEqual([400, 'StablecoinNotAnalyzed']);
    r = await open('bitcoin:h1', k);
    expect([r.status, (await errorOf(r)).code]).toEqual([402, 1004]);
    r = await open('bitcoin,ethereum,solana,cardano,ripple,dogecoin', k);
    expect([r.status, (await errorOf(r)).code]).toEqual([422, ERROR_CODES.StreamSubscriptionLimitExceeded.code]);
    r = await open('bitcoin:h7', k);
    expect([r.status, (await errorOf(r)).code]).toEqual([400, 'InvalidRequest']);
    r = await h.request('/v2/stream', { headers: k });
    expect([r.status, (await errorOf(r)).code]).toEqual([400, 'InvalidRequest']);
    r = await open('bitcoin', {});
    expect(r.status).toBe(401);
    r = await open('bitcoin', { 'x-api-key': 'mlk_not-a-key' });
    expect([r.status, (await errorOf(r)).code]).toEqual([401, 'InvalidApiKey']);
    // A Pro user may follow h1 and more pairs; duplicates (by id or ticker) count once.
    const pro = await h.signup();
    await h.storage.users.setTier(pro.userId, 'pro');
    r = await open('bitcoin:h1,BTC:h1,bitcoin,ethereum,solana,cardano,ripple', { 'x-session-token': pro.token });
    expect(r.status).toBe(200);
    const s = sseReader(r);
    const ready = JSON.parse((await s.nextOf('ready')).data ?? '') as { subscriptions: unknown[] };
    expect(ready.subscriptions).toHaveLength(6);
    await s.cancel();
  });
});

describe('GET /v2/stream: events', () => {
  it('sends the analysis of a followed candle when it closes, the same data as /v2/analysis', async () => {
    const { h, key, open } = await setup();
    const dayEnd = Date.UTC(2026, 0, 16);
    h.clock.now = dayEnd - 30;
    const res = await open('bitcoin', { 'x-api-key': key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const s = sseReader(res);
    const ready = JSON.parse((await s.nextOf('ready')).data ?? '');
    expect(ready).toMatchObject({
      subscriptions: [{ asset_id: 'bitcoin', timeframe: 'd1' }],
      user_events: false,
      resumed: false,
      retention_seconds: 600,
    });
    // The candle's end comes (the timer was set 30 ms ahead of the clock); the clock moves past it.
    h.clock.now = dayEnd + 500;
    const event = await s.nextOf('analysis');
    expect(event.id).toMatch(/^\d+-\d+$/);
    const data = JSON.parse(event.data ?? '');
    expect(data.as_of).toBe(new Date(dayEnd - 86_400_000).toISOString());
    const rest = (await (await h.request('/v2/analysis/bitcoin', { headers: { 'x-api-key': key } })).json()) as {
      data: unknown;
    };
    expect(data).toEqual(rest.data);
    await s.cancel();
  });

  it('sends a price when it moved, and a session its alerts and syncs; ids only grow', async () => {
    const { h, user, open, state } = await setup({ priceMs: 10 });
    const res = await open('bitcoin', { 'x-session-token': user.token });
    const s = sseReader(res);
    expect(JSON.parse((await s.nextOf('ready')).data ?? '').user_events).toBe(true);
    const p1 = await s.nextOf('price');
    const first = JSON.parse(p1.data ?? '');
    expect(first).toMatchObject({ asset_id: 'bitcoin' });
    expect(first.price).toBeGreaterThan(0);
    h.clock.now += 3_600_000; // the simulated venue's price moves with its clock
    const p2 = await s.nextOf('price');
    expect(JSON.parse(p2.data ?? '').price).not.toBe(first.price);
    const alert = {
      alert_id: 'a1',
      asset_id: 'bitcoin',
      kind: 'price',
      title: 't',
      body: 'b',
      value: 1,
      candle_time: new Date(0).toISOString(),
      triggered_at: new Date(0).toISOString(),
    };
    const live = running(state);
    await live.publishUser(user.userId, 'alert', JSON.stringify(alert));
    await live.publishUser('someone-else', 'alert', JSON.stringify({ ...alert, alert_id: 'not-mine' }));
    await live.publishUser(user.userId, 'sync', JSON.stringify({ connection_id: 'c1' }));
    const a = await s.nextOf('alert');
    expect(JSON.parse(a.data ?? '')).toEqual(alert);
    const y = await s.nextOf('sync');
    expect(JSON.parse(y.data ?? '').connection_id).toBe('c1');
    const ids = [p1, p2, a, y].map((f) => (f.id ?? '').split('-').map(Number));
    for (let i = 1; i < ids.length; i++) {
      const [ms, seq] = ids[i];
      const [pms, pseq] = ids[i - 1];
      expect(ms > pms || (ms === pms && seq > pseq)).toBe(true);
    }
    await s.cancel();
  });
});

describe('GET /v2/stream: resumption, slow clients, credentials, cleanup', () => {
  it('Last-Event-ID resumes without loss within the window, and says so when it cannot', async () => {
    const { user, open, state } = await setup();
    const headers = { 'x-session-token': user.token };
    const first = sseReader(await open('bitcoin', headers));
    await first.nextOf('ready');
    const live = running(state);
    for (let i = 0; i < 3; i++) await live.publishUser(user.userId, 'sync', JSON.stringify({ n: i }));
    const seen = [await first.nextOf('sync'), await first.nextOf('sync')];
    await first.cancel();
    // Missed: the third event of the first stream, and two published while disconnected.
    for (let i = 3; i < 5; i++) await live.publishUser(user.userId, 'sync', JSON.stringify({ n: i }));
    const again = sseReader(await open('bitcoin', { ...headers, 'last-event-id': seen[1].id ?? '' }));
    expect(JSON.parse((await again.nextOf('ready')).data ?? '').resumed).toBe(true);
    const replayed = [await again.nextOf('sync'), await again.nextOf('sync'), await again.nextOf('sync')];
    expect(replayed.map((f) => JSON.parse(f.data ?? '').n)).toEqual([2, 3, 4]);
    await again.cancel();
    // An id from before the window (or unreadable) starts afresh, marked not resumed.
    const stale = sseReader(await open('bitcoin', { ...headers, 'last-event-id': '1-0' }));
    expect(JSON.parse((await stale.nextOf('ready')).data ?? '').resumed).toBe(false);
    await stale.cancel();
  });

  it('disconnects a client that lets more than the buffer wait, and keeps nothing of it', async () => {
    const { user, open, state } = await setup({ bufferBytes: 16_384 });
    const res = await open('bitcoin', { 'x-session-token': user.token });
    const live = running(state);
    expect(live.stats().streams).toBe(1);
    // Nobody reads: 64 events of 1 KB overflow 16 KB.
    const big = JSON.stringify({ pad: 'x'.repeat(1_000) });
    for (let i = 0; i < 64; i++) await live.publishUser(user.userId, 'sync', big);
    expect(live.stats()).toMatchObject({ streams: 0, timers: 0, subscriptions: 0 });
    const reader = res.body?.getReader();
    await expect(
      (async () => {
        for (;;) if ((await reader?.read())?.done) return 'ended';
      })(),
    ).rejects.toThrow(/too slowly/);
  });

  it('ends the stream with an error event when the key is revoked or the session signs out', async () => {
    const { h, user, key, open } = await setup({ heartbeatMs: 20 });
    const byKey = sseReader(await open('bitcoin', { 'x-api-key': key }));
    await byKey.nextOf('ready');
    const heartbeat = await byKey.next();
    expect(heartbeat?.comment).toBe(true);
    const keys = (await (
      await h.request('/v1/users/api_keys', { headers: { 'x-session-token': user.token } })
    ).json()) as {
      data: { id: string }[];
    };
    const del = await h.request(`/v1/users/api_keys/${keys.data[0].id}`, {
      method: 'DELETE',
      headers: { 'x-session-token': user.token },
    });
    expect(del.status).toBe(200);
    const err = await byKey.nextOf('error');
    expect(JSON.parse(err.data ?? '')).toMatchObject({ success: false, code: 'InvalidApiKey' });
    expect(err.id).toBeUndefined();
    expect(await byKey.next()).toBeNull();

    const bySession = sseReader(await open('bitcoin', { 'x-session-token': user.token }));
    await bySession.nextOf('ready');
    const out = await h.request('/v1/auth/logout', { method: 'POST', headers: { 'x-session-token': user.token } });
    expect(out.status).toBe(200);
    expect(JSON.parse((await bySession.nextOf('error')).data ?? '')).toMatchObject({ code: 'InvalidSession' });
    expect(await bySession.next()).toBeNull();

    // An expired session ends the same way.
    const other = await h.signup();
    const byExpiring = sseReader(await open('bitcoin', { 'x-session-token': other.token }));
    await byExpiring.nextOf('ready');
    h.clock.now += 400 * 86_400_000;
    expect(JSON.parse((await byExpiring.nextOf('error')).data ?? '')).toMatchObject({ code: 'InvalidSession' });
  });

  it('leaves no timer and no listener behind when the clients go away', async () => {
    // Count every timer the live engine makes, and which of them are still pending.
    const pending = new Set<unknown>();
    const ours = () => /[\\/]live[\\/](live|transport)\.ts/.test(new Error().stack ?? '');
    const realSetTimeout = globalThis.setTimeout;
    const realSetInterval = globalThis.setInterval;
    const realClearTimeout = globalThis.clearTimeout;
    const realClearInterval = globalThis.clearInterval;
    let made = 0;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      const mine = ours();
      const t = realSetTimeout(() => {
        pending.delete(t);
        fn();
      }, ms);
      if (mine) {
        made++;
        pending.add(t);
      }
      return t;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
      const t = realSetInterval(fn, ms);
      if (ours()) {
        made++;
        pending.add(t);
      }
      return t;
    }) as typeof setInterval);
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((t: ReturnType<typeof setTimeout>) => {
      pending.delete(t);
      realClearTimeout(t);
    }) as typeof clearTimeout);
    vi.spyOn(globalThis, 'clearInterval').mockImplementation(((t: ReturnType<typeof setInterval>) => {
      pending.delete(t);
      realClearInterval(t);
    }) as typeof clearInterval);

    const { h, user, open, state } = await setup({ priceMs: 10, heartbeatMs: 10 });
    await h.storage.users.setTier(user.userId, 'pro');
    const other = await h.signup();
    await h.storage.users.setTier(other.userId, 'pro');
    const streams = await Promise.all([
      open('bitcoin:h1,ethereum:m5', { 'x-session-token': other.token }),
      open('bitcoin:d1,solana:h4', { 'x-session-token': other.token }),
      open('ethereum:m5', { 'x-session-token': other.token }),
    ]);
    const readers = streams.map(sseReader);
    for (const r of readers) await r.nextOf('price');
    const live = running(state);
    // a heartbeat tick, a price poll, and one candle clock per followed timeframe (h1, m5, d1, h4)
    expect(live.stats()).toMatchObject({ streams: 3, timers: 6, followed: 4 });
    expect(made).toBeGreaterThanOrEqual(6);
    expect(pending.size).toBe(6);
    await readers[0].cancel();
    expect(live.stats()).toMatchObject({ streams: 2, timers: 5, followed: 3 });
    await readers[1].cancel();
    await readers[2].cancel();
    expect(live.stats()).toMatchObject({ streams: 0, timers: 0, followed: 0, topics: 0, subscriptions: 0 });
    // in flight price reads finish on their own; nothing of the engine is pending any more
    await new Promise((resolve) => realSetTimeout(resolve, 50));
    expect(pending.size).toBe(0);
  });

  it('is described in the OpenAPI document with each event schema', async () => {
    const { h } = await setup();
    const doc = (await (await h.request('/docs/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
      components: { schemas: Record<string, { oneOf?: unknown[] }> };
    };
    const get = doc.paths['/v2/stream'].get;
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '402', '403', '422', '429', '500']);
    expect(JSON.stringify(get.responses['200'].content?.['text/event-stream'])).toContain(
      '#/components/schemas/StreamEvent',
    );
    const events = JSON.stringify(doc.components.schemas.StreamEvent);
    for (const name of ['StreamReady', 'Analysis', 'StreamPrice', 'StreamAlert', 'StreamSync', 'ErrorResponse']) {
      expect(events).toContain(`#/components/schemas/${name}`);
    }
  });
});

/** The app's live engine (made by its first stream). */
function running(state: AppState): Live {
  const live = liveIn({ state });
  if (live === null) throw new Error('no live engine yet');
  return live;
}
