import { connect, createServer, type Server, type Socket } from 'node:net';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { type App, createApp } from '../app.js';
import { AppState } from '../platform/app-state.js';
import { type AppDeps, DEFAULT_CONFIG } from '../platform/deps.js';
import { openSharedState, type SharedState } from '../platform/redis/shared-state.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { configureLive, liveIn, publishUserEvent } from './live.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

/** A loopback TCP proxy to Redis that a test can cut (every connection dropped, none accepted) and restore. */
class CuttableProxy {
  #server: Server | null = null;
  readonly #sockets = new Set<Socket>();
  port = 0;
  constructor(readonly target: URL) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const up = connect(Number(this.target.port), this.target.hostname);
      for (const s of [client, up]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(up).pipe(client);
      client.on('close', () => up.destroy());
      up.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The events of a stream, read as they come. */
function events(res: Response) {
  const reader = res.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  const take = (name: string) => {
    for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      if (!block.includes(`event: ${name}\n`)) continue;
      return {
        id: /^id: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '') as Record<string, unknown>,
      };
    }
    return null;
  };
  // One read at a time, kept across calls: a read that lost a race with a deadline still delivers.
  let pending: ReturnType<typeof reader.read> | null = null;
  const readMore = async (until: number): Promise<'more' | 'done' | 'timeout'> => {
    pending ??= reader.read();
    const left = until - Date.now();
    if (left <= 0) return 'timeout';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await Promise.race([
      pending,
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), left);
      }),
    ]);
    clearTimeout(timer);
    if (result === null) return 'timeout';
    pending = null;
    if (result.done) return 'done';
    text += decoder.decode(result.value, { stream: true });
    return 'more';
  };
  return {
    async nextOf(name: string) {
      for (;;) {
        const found = take(name);
        if (found !== null) return found;
        if ((await readMore(Date.now() + 30_000)) !== 'more') throw new Error(`no ${name} event`);
      }
    },
    /** Every `name` event that arrives within `ms`. */
    async allOf(name: string, ms: number) {
      const got: { id?: string; data: Record<string, unknown> }[] = [];
      const deadline = Date.now() + ms;
      for (;;) {
        for (let e = take(name); e !== null; e = take(name)) got.push(e);
        if ((await readMore(deadline)) !== 'more') return got;
      }
    },
    cancel: () => reader.cancel(),
  };
}

// Three apps over one storage, each with its own connections to one Redis, stand for three
// instances; a test clock drives the candles. The day is drawn per run: a candle's claim lives in
// Redis for the candle's length, and a rerun must not find the last run's claim.
describe.skipIf(noRedis)('live events across instances on one Redis (skips without MARKETLENS_TEST_REDIS_URL)', () => {
  const day = Date.UTC(2026, 0, 15) + Math.floor(Math.random() * 3_000) * 86_400_000;
  const clock = { now: day + 12 * 3_600_000 };
  const now = () => clock.now;
  const storage = createSqliteStorage(':memory:');
  const market = createSimulatedVenue({ now });
  const states: SharedState[] = [];
  const warnings: string[][] = [[], [], []];
  const apps: { app: App; deps: AppDeps }[] = [];
  let proxy: CuttableProxy;
  let token = '';
  let userId = '';
  const open = (i: number, follow: string) =>
    Promise.resolve(
      apps[i].app.request(
        `/v2/stream?follow=${follow}`,
        { headers: { 'x-session-token': token } },
        { incoming: { socket: { remoteAddress: `10.9.${i}.${(clock.now / 1000) % 250}` } } },
      ),
    );

  beforeAll(async () => {
    proxy = new CuttableProxy(new URL(REDIS_URL));
    await proxy.start();
    // Instance 0 reaches Redis through the proxy (the one that loses it); 1 and 2 directly.
    for (let i = 0; i < 3; i++) {
      const url = i === 0 ? `redis://127.0.0.1:${proxy.port}` : REDIS_URL;
      const shared = await openSharedState(url, { maxReconnectDelayMs: 100 });
      states.push(shared);
      const state = new AppState();
      configureLive(
        { state },
        {
          settleMs: 0,
          heartbeatMs: 60_000,
          priceMs: 60_000,
          closeRetryMs: 20,
          // the clock moves past the candle's end a moment after its timer was set: asked again until it has
          closeRetries: 1_000,
          warn: (m) => warnings[i].push(m),
        },
      );
      const deps: AppDeps = {
        storage,
        config: { ...DEFAULT_CONFIG, rateLimit: { limit: 1_000_000, windowMs: 60_000 } },
        now,
        market,
        shared,
        state,
      };
      apps.push({ app: createApp(deps, { logError: () => {} }), deps });
    }
    const res = await apps[1].app.request(
      '/v1/auth/signup',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `cluster${Date.now()}@example.com`, password: 'password-123' }),
      },
      { incoming: { socket: { remoteAddress: '10.9.9.9' } } },
    );
    const b = (await res.json()) as { data: { session_token: string; user: { id: string } } };
    token = b.data.session_token;
    userId = b.data.user.id;
    await storage.users.setTier(userId, 'pro');
  });

  afterAll(async () => {
    for (const { deps } of apps) await liveIn(deps)?.close();
    await proxy.cut();
    await Promise.all(states.map((s) => s.close()));
    await storage.close();
  });

  it('an event published on one instance reaches every stream on every instance once, with one id', async () => {
    const streams = await Promise.all([0, 1, 2].map(async (i) => events(await open(i, 'bitcoin'))));
    for (const s of streams) await s.nextOf('ready');
    await publishUserEvent(apps[2].deps, userId, 'sync', { n: 1 });
    await publishUserEvent(apps[0].deps, userId, 'sync', { n: 2 });
    // Each stream gets both (waiting as long as a loaded machine needs), then nothing more.
    const got = await Promise.all(streams.map(async (s) => [await s.nextOf('sync'), await s.nextOf('sync')]));
    for (const list of got) expect(list.map((e) => e.data.n)).toEqual([1, 2]);
    for (const s of streams) expect(await s.allOf('sync', 300)).toEqual([]);
    expect(new Set(got.map((list) => list.map((e) => e.id).join()))).toHaveProperty('size', 1);
    // Resumption on another instance: the same id names the same point everywhere.
    await streams[0].cancel();
    await publishUserEvent(apps[1].deps, userId, 'sync', { n: 3 });
    const resumed = events(
      await Promise.resolve(
        apps[2].app.request(
          '/v2/stream?follow=bitcoin',
          { headers: { 'x-session-token': token, 'last-event-id': got[0][0].id ?? '' } },
          { incoming: { socket: { remoteAddress: '10.9.8.8' } } },
        ),
      ),
    );
    expect((await resumed.nextOf('ready')).data.resumed).toBe(true);
    expect([(await resumed.nextOf('sync')).data.n, (await resumed.nextOf('sync')).data.n]).toEqual([2, 3]);
    for (const s of [streams[1], streams[2], resumed]) await s.cancel();
  });

  it('computes and sends a closed candle’s analysis once for the whole cluster', async () => {
    const end = day + 86_400_000;
    clock.now = end - 40;
    const streams = await Promise.all([0, 1, 2].map(async (i) => events(await open(i, 'ethereum:d1,bitcoin:h1'))));
    for (const s of streams) await s.nextOf('ready');
    const computed = () => apps.reduce((n, { deps }) => n + (liveIn(deps)?.stats().computed ?? 0), 0);
    const before = computed();
    clock.now = end + 500;
    const got = await Promise.all(
      streams.map(async (s) => [
        await s.nextOf('analysis'),
        await s.nextOf('analysis'),
        ...(await s.allOf('analysis', 500)),
      ]),
    );
    for (const list of got) {
      // one event per followed candle (d1 and h1 both closed at midnight), never one per instance
      expect(list.map((e) => `${(e.data.asset as { id: string }).id}:${e.data.timeframe}`).sort()).toEqual([
        'bitcoin:h1',
        'ethereum:d1',
      ]);
    }
    expect(
      new Set(
        got.map((list) =>
          list
            .map((e) => e.id)
            .sort()
            .join(),
        ),
      ),
    ).toHaveProperty('size', 1);
    // computed by one instance each, not by every instance that follows them
    expect(computed() - before).toBe(2);
    for (const s of streams) await s.cancel();
  });

  it('Redis going away ends the fan-out with a warning; each instance keeps serving its own streams, then it is back', async () => {
    const zero = events(await open(0, 'bitcoin'));
    const one = events(await open(1, 'bitcoin'));
    await zero.nextOf('ready');
    await one.nextOf('ready');
    await proxy.cut();
    await publishUserEvent(apps[0].deps, userId, 'sync', { n: 'local' });
    expect((await zero.nextOf('sync')).data.n).toBe('local');
    expect(warnings[0].some((w) => /Redis unreachable/.test(w))).toBe(true);
    expect((await one.allOf('sync', 700)).map((e) => e.data.n)).toEqual([]);
    await publishUserEvent(apps[1].deps, userId, 'sync', { n: 'other' });
    expect((await one.nextOf('sync')).data.n).toBe('other');
    // Back: the proxy listens again on its port; instance 0 reconnects and the fan-out resumes.
    await proxy.start();
    for (let i = 0; i < 100 && !warnings[0].some((w) => /Redis is back/.test(w)); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(warnings[0].some((w) => /Redis is back/.test(w))).toBe(true);
    await publishUserEvent(apps[1].deps, userId, 'sync', { n: 'again' });
    // Instance 0's reader catches up from where it was: what the cluster published meanwhile
    // arrives late, once, in order (its ids made after the local ones, so they still grow).
    const late = await zero.nextOf('sync');
    const again = await zero.nextOf('sync');
    expect([late.data.n, again.data.n]).toEqual(['other', 'again']);
    expect((await one.nextOf('sync')).data.n).toBe('again');
    await zero.cancel();
    await one.cancel();
    // Nothing left: no stream, no timer, no reader.
    for (const { deps } of apps) {
      expect(liveIn(deps)?.stats()).toMatchObject({ streams: 0, timers: 0, transport: false, subscriptions: 0 });
    }
  });
});
