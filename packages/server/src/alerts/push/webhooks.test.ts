import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RegisteredAlertWebhookSchema, ToolErrorContentSchema } from '@marketlens/contract';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { CATALOG, createMcpServer } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { TestPushService } from '../../../test/support/push-service.js';
import { iso } from '../../market/market.js';
import { mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../platform/deps.js';
import { AlertScheduler } from '../scheduler.js';
import { MAX_PUSH_ATTEMPTS } from './delivery.js';
import { noticeOf } from './notices.js';
import { httpTransport, type Resolver } from './transport.js';
import { deliverWebhooksDue } from './webhook-sender.js';
import { registerWebhook } from './webhooks.js';

const FIVE_MIN = 300_000;
const insecure: Partial<ServerConfig> = { push: { vapid: null, allowInsecureEndpoints: true } };
const secure: Partial<ServerConfig> = { push: { vapid: null, allowInsecureEndpoints: false } };

/** A webhook receiver on loopback: records every POST and answers the queued statuses (then 200). */
class Receiver {
  received: { headers: IncomingHttpHeaders; body: string }[] = [];
  answers: number[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.statusCode = this.answers.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** What a receiver does: recompute v1 over `<t>.<raw body>` and compare in constant time. */
function verifies(secret: string, header: string | string[] | undefined, body: string): boolean {
  const parts = new Map(
    String(header)
      .split(',')
      .map((kv) => kv.split('=') as [string, string]),
  );
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let push: TestPushService;
let receiver: Receiver;
beforeAll(async () => {
  push = new TestPushService();
  await push.start();
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await push.stop();
  await receiver.stop();
});

/** A user with one push device (alerts need one to be created) and an alert on bitcoin above `target`. */
async function setup(config: Partial<ServerConfig>, target?: number) {
  const credentialsKey = randomBytes(32);
  const h = harness(config, undefined, { credentialsKey });
  const deps = (extra: Partial<AppDeps> = {}): AppDeps => ({
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...config },
    now: () => h.clock.now,
    market: h.market,
    credentialsKey,
    ...extra,
  });
  const { token, userId } = await h.signup();
  const auth = { headers: { 'x-session-token': token } };
  const sub =
    config.push?.allowInsecureEndpoints === true
      ? push.subscribe()
      : { ...push.subscribe(), endpoint: 'https://push.example.com/sub/webhook-test' };
  const device = await h.json('/v1/devices', sub, auth);
  expect(device.status).toBe(200);
  const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
  const created = await h.json(
    '/v1/notifications',
    { asset_id: 'bitcoin', kind: 'price', target: target ?? Number((live * 1.5).toFixed(2)) },
    auth,
  );
  expect(created.status).toBe(200);
  const alertId = ((await created.json()) as { data: { id: string } }).data.id;
  const deviceId = ((await device.json()) as { data: { id: string } }).data.id;
  return { h, deps, token, auth, userId, alertId, deviceId, sub };
}

/** Fires the alert the way the scheduler does: stage the notice, then mark the alert triggered. */
async function fire(deps: AppDeps, userId: string, alertId: string, candle = Date.UTC(2026, 0, 15, 11, 55)) {
  const alert = await deps.storage.alerts.byId(userId, alertId);
  if (!alert) throw new Error('no alert');
  const now = deps.now();
  const notice = noticeOf({
    key: `alert:${alert.id}:${candle}:${alert.armed_at}`,
    category: 'alert',
    title: 'Bitcoin above',
    body: 'crossed',
    time: iso(now),
    data: { notification_id: alert.id },
  });
  const firing = { alert_id: alert.id, armed_at: alert.armed_at, trigger_candle: candle };
  await deps.storage.alertWebhooks.stageNotice(userId, firing, notice, now);
  const fired = await deps.storage.alerts.trigger(
    alert.id,
    alert.armed_at,
    { triggered_at: now, trigger_value: 1, trigger_candle: candle },
    notice,
  );
  expect(fired).toBe(true);
  return notice;
}

/** The highest m5 high of bitcoin over the next day (the simulated venue is a function of time). */
async function nextDayHigh(from: number): Promise<number> {
  const future = createSimulatedVenue({ now: () => from + 86_400_000 });
  const { candles } = await future.candles({ asset_id: 'bitcoin', timeframe: 'm5', limit: 288 });
  return Math.max(...candles.high);
}

async function mcpCall(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const tool = CATALOG.find((t) => t.name === name);
  const checked = (r.isError ? ToolErrorContentSchema : tool?.output)?.safeParse(r.structuredContent);
  expect(checked?.success, `${name}: ${checked?.error?.message}`).toBe(true);
  return r;
}

describe('end to end: MCP registration -> candle close -> signed webhook', () => {
  it('delivers one signed delivery per fired alert to every active device and webhook, across restarts', async () => {
    const { h, deps, userId, auth, deviceId, sub } = await setup(insecure);
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const high = await nextDayHigh(h.clock.now);
    const target = Number(((live + high) / 2).toFixed(2));
    const created = await h.json('/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target }, auth);
    const alertId = ((await created.json()) as { data: { id: string } }).data.id;
    // The first alert of setup (1.5x the price) does not fire within the day.

    // Registered over MCP, the way a client without a browser does it.
    const user = await h.storage.users.byId(userId);
    if (!user) throw new Error('no user');
    const backend = mcpBackend(deps(), {
      kind: 'session',
      user,
      tier: 'free',
      tier_expires_at: null,
      api_key_id: null,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(backend).connect(serverSide);
    const client = new Client({ name: 'webhook-test', version: '0' });
    await client.connect(clientSide);
    const reg = await mcpCall(client, 'register_alert_webhook', { url: receiver.url, name: 'bot' });
    expect(reg.isError).toBeFalsy();
    const { secret, id: webhookId } = RegisteredAlertWebhookSchema.parse(reg.structuredContent);
    const listed = await mcpCall(client, 'list_alert_webhooks');
    expect(JSON.stringify(listed.structuredContent)).not.toContain(secret);
    // Stored encrypted, never in clear.
    expect((await h.storage.alertWebhooks.byId(webhookId))?.secret).not.toContain(secret);

    const before = receiver.received.length;
    let scheduler = new AlertScheduler(deps());
    let triggered = false;
    for (let step = 0; step < 300 && !triggered; step++) {
      h.clock.now += FIVE_MIN;
      triggered = (await scheduler.tick()).triggered > 0;
    }
    expect(triggered).toBe(true);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const [delivery] = got;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(verifies(secret, delivery.headers['marketlens-signature'], delivery.body)).toBe(true);
    expect(
      verifies(secret, delivery.headers['marketlens-signature'], delivery.body.replace(/"alert"/, '"regime"')),
    ).toBe(false);
    expect(verifies(`${secret}x`, delivery.headers['marketlens-signature'], delivery.body)).toBe(false);
    const payload = JSON.parse(delivery.body) as { key: string; category: string; data: Record<string, unknown> };
    expect(payload.category).toBe('alert');
    expect(payload.data.notification_id).toBe(alertId);
    expect(delivery.headers['marketlens-idempotency-key']).toBe(payload.key);
    // The device got the same notice.
    expect(push.withKey(payload.key).map((p) => p.subscription)).toEqual([sub.id]);

    // Restart: nothing is sent again.
    await scheduler.stop();
    scheduler = new AlertScheduler(deps());
    h.clock.now += FIVE_MIN;
    await scheduler.tick();
    expect(receiver.received.length).toBe(before + 1);

    // With the device gone, the webhook alone still receives the user's next alert.
    expect((await h.request(`/v1/devices/${deviceId}`, { method: 'DELETE', ...auth })).status).toBe(200);
    const rearm = await h.request(`/v1/notifications/${alertId}`, {
      method: 'PATCH',
      headers: { ...auth.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ asset_id: 'bitcoin', kind: 'price', target }),
    });
    expect(rearm.status).toBe(200);
    const notice = await fire(deps(), userId, alertId, h.clock.now - FIVE_MIN);
    await scheduler.tick();
    const last = receiver.received.at(-1);
    expect(last && JSON.parse(last.body).key).toBe(notice.idempotency_key);
    expect(receiver.received.length).toBe(before + 2);

    const del = await mcpCall(client, 'delete_alert_webhook', { webhook_id: webhookId });
    expect(del.structuredContent).toEqual({ id: webhookId, deleted: true });
    const again = await mcpCall(client, 'delete_alert_webhook', { webhook_id: webhookId });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ code: 'WebhookNotFound' });
    const refused = await mcpCall(client, 'register_alert_webhook', { url: 'https://user:pw@hooks.example.com/x' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'InvalidWebhook' });
    expect(
      ((await mcpCall(client, 'list_alert_webhooks')).structuredContent as { webhooks: unknown[] }).webhooks,
    ).toEqual([]);
    await client.close();
    await scheduler.stop();
  });
});

describe('an MCP-only user', () => {
  it('creates alerts with a webhook and no push device; with neither it is 410 NoActiveDevice', async () => {
    const credentialsKey = randomBytes(32);
    const h = harness(insecure, undefined, { credentialsKey });
    const deps: AppDeps = {
      storage: h.storage,
      config: { ...DEFAULT_CONFIG, ...insecure },
      now: () => h.clock.now,
      market: h.market,
      credentialsKey,
    };
    const { userId } = await h.signup();
    const user = await h.storage.users.byId(userId);
    if (!user) throw new Error('no user');
    const backend = mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(backend).connect(serverSide);
    const client = new Client({ name: 'mcp-only', version: '0' });
    await client.connect(clientSide);
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const alert = { asset_id: 'bitcoin', target: Number((live * 1.2).toFixed(2)) };
    const refused = await mcpCall(client, 'create_price_alert', alert);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'NoActiveDevice' });
    const reg = await mcpCall(client, 'register_alert_webhook', { url: receiver.url, name: 'bot' });
    expect(reg.isError).toBeFalsy();
    const created = await mcpCall(client, 'create_price_alert', alert);
    expect(created.isError).toBeFalsy();
    expect(await h.storage.pushDevices.countActive(userId)).toBe(0);
    await client.close();
  });
});

describe('registration', () => {
  it('refuses non-https, other ports, credentials, loopback, private and metadata addresses', async () => {
    const { deps, userId } = await setup(secure);
    for (const url of [
      'http://hooks.example.com/x',
      'https://hooks.example.com:8443/x',
      'https://user:pw@hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.1.2.3/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://metadata/x',
      'ftp://hooks.example.com/x',
      'not a url',
    ]) {
      await expect(registerWebhook(deps(), userId, { url }), url).rejects.toMatchObject({ code: 'InvalidWebhook' });
    }
    const ok = await registerWebhook(deps(), userId, { url: 'https://hooks.example.com/x#frag' });
    expect(ok.url).toBe('https://hooks.example.com/x');
    expect(ok.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('the same URL again is the same webhook with a new secret; at most five per account', async () => {
    const { deps, userId } = await setup(secure);
    const a = await registerWebhook(deps(), userId, { url: 'https://hooks.example.com/a' });
    const b = await registerWebhook(deps(), userId, { url: 'https://hooks.example.com/a' });
    expect(b.secret).not.toBe(a.secret);
    expect(b.id).toBe(a.id);
    expect((await deps().storage.alertWebhooks.listByUser(userId)).map((w) => w.id)).toEqual([a.id]);
    for (let i = 0; i < 4; i++) await registerWebhook(deps(), userId, { url: `https://hooks.example.com/${i}` });
    await expect(registerWebhook(deps(), userId, { url: 'https://hooks.example.com/6' })).rejects.toMatchObject({
      code: 'WebhookLimitExceeded',
      status: 422,
    });
  });
});

describe('delivery', () => {
  it('refuses a public name that resolves inward (resolve-and-pin) and deactivates the webhook', async () => {
    const { deps, userId, alertId } = await setup(secure);
    const w = await registerWebhook(deps(), userId, { url: 'https://hooks.example.com/x' });
    const notice = await fire(deps(), userId, alertId);
    const asked: string[] = [];
    const rebinding: Resolver = (host, _opts, cb) => {
      asked.push(host);
      cb(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ]);
    };
    const transport = httpTransport({ allowInternal: false, resolve: rebinding });
    expect(await deliverWebhooksDue(deps({ pushTransport: transport }))).toMatchObject({ delivered: 0, gone: 1 });
    expect(asked).toEqual(['hooks.example.com']);
    const stored = await deps().storage.alertWebhooks.byId(w.id);
    expect(stored?.active).toBe(false);
    expect(stored?.deactivated_reason).toContain('169.254.169.254');
    // The refused row says why, as a refused push row does (one delivery pipeline for both).
    const [row] = await deps().storage.alertWebhooks.byKey(notice.idempotency_key);
    expect([row.delivered_at, row.dropped_at !== null, row.last_error]).toEqual([
      null,
      true,
      stored?.deactivated_reason,
    ]);
    // An inactive webhook gets no rows from later firings.
    const rows = await deps().storage.alertWebhooks.due(Number.MAX_SAFE_INTEGER, 10);
    expect(rows).toEqual([]);
  });

  it('a stored http URL is refused outside insecure mode', async () => {
    const { h, deps, userId, alertId } = await setup(insecure);
    const w = await registerWebhook(deps(), userId, { url: receiver.url });
    await fire(deps(), userId, alertId);
    const before = receiver.received.length;
    const strict = deps({ config: { ...DEFAULT_CONFIG, ...secure } });
    expect(await deliverWebhooksDue(strict)).toMatchObject({ gone: 1 });
    expect(receiver.received.length).toBe(before);
    expect((await h.storage.alertWebhooks.byId(w.id))?.active).toBe(false);
  });

  it('retries 5xx and 429 with backoff, then delivers once', async () => {
    const { h, deps, userId, alertId } = await setup(insecure);
    const w = await registerWebhook(deps(), userId, { url: receiver.url });
    const notice = await fire(deps(), userId, alertId);
    const before = receiver.received.length;
    receiver.answers.push(503, 429);
    expect((await deliverWebhooksDue(deps())).retried).toBe(1);
    expect((await deliverWebhooksDue(deps())).retried).toBe(0); // not due yet
    h.clock.now += 30_000;
    expect((await deliverWebhooksDue(deps())).retried).toBe(1);
    h.clock.now += 60_000;
    expect((await deliverWebhooksDue(deps())).delivered).toBe(1);
    const sent = receiver.received.slice(before);
    expect(sent).toHaveLength(3);
    // Every attempt is signed anew, over the same body.
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    expect(sent.every((r) => verifies(w.secret, r.headers['marketlens-signature'], r.body))).toBe(true);
    const [row] = await h.storage.alertWebhooks.byKey(notice.idempotency_key);
    expect(row).toMatchObject({ attempts: 3, dropped_at: null });
    expect(row.delivered_at).not.toBeNull();
    expect(await deliverWebhooksDue(deps())).toMatchObject({ delivered: 0, retried: 0 });
  });

  it('a 410 deactivates the webhook; so do repeated failures', async () => {
    const gone = await setup(insecure);
    const w = await registerWebhook(gone.deps(), gone.userId, { url: receiver.url });
    await fire(gone.deps(), gone.userId, gone.alertId);
    receiver.answers.push(410);
    expect(await deliverWebhooksDue(gone.deps())).toMatchObject({ gone: 1 });
    const stored = await gone.h.storage.alertWebhooks.byId(w.id);
    expect(stored).toMatchObject({ active: false, deactivated_reason: 'gone (410)' });

    const failing = await setup(insecure);
    const f = await registerWebhook(failing.deps(), failing.userId, { url: receiver.url });
    await fire(failing.deps(), failing.userId, failing.alertId);
    let failed = 0;
    for (let i = 0; i < MAX_PUSH_ATTEMPTS; i++) {
      receiver.answers.push(500);
      failed += (await deliverWebhooksDue(failing.deps())).failed;
      failing.h.clock.now += 3_600_000;
    }
    expect(failed).toBe(1);
    const dead = await failing.h.storage.alertWebhooks.byId(f.id);
    expect(dead?.active).toBe(false);
    expect(dead?.deactivated_reason).toContain(`failed ${MAX_PUSH_ATTEMPTS} times`);
  });

  it('a 4xx other than 410 drops the delivery and keeps the webhook', async () => {
    const { h, deps, userId, alertId } = await setup(insecure);
    const w = await registerWebhook(deps(), userId, { url: receiver.url });
    await fire(deps(), userId, alertId);
    receiver.answers.push(401);
    expect(await deliverWebhooksDue(deps())).toMatchObject({ failed: 1 });
    expect((await h.storage.alertWebhooks.byId(w.id))?.active).toBe(true);
  });

  it('writes nothing for a firing that did not happen, and nothing for users without a webhook', async () => {
    const staged = await setup(insecure);
    await registerWebhook(staged.deps(), staged.userId, { url: receiver.url });
    const alert = await staged.h.storage.alerts.byId(staged.userId, staged.alertId);
    if (!alert) throw new Error('no alert');
    const notice = noticeOf({ key: 'alert:x', category: 'alert', title: 't', body: 'b', time: iso(0), data: {} });
    const firing = { alert_id: alert.id, armed_at: alert.armed_at, trigger_candle: 1 };
    await staged.h.storage.alertWebhooks.stageNotice(staged.userId, firing, notice, staged.h.clock.now);
    // Edited before it fired: the trigger finds it no longer armed at that time.
    expect(
      await staged.h.storage.alerts.trigger(
        alert.id,
        alert.armed_at - 1,
        { triggered_at: 0, trigger_value: 1, trigger_candle: 1 },
        notice,
      ),
    ).toBe(false);
    expect(await staged.h.storage.alertWebhooks.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);

    const bare = await setup(insecure);
    await fire(bare.deps(), bare.userId, bare.alertId);
    expect(await bare.h.storage.alertWebhooks.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });
});
