import { randomBytes } from 'node:crypto';
import { createSimulatedVenue, SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPushService } from '../../test/support/push-service.js';
import { AlertScheduler } from '../alerts/scheduler.js';
import { createApp } from '../app.js';
import { startBackgroundJobs } from '../background.js';
import { AppState } from '../platform/app-state.js';
import { type AppDeps, DEFAULT_CONFIG } from '../platform/deps.js';
import { InProcessJobs } from '../platform/jobs/in-process.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { configureLive } from './live.js';

/** The events of a stream, read as they come (`nextOf` waits for the next of one name). */
function events(res: Response) {
  const reader = res.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  return {
    async nextOf(name: string): Promise<{ id?: string; data: Record<string, unknown> }> {
      for (;;) {
        for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
          const block = text.slice(0, cut);
          text = text.slice(cut + 2);
          if (!block.includes(`event: ${name}\n`)) continue;
          const id = /^id: (.*)$/m.exec(block)?.[1];
          return { id, data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '') as Record<string, unknown> };
        }
        const { done, value } = await reader.read();
        if (done) throw new Error(`stream ended before a ${name} event`);
        text += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

const config = { ...DEFAULT_CONFIG, push: { vapid: null, allowInsecureEndpoints: true } };

/** An app whose deps the test keeps (the alert scheduler and the background jobs share them). */
function appOf() {
  const clock = { now: Date.UTC(2026, 0, 15, 12) };
  const now = () => clock.now;
  const state = new AppState();
  configureLive({ state }, { heartbeatMs: 60_000, priceMs: 60_000, warn: () => {} });
  const deps: AppDeps = {
    storage: createSqliteStorage(':memory:'),
    config,
    now,
    market: createSimulatedVenue({ now }),
    state,
    credentialsKey: randomBytes(32),
  };
  const app = createApp(deps, { logError: () => {} });
  const request = (path: string, init?: RequestInit) =>
    Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: '203.0.113.9' } } }));
  const post = (path: string, body: unknown, token: string) =>
    request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-token': token },
      body: JSON.stringify(body),
    });
  const signup = async () => {
    const res = await request('/v1/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `live${randomBytes(4).toString('hex')}@example.com`, password: 'password-123' }),
    });
    const b = (await res.json()) as { data: { session_token: string; user: { id: string } } };
    return { token: b.data.session_token, userId: b.data.user.id };
  };
  return { deps, clock, request, post, signup };
}

let push: TestPushService;
beforeAll(async () => {
  push = new TestPushService();
  await push.start();
});
afterAll(async () => {
  await push.stop();
});

describe('user events reach the user’s streams from where they happen', () => {
  it('an alert that fires in the alert pass is an `alert` event on its owner’s stream only', async () => {
    const { deps, clock, request, post, signup } = appOf();
    const owner = await signup();
    const other = await signup();
    expect((await post('/v1/devices', push.subscribe(), owner.token)).status).toBe(200);
    const market = deps.market;
    if (market === undefined) throw new Error('no market');
    const last = (await market.ticker({ asset_id: 'bitcoin' })).last;
    // Above the price, within the next day's range of the simulated venue (a function of time).
    const future = createSimulatedVenue({ now: () => clock.now + 86_400_000 });
    const high = Math.max(...(await future.candles({ asset_id: 'bitcoin', timeframe: 'm5', limit: 288 })).candles.high);
    expect(high).toBeGreaterThan(last);
    const created = await post(
      '/v1/notifications',
      { asset_id: 'bitcoin', kind: 'price', target: (last + high) / 2 },
      owner.token,
    );
    expect(created.status).toBe(200);
    const alertId = ((await created.json()) as { data: { id: string } }).data.id;

    const mine = events(await request('/v2/stream?follow=bitcoin', { headers: { 'x-session-token': owner.token } }));
    const theirs = events(await request('/v2/stream?follow=bitcoin', { headers: { 'x-session-token': other.token } }));
    await mine.nextOf('ready');
    await theirs.nextOf('ready');
    const scheduler = new AlertScheduler(deps);
    let fired = 0;
    for (let step = 0; step < 300 && fired === 0; step++) {
      clock.now += 300_000;
      fired = (await scheduler.tick()).triggered;
    }
    expect(fired).toBe(1);
    const event = await mine.nextOf('alert');
    expect(event.id).toMatch(/^\d+-\d+$/);
    expect(event.data).toMatchObject({ alert_id: alertId, asset_id: 'bitcoin', kind: 'price' });
    expect(String(event.data.title)).toContain('Bitcoin');
    // The other user's stream got nothing of it: its next user event is one of its own.
    const { publishUserEvent } = await import('./live.js');
    await publishUserEvent(deps, other.userId, 'sync', { marker: true });
    expect((await theirs.nextOf('sync')).data).toEqual({ marker: true });
    await scheduler.stop();
    await mine.cancel();
    await theirs.cancel();
  });

  it('a finished sync of a connection is a `sync` event on its owner’s stream', async () => {
    const { deps, request, post, signup } = appOf();
    const jobs = await startBackgroundJobs(deps, new InProcessJobs());
    try {
      const user = await signup();
      const stream = events(await request('/v2/stream?follow=bitcoin', { headers: { 'x-session-token': user.token } }));
      await stream.nextOf('ready');
      // Connecting syncs the connection at once (the simulated venue's demo account).
      const res = await post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID }, user.token);
      const body = (await res.json()) as { data: { id: string } };
      expect(res.status, JSON.stringify(body)).toBe(200);
      const id = body.data.id;
      const event = await stream.nextOf('sync');
      expect(event.data).toMatchObject({ connection_id: id, ok: true, error: null });
      expect(Number(event.data.positions)).toBeGreaterThanOrEqual(0);
      await stream.cancel();
    } finally {
      await jobs.stop();
    }
  });
});
