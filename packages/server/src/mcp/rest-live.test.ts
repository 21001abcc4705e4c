import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { createMcpServer, createRestBackend } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLive, liveIn } from '../live/live.js';
import { AppState } from '../platform/app-state.js';
import { type AppDeps, DEFAULT_CONFIG } from '../platform/deps.js';
import { type RunningServer, startServer } from '../server.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { mcpBackend } from './backend.js';

/**
 * `marketlens mcp --server <url>`: the MCP server over the REST backend, against a real server.
 * A resource subscription follows the remote's `GET /v2/stream`, so the client is sent
 * `notifications/resources/updated` when the followed candle closes there; a refusal is the
 * server's own error; nothing is left open on the server once the subscriptions are gone.
 */

const clock = { now: Date.UTC(2026, 0, 15, 12, 0, 0) };
let srv: RunningServer;
let deps: AppDeps;

beforeAll(async () => {
  const state = new AppState();
  configureLive(
    { state },
    { settleMs: 0, heartbeatMs: 60_000, priceMs: 60_000, closeRetryMs: 20, closeRetries: 1_000, warn: () => {} },
  );
  const storage = createSqliteStorage(':memory:');
  const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 1e9, windowMs: 60_000 } };
  const now = () => clock.now;
  const market = createSimulatedVenue({ now });
  deps = { storage, config, now, market, state, credentialsKey: randomBytes(32) };
  srv = await startServer(
    { port: 0, host: '127.0.0.1', dataDir: mkdtempSync(join(tmpdir(), 'ml-rest-live-')), config },
    storage,
    market,
    { deps },
  );
});

afterAll(async () => {
  await srv?.close();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('MCP over the REST backend: subscriptions follow the remote stream', () => {
  it('notifies when the followed candle closes on the server, refuses what the server refuses, leaves nothing open', async () => {
    const res = await fetch(`${srv.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rest-live@example.com', password: 'password-123' }),
    });
    const sessionToken = ((await res.json()) as { data: { session_token: string } }).data.session_token;
    const backend = createRestBackend({ baseUrl: srv.url, sessionToken });
    const server = createMcpServer(backend);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'rest-live-test', version: '0' });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.connect(clientSide);
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });

    // Refused by the server's own rules (a free user: every timeframe but 1d needs Pro).
    const refused = await client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/4h' }).catch((e) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect([refused.code, refused.data?.code]).toEqual([-32602, 1004]);

    const dayEnd = Math.floor(clock.now / 86_400_000) * 86_400_000 + 86_400_000;
    clock.now = dayEnd - 30;
    await client.subscribeResource({ uri: 'marketlens://analysis/BTC/1d' });
    await client.subscribeResource({ uri: 'marketlens://analysis/ethereum/1d' });
    // One stream on the server follows both candles (the probes of the checks are closed).
    const live = () => liveIn(deps)?.stats();
    await until(() => live()?.streams === 1 && live()?.followed === 2, 'the remote stream');
    clock.now = dayEnd + 500;
    await until(() => new Set(updated).size === 2, 'both notifications');
    expect(new Set(updated)).toEqual(new Set(['marketlens://analysis/BTC/1d', 'marketlens://analysis/ethereum/1d']));

    // Unsubscribing one reopens the stream with the other; the last gone, nothing is open there.
    await client.unsubscribeResource({ uri: 'marketlens://analysis/ethereum/1d' });
    await until(() => live()?.streams === 1 && live()?.followed === 1, 'the stream following one candle');
    await client.close();
    await until(() => live()?.streams === 0, 'the remote stream to close');
    expect(live()).toMatchObject({ streams: 0, followed: 0, subscriptions: 0 });
  });
});

describe('MCP over the REST backend: each tool answers what it answers over the server backend', () => {
  it('runs every listed tool through its REST route with the same input, and gets the same answer or code', async () => {
    const res = await fetch(`${srv.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rest-tools@example.com', password: 'password-123' }),
    });
    const signed = (await res.json()) as { data: { session_token: string; user: { id: string } } };
    const user = await deps.storage.users.byId(signed.data.user.id);
    if (user === null) throw new Error('no user');
    const connect = async (backend: Parameters<typeof createMcpServer>[0]) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(backend).connect(serverSide);
      const client = new Client({ name: 'rest-tools-test', version: '0' });
      await client.connect(clientSide);
      return client;
    };
    const overRest = await connect(createRestBackend({ baseUrl: srv.url, sessionToken: signed.data.session_token }));
    const overServer = await connect(
      mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null }),
    );
    const listed = (await overRest.listTools()).tools.map((t) => t.name);
    const calls: [string, Record<string, unknown>][] = [
      ['get_asset_analysis', { asset_id: 'bitcoin' }],
      ['get_asset_analysis', { asset_id: 'BTC', timeframe: '4h' }],
      ['get_asset_signal', { asset_id: 'ethereum' }],
      ['get_asset_overview', { asset_id: 'bitcoin', locale: 'de' }],
      ['get_asset_markets', { asset_id: 'bitcoin', market_type: 'derivatives' }],
      ['get_trading_signals', { asset_class: 'coins', limit: 5 }],
      ['get_screener', { asset_class: 'coins' }],
      ['get_fear_greed', { limit: 5, sort: 'volume', sort_dir: 'asc' }],
      ['list_assets', { asset_class: 'coins', sort: 'change_24h', limit: 5 }],
      ['list_exchanges', {}],
      ['get_exchange_detail', { exchange_id: 'nowhere' }],
      ['get_track_record', { timeframe: '1d', asset_class: 'coins' }],
      ['get_account_info', {}],
      ['add_favorite_asset', { asset_id: 'dogecoin' }],
      ['get_favorite_assets', { sort: 'name' }],
      ['remove_favorite_asset', { asset_id: 'dogecoin' }],
      ['get_positions', { asset_ids: 'bitcoin' }],
      ['get_portfolio_summary', {}],
      ['get_balances', {}],
      ['get_orders', { coin_id: 'bitcoin', limit: 1000, start: '2026-01-01T00:00:00Z' }],
      ['get_trades', { side: 'sell', offset: 3 }],
      ['position_analysis', { position_id: 'gone' }],
      ['edit_position', { position_id: 'gone', notes: 'x' }],
      ['get_alerts', {}],
      ['create_price_alert', { asset_id: 'bitcoin', target: 1_000_000 }],
      ['delete_alert', { alert_id: '00000000-0000-4000-8000-000000000000' }],
      ['get_notification_preferences', {}],
      ['update_notification_preferences', { regime_notification_disabled: true }],
      ['get_pilot_spectate', {}],
      ['get_pilot_spectate_history', { before_trade: 2 }],
    ];
    // Every tool the REST backend lists is called here (the webhook tools have no REST route).
    expect(new Set(calls.map(([name]) => name))).toEqual(new Set(listed));
    const refused: string[] = [];
    for (const [name, args] of calls) {
      const [a, b] = await Promise.all([
        overRest.callTool({ name, arguments: args }),
        overServer.callTool({ name, arguments: args }),
      ]);
      expect([name, a.isError ?? false, a.structuredContent]).toEqual([name, b.isError ?? false, b.structuredContent]);
      if (a.isError) refused.push(name);
    }
    // The refusals are the ones asked for (a paid timeframe, unknown ids, no alert channel, the pilot's eligibility).
    expect(refused).toEqual([
      'get_asset_analysis',
      'get_exchange_detail',
      'position_analysis',
      'edit_position',
      'create_price_alert',
      'delete_alert',
      'get_pilot_spectate',
      'get_pilot_spectate_history',
    ]);
    await overRest.close();
    await overServer.close();
  });
});
