import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { iso } from '../../market/market.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../platform/deps.js';
import type { JobHandler, JobRunner } from '../../platform/jobs/runner.js';
import { AlertScheduler } from '../scheduler.js';
import { ENDPOINT_CONCURRENCY } from './delivery.js';
import { noticeOf } from './notices.js';
import { httpTransport } from './transport.js';
import { registerWebhook } from './webhooks.js';

const FIVE_MIN = 300_000;
const insecure: Partial<ServerConfig> = { push: { vapid: null, allowInsecureEndpoints: true } };

/** A receiver that reads the request, then sends its status line a byte at a time, never finishing. */
class TrickleReceiver {
  private server: Server | null = null;
  readonly sockets = new Set<Socket>();
  connections = 0;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
        const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('a')), 50);
        socket.on('close', () => clearInterval(drip));
      });
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.url = `http://127.0.0.1:${address.port}/hook`;
  }

  stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

/** A receiver that answers 200 at once and records the bodies. */
class FastReceiver {
  private server: HttpServer | null = null;
  received: string[] = [];
  url = '';

  async start(): Promise<void> {
    this.server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        this.received.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.url = `http://127.0.0.1:${address.port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

/** A job runner the test drives: one {@link pass} runs the schedule's handler, then the asset jobs it queued. */
class SteppedJobs implements JobRunner {
  private schedule: JobHandler<void> | null = null;
  private readonly workers = new Map<string, JobHandler<unknown>>();
  private queued: { name: string; data: unknown; id: string }[] = [];

  async every(_name: string, _intervalMs: number, handler: JobHandler<void>): Promise<void> {
    this.schedule = handler;
  }
  async enqueue<T>(name: string, data: T, options: { jobId: string }): Promise<void> {
    if (!this.queued.some((j) => j.id === options.jobId)) this.queued.push({ name, data, id: options.jobId });
  }
  async work<T>(name: string, handler: JobHandler<T>): Promise<void> {
    this.workers.set(name, handler as JobHandler<unknown>);
  }
  async close(): Promise<void> {}

  /** One scheduled pass and the jobs it queued, each awaited as a worker would. */
  async pass(): Promise<void> {
    await this.schedule?.(undefined, { id: 'pass', attempt: 1 });
    const jobs = this.queued;
    this.queued = [];
    for (const job of jobs) await this.workers.get(job.name)?.(job.data, { id: job.id, attempt: 1 });
  }
}

/** Waits for `check`, polling; fails after `limitMs` (a bound for a broken build, not a measurement). */
async function until(check: () => boolean, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let trickle: TrickleReceiver;
let fast: FastReceiver;
beforeAll(async () => {
  trickle = new TrickleReceiver();
  await trickle.start();
  fast = new FastReceiver();
  await fast.start();
});
afterAll(async () => {
  await trickle.stop();
  await fast.stop();
});

describe('a receiver that trickles', () => {
  it("does not delay another account's alert beyond the evaluation interval, nor its delivery", async () => {
    const credentialsKey = randomBytes(32);
    const h = harness(insecure, undefined, { credentialsKey });
    const deps: AppDeps = {
      storage: h.storage,
      config: { ...DEFAULT_CONFIG, ...insecure },
      now: () => h.clock.now,
      market: h.market,
      credentialsKey,
      // A deadline far longer than this test: the trickling attempt stays under way throughout.
      pushTransport: httpTransport({ allowInternal: true, timeoutMs: 600_000 }),
    };
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;

    // Account A: a webhook on the trickling receiver and an alert that has fired.
    const a = await h.signup();
    await registerWebhook(deps, a.userId, { url: trickle.url });
    const createdA = await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target: Number((live * 1.5).toFixed(2)) },
      { headers: { 'x-session-token': a.token } },
    );
    expect(createdA.status).toBe(200);
    const alertA = await h.storage.alerts.byId(a.userId, ((await createdA.json()) as { data: { id: string } }).data.id);
    if (!alertA) throw new Error('no alert');
    const notice = noticeOf({
      key: `alert:${alertA.id}:1:${alertA.armed_at}`,
      category: 'alert',
      title: 'Bitcoin',
      body: 'fired',
      time: iso(h.clock.now),
      data: { notification_id: alertA.id },
    });
    const firing = { alert_id: alertA.id, armed_at: alertA.armed_at, trigger_candle: h.clock.now - FIVE_MIN };
    await h.storage.alertWebhooks.stageNotice(a.userId, firing, notice, h.clock.now);
    const t = { triggered_at: h.clock.now, trigger_value: 1, trigger_candle: firing.trigger_candle };
    expect(await h.storage.alerts.trigger(alertA.id, alertA.armed_at, t, notice)).toBe(true);

    // Account B: a webhook on a receiver that answers at once, and an alert the next day's prices cross.
    const b = await h.signup();
    await registerWebhook(deps, b.userId, { url: fast.url });
    const future = createSimulatedVenue({ now: () => h.clock.now + 86_400_000 });
    const high = Math.max(...(await future.candles({ asset_id: 'bitcoin', timeframe: 'm5', limit: 288 })).candles.high);
    const target = Number(((live + high) / 2).toFixed(2));
    const createdB = await h.json(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target },
      { headers: { 'x-session-token': b.token } },
    );
    expect(createdB.status).toBe(200);
    const alertBId = ((await createdB.json()) as { data: { id: string } }).data.id;

    const jobs = new SteppedJobs();
    const scheduler = new AlertScheduler(deps, { onError: () => undefined });
    await scheduler.start(jobs);

    // The first pass starts A's delivery; the receiver holds it.
    h.clock.now += FIVE_MIN;
    await jobs.pass();
    await until(() => trickle.sockets.size === 1);
    const [held] = trickle.sockets;
    // The test clock moves 5 minutes a pass, past the claim's lease while the attempt still hangs in
    // real time, so later runs may try A's row again: at most ENDPOINT_CONCURRENCY at once.
    const heldOn = () => !held.destroyed && trickle.sockets.size <= ENDPOINT_CONCURRENCY;

    // Every later pass ends while A's attempt is still under way, and B's alert fires at the first
    // pass after the candle that crossed it closed.
    let fired = null;
    for (let step = 0; step < 300 && fired === null; step++) {
      h.clock.now += FIVE_MIN;
      await jobs.pass();
      expect(heldOn()).toBe(true);
      const alertB = await h.storage.alerts.byId(b.userId, alertBId);
      if (alertB?.status === 'triggered') fired = alertB;
    }
    if (fired === null) throw new Error("B's alert never fired");
    const { triggered_at, trigger_candle } = fired;
    if (triggered_at === null || trigger_candle === null) throw new Error('no trigger time');
    const closedAt = trigger_candle + FIVE_MIN;
    expect(triggered_at - closedAt).toBeGreaterThanOrEqual(0);
    expect(triggered_at - closedAt).toBeLessThanOrEqual(FIVE_MIN);

    // B's webhook is delivered while A's attempt still hangs on its receiver.
    await until(() => fast.received.length === 1);
    expect(heldOn()).toBe(true);
    expect(JSON.parse(fast.received[0])).toMatchObject({ category: 'alert', data: { notification_id: alertBId } });
    const [rowA] = await h.storage.alertWebhooks.byKey(notice.idempotency_key);
    expect(rowA.delivered_at).toBeNull();

    // The receiver goes away: A's attempt fails (to be retried) and the scheduler stops.
    await trickle.stop();
    await scheduler.stop();
    const [after] = await h.storage.alertWebhooks.byKey(notice.idempotency_key);
    expect(after.delivered_at).toBeNull();
    expect(after.attempts).toBeGreaterThanOrEqual(1);
  });
});
