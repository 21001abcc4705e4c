import { FREE_ALERT_LIMIT } from '@marketlens/contract';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { connectedClient, toolRefusal as toolRefusalOf, toolResult } from '../../../test/support/mcp-agreement.js';
import { TestPushService } from '../../../test/support/push-service.js';
import { openSession } from '../../auth/users.js';
import { MCP_CLIENT, mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../platform/deps.js';
import { alertUseCases } from '../use-cases.js';

/**
 * Alerts answer the same over REST and MCP (both call the alerts use cases): `get_alerts` holds the
 * `data` of `GET /v1/notifications`, `create_price_alert` answers what the REST listing then shows
 * of the alert it made, the preferences are one record, and each refusal (unknown alert, sub-1h
 * timeframe or alert cap of a free account, no device, unverified address) has one code on both.
 * Webhooks have no REST route: their tools are checked against the use case, and a webhook
 * registered over MCP is the delivery channel REST alert creation then accepts.
 */

const config: Partial<ServerConfig> = {
  push: { vapid: null, allowInsecureEndpoints: true },
  rateLimit: { limit: 1_000_000, windowMs: 60_000 },
};

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** One signed-in user on both surfaces: REST with its session, MCP over an in-memory transport. */
interface Surfaces {
  userId: string;
  headers: Record<string, string>;
  client: Client;
}

let push: TestPushService;
let h: Harness;
let deps: AppDeps;
let main: Surfaces;

/** The REST session and MCP client of a user of `h` (`deps` are the MCP side's). */
async function surfaces(h: Harness, deps: AppDeps, userId: string, token: string): Promise<Surfaces> {
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const backend = mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null });
  return { userId, headers: { 'x-session-token': token }, client: await connectedClient(backend) };
}

beforeAll(async () => {
  push = new TestPushService();
  await push.start();
  h = harness(config);
  deps = { storage: h.storage, config: { ...DEFAULT_CONFIG, ...config }, now: () => h.clock.now, market: h.market };
  const { token, userId } = await h.signup();
  main = await surfaces(h, deps, userId, token);
  expect((await h.json('/v1/devices', push.subscribe(), { headers: main.headers })).status).toBe(200);
  const payload = { asset_id: 'bitcoin', kind: 'price', target: await far(1.5) };
  expect((await h.json('/v1/notifications', payload, { headers: main.headers })).status).toBe(200);
});

afterAll(async () => {
  await push.stop();
});

/** A price target `factor` times the live price of bitcoin. */
async function far(factor: number): Promise<number> {
  return Number(((await h.market.ticker({ asset_id: 'bitcoin' })).last * factor).toFixed(2));
}

async function rest(path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await h.request(path, { ...init, headers: { ...main.headers, ...init.headers } });
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

async function listed(): Promise<{ id: string }[]> {
  return (await rest('/v1/notifications')) as { id: string }[];
}

function tool(name: string, args: Record<string, unknown> = {}, who: Surfaces = main): Promise<unknown> {
  return toolResult(who.client, name, args);
}

/** The error code of a refused tool call. */
function toolRefusal(name: string, args: Record<string, unknown>, who: Surfaces = main): Promise<unknown> {
  return toolRefusalOf(who.client, name, args);
}

/** The error code of a refused REST request, its status checked. */
async function restRefusal(res: Response, status: number): Promise<unknown> {
  expect(res.status).toBe(status);
  return ((await res.json()) as { code: unknown }).code;
}

const patchJson = (body: unknown): RequestInit => ({
  method: 'PATCH',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('alerts over REST and MCP', () => {
  it('get_alerts holds the GET /v1/notifications data', async () => {
    const data = await listed();
    expect(data).toHaveLength(1);
    expect(await tool('get_alerts')).toEqual({ alerts: data });
  });

  it('create_price_alert answers the alert as the REST listing shows it', async () => {
    const made = (await tool('create_price_alert', { asset_id: 'bitcoin', target: await far(0.5) })) as { id: string };
    expect((await listed()).find((a) => a.id === made.id)).toEqual(made);
  });

  it('delete_alert removes what REST lists, and an unknown alert is NotificationNotFound on both', async () => {
    const made = (await rest('/v1/notifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ asset_id: 'bitcoin', kind: 'price', target: await far(0.6) }),
    })) as { id: string };
    expect(await tool('delete_alert', { alert_id: made.id })).toEqual({ id: made.id, deleted: true });
    expect((await listed()).map((a) => a.id)).not.toContain(made.id);
    const code = await restRefusal(
      await h.request(`/v1/notifications/${made.id}`, { method: 'DELETE', headers: main.headers }),
      404,
    );
    expect(code).toBe('NotificationNotFound');
    expect(await toolRefusal('delete_alert', { alert_id: made.id })).toBe(code);
  });

  it('the notification preferences are one record, read and changed on either', async () => {
    expect(await tool('get_notification_preferences')).toEqual(await rest('/v1/users/notification_preferences'));
    const changed = await rest('/v1/users/notification_preferences', patchJson({ regime_notification_disabled: true }));
    expect(await tool('get_notification_preferences')).toEqual(changed);
    const back = await tool('update_notification_preferences', { regime_notification_disabled: false });
    expect(back).toEqual(await rest('/v1/users/notification_preferences'));
    expect(back).not.toEqual(changed);
  });

  it('a sub-1h timeframe is refused to a free account with 1004 on both', async () => {
    const payload = { asset_id: 'bitcoin', kind: 'rsi', target: 70, timeframe: 'm15' };
    const code = await restRefusal(await h.json('/v1/notifications', payload, { headers: main.headers }), 402);
    expect(code).toBe(1004);
    expect(await toolRefusal('create_price_alert', payload)).toBe(code);
  });

  it('past the cap of a free account, both refuse with NotificationLimitExceeded', async () => {
    let { current } = (await rest('/v1/notifications/config')) as { current: number };
    for (; current < FREE_ALERT_LIMIT; current++) {
      await tool('create_price_alert', { asset_id: 'bitcoin', target: await far(2 + current / 10) });
    }
    const payload = { asset_id: 'bitcoin', kind: 'price', target: await far(3) };
    const code = await restRefusal(await h.json('/v1/notifications', payload, { headers: main.headers }), 402);
    expect(code).toBe('NotificationLimitExceeded');
    expect(await toolRefusal('create_price_alert', payload)).toBe(code);
    expect(((await rest('/v1/notifications/config')) as { current: number }).current).toBe(FREE_ALERT_LIMIT);
  });
});

describe('alert webhooks over MCP, as REST sees them', () => {
  let other: Surfaces;

  beforeAll(async () => {
    const { token, userId } = await h.signup();
    other = await surfaces(h, deps, userId, token);
  });

  it('without a device or webhook, both refuse an alert with NoActiveDevice; a webhook registered over MCP lifts it', async () => {
    const payload = { asset_id: 'bitcoin', kind: 'price', target: await far(1.2) };
    const code = await restRefusal(await h.json('/v1/notifications', payload, { headers: other.headers }), 410);
    expect(code).toBe('NoActiveDevice');
    expect(await toolRefusal('create_price_alert', payload, other)).toBe(code);

    const registered = (await tool('register_alert_webhook', { url: 'https://hooks.example.com/a' }, other)) as {
      id: string;
      secret: string;
    };
    expect(registered.secret).toMatch(/^whsec_/);
    expect((await h.json('/v1/notifications', payload, { headers: other.headers })).status).toBe(200);
  });

  it('list_alert_webhooks and delete_alert_webhook answer what the use case does; unknown or refused ones fail alike', async () => {
    const useCase = alertUseCases(deps);
    const user = await h.storage.users.byId(other.userId);
    if (user === null) throw new Error('no user');
    const actor = {
      caller: { kind: 'session' as const, user, tier: 'free' as const, tier_expires_at: null, api_key_id: null },
      client: MCP_CLIENT,
    };
    const listedOnce = await useCase.webhooks(actor);
    expect(listedOnce).toHaveLength(1);
    expect(await tool('list_alert_webhooks', {}, other)).toEqual({ webhooks: listedOnce });

    await expect(useCase.registerWebhook(actor, { url: 'ftp://hooks.example.com/a' })).rejects.toMatchObject({
      code: 'InvalidWebhook',
    });
    expect(await toolRefusal('register_alert_webhook', { url: 'ftp://hooks.example.com/a' }, other)).toBe(
      'InvalidWebhook',
    );

    const [hook] = listedOnce;
    expect(await tool('delete_alert_webhook', { webhook_id: hook.id }, other)).toEqual({ id: hook.id, deleted: true });
    expect(await useCase.webhooks(actor)).toEqual([]);
    await expect(useCase.deleteWebhook(actor, hook.id)).rejects.toMatchObject({ code: 'WebhookNotFound' });
    expect(await toolRefusal('delete_alert_webhook', { webhook_id: UNKNOWN_ID }, other)).toBe('WebhookNotFound');
  });
});

describe('alerts where addresses must be verified', () => {
  it('an unverified account is refused an alert with EmailNotVerified on both', async () => {
    const verifying: Partial<ServerConfig> = { ...config, emailVerification: true };
    const v = harness(verifying, undefined, { mailer: { send: async () => undefined } });
    expect((await v.json('/v1/auth/signup', { email: 'new@example.com', password: 'password-123' })).status).toBe(202);
    const user = await v.storage.users.byEmail('new@example.com');
    if (user === null) throw new Error('no user');
    const { token } = await openSession(v.storage, user, v.clock.now);
    const vDeps: AppDeps = {
      storage: v.storage,
      config: { ...DEFAULT_CONFIG, ...verifying },
      now: () => v.clock.now,
      market: v.market,
    };
    const unverified = await surfaces(v, vDeps, user.id, token);
    const payload = { asset_id: 'bitcoin', kind: 'price', target: 1 };
    const code = await restRefusal(await v.json('/v1/notifications', payload, { headers: unverified.headers }), 403);
    expect(code).toBe('EmailNotVerified');
    expect(await toolRefusal('create_price_alert', payload, unverified)).toBe(code);
  });
});
