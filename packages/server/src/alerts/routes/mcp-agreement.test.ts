import { createMcpServer } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { TestPushService } from '../../../test/support/push-service.js';
import { mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../platform/deps.js';

/**
 * Alerts answer the same over REST and MCP: `get_alerts` holds the `data` of `GET /v1/notifications`
 * and `create_price_alert` answers what the REST listing then shows of the alert it made.
 */

const config: Partial<ServerConfig> = {
  push: { vapid: null, allowInsecureEndpoints: true },
  rateLimit: { limit: 1_000_000, windowMs: 60_000 },
};

let push: TestPushService;
let h: Harness;
let auth: { headers: Record<string, string> };
let client: Client;

beforeAll(async () => {
  push = new TestPushService();
  await push.start();
  h = harness(config);
  const { token, userId } = await h.signup();
  auth = { headers: { 'x-session-token': token } };
  expect((await h.json('/v1/devices', push.subscribe(), auth)).status).toBe(200);
  const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
  const created = await h.json(
    '/v1/notifications',
    { asset_id: 'bitcoin', kind: 'price', target: Number((live * 1.5).toFixed(2)) },
    auth,
  );
  expect(created.status).toBe(200);
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const deps: AppDeps = {
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...config },
    now: () => h.clock.now,
    market: h.market,
  };
  const backend = mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(backend).connect(serverSide);
  client = new Client({ name: 'agreement-test', version: '0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await push.stop();
});

async function listed(): Promise<{ id: string }[]> {
  const res = await h.request('/v1/notifications', auth);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string }[] }).data;
}

async function tool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${JSON.stringify(r.structuredContent)}`).toBeFalsy();
  return r.structuredContent;
}

describe('alerts over REST and MCP', () => {
  it('get_alerts holds the GET /v1/notifications data', async () => {
    const data = await listed();
    expect(data).toHaveLength(1);
    expect(await tool('get_alerts')).toEqual({ alerts: data });
  });

  it('create_price_alert answers the alert as the REST listing shows it', async () => {
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const made = (await tool('create_price_alert', {
      asset_id: 'bitcoin',
      target: Number((live * 0.5).toFixed(2)),
    })) as { id: string };
    expect((await listed()).find((a) => a.id === made.id)).toEqual(made);
  });
});
