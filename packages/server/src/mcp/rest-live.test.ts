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
