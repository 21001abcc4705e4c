/**
 * MCP resources, subscriptions, prompts, completions and logging with the SDK's own `Client`: over
 * Streamable HTTP against `/mcp` (OAuth token, a session, the GET stream) and over stdio (the SDK's
 * `StdioServerTransport` on a pipe, the framing `marketlens mcp` speaks). Candle closes are driven
 * by the simulated venue's clock, as the stream tests drive it; listeners and timers are counted.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { serve } from '@hono/node-server';
import { createMcpServer } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../test/support/harness.js';
import { configureLive, type LiveOptions, liveIn } from '../live/live.js';
import { AppState } from '../platform/app-state.js';
import { type AppDeps, DEFAULT_CONFIG } from '../platform/deps.js';
import { mcpBackend } from './backend.js';
import { mcpSessionsIn } from './sessions.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

// As the stream tests: the close is asked again every 20 ms until the clock has moved past it.
// A session whose GET stream went keeps following its candles this long (real time), so the
// tests wait for it; long enough for a resume to happen within it on a loaded machine.
const RETENTION_MS = 8_000;
const SHORT: Partial<LiveOptions> = {
  retentionMs: RETENTION_MS,
  settleMs: 0,
  heartbeatMs: 60_000,
  priceMs: 60_000,
  closeRetryMs: 20,
  closeRetries: 1_000,
  warn: () => {},
};

let h: Harness;
let state: AppState;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  state = new AppState();
  configureLive({ state }, SHORT);
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } }, undefined, { state });
  const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // GET streams a failed test left open would hold the server open.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
});

afterAll(async () => {
  await close();
});

/** An access token for `/mcp`, minted through the server's own flow (register, consent, code + PKCE). */
async function mint(session: string): Promise<string> {
  const reg = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'resources test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const auth = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-session-token': session },
    body: new URLSearchParams({
      client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      resource: `${base}/mcp`,
      scope: 'mcp',
      action: 'approve',
    }),
    redirect: 'manual',
  });
  const code = new URL(auth.headers.get('location') ?? 'x:/').searchParams.get('code') ?? '';
  const tok = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: verifier,
      resource: `${base}/mcp`,
    }),
  });
  return ((await tok.json()) as { access_token: string }).access_token;
}

/** Notifications a client received, and a wait for the next one matching. */
function collect(client: Client) {
  const updated: string[] = [];
  const logged: { level: string; data: unknown }[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
    wake();
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logged.push({ level: n.params.level, data: n.params.data });
    wake();
  });
  return {
    updated,
    logged,
    async until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
      const end = Date.now() + ms;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

/** A signed-up user (Pro when asked) with a connected HTTP client. */
async function httpClient(pro = false) {
  const user = await h.signup();
  if (pro) await h.storage.users.setTier(user.userId, 'pro');
  const token = await mint(user.token);
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'resources-test', version: '0' });
  const notes = collect(client);
  await client.connect(transport);
  return { client, transport, notes, token, user };
}

/** The JSON-RPC error of a rejected call: its code and `data`. */
async function rpcError(p: Promise<unknown>): Promise<{ code: number; data: { code: string | number } }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof McpError) return { code: e.code, data: e.data as { code: string | number } };
    throw e;
  }
  throw new Error('the call succeeded');
}

const textOf = (r: { contents: object[] }) =>
  JSON.parse(String((r.contents[0] as { text?: unknown } | undefined)?.text)) as Record<string, unknown>;

const sessions = () =>
  mcpSessionsIn({ state })?.stats() ?? { sessions: 0, streams: 0, subscriptions: 0, kept: 0, notified: 0 };

/**
 * Ends an HTTP client's session (DELETE) and closes it, and waits until the server saw its GET
 * stream go. (A client that only closes leaves its session following its candles for the
 * retention window, for a stream that resumes: the next test would find them followed.)
 */
async function closeClient(
  c: { client: Client; transport: StreamableHTTPClientTransport; notes: ReturnType<typeof collect> },
  streamsBefore: number,
) {
  await c.transport.terminateSession();
  await c.client.close();
  await c.notes.until(() => sessions().streams < streamsBefore, 'the GET stream to close');
}

/** Moves the clock past the end of the current day's candle and waits for `check`. */
async function closeDay(notes: ReturnType<typeof collect>, check: () => boolean) {
  const dayEnd = Math.floor(h.clock.now / 86_400_000) * 86_400_000 + 86_400_000;
  h.clock.now = dayEnd + 500;
  await notes.until(check, 'the candle close notification');
  return dayEnd;
}

describe('MCP over Streamable HTTP: resources, prompts, completions, logging', () => {
  it('lists and reads resources; a read answers what REST answers and costs what the tool costs', async () => {
    const { client, token } = await httpClient();
    const caps = client.getServerCapabilities();
    expect(caps).toMatchObject({
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
      tools: {},
    });
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('marketlens://positions');
    expect(uris).toContain('marketlens://track-record');
    const analyses = uris.filter((u) => u.startsWith('marketlens://analysis/'));
    // no favorites: the most traded coins, bounded
    expect(analyses.length).toBeGreaterThan(0);
    expect(analyses.length).toBeLessThanOrEqual(20);
    expect(analyses).toContain('marketlens://analysis/bitcoin/1d');
    for (const r of resources) expect(r.description).toBeTruthy();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['marketlens://analysis/{asset_id}/{timeframe}']);

    const read = await client.readResource({ uri: 'marketlens://analysis/BTC/d1' });
    expect(read.contents[0]).toMatchObject({ uri: 'marketlens://analysis/BTC/d1', mimeType: 'application/json' });
    const rest = (await (
      await h.request('/v2/analysis/bitcoin', { headers: { 'x-session-token': (await h.signup()).token } })
    ).json()) as { data: unknown };
    expect(textOf(read)).toEqual(rest.data);
    expect(textOf(await client.readResource({ uri: 'marketlens://positions' }))).toMatchObject({ positions: [] });
    expect(textOf(await client.readResource({ uri: 'marketlens://track-record' }))).toHaveProperty('total');

    // A read of an analysis pays the analysis weight (20 units), as get_asset_analysis does.
    const remaining = async (body: unknown) => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
      });
      await res.text();
      return Number(res.headers.get('x-ratelimit-remaining'));
    };
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const r0 = await remaining(ping);
    const r1 = await remaining({
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: 'marketlens://analysis/bitcoin/1d' },
    });
    const r2 = await remaining({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_asset_analysis', arguments: { asset_id: 'bitcoin' } },
    });
    expect(r0 - r1).toBe(21); // the message (1) and the analysis (20)
    expect(r1 - r2).toBe(r0 - r1);
    await client.close();
  });

  it('answers bad input with MCP errors carrying the contract codes', async () => {
    const c = await httpClient();
    const { client } = c;
    let e = await rpcError(client.readResource({ uri: 'marketlens://analysis/nosuchcoin/1d' }));
    expect([e.code, e.data.code]).toEqual([-32002, 'UnknownAsset']);
    e = await rpcError(client.readResource({ uri: 'marketlens://analysis/bitcoin/1h' }));
    expect([e.code, e.data.code]).toEqual([-32602, 1004]);
    e = await rpcError(client.readResource({ uri: 'marketlens://analysis/bitcoin/7h' }));
    expect([e.code, e.data.code]).toEqual([-32602, 'InvalidRequest']);
    e = await rpcError(client.readResource({ uri: 'https://example.com/x' }));
    expect([e.code, e.data.code]).toEqual([-32002, 'NotFound']);
    e = await rpcError(client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/4h' }));
    expect([e.code, e.data.code]).toEqual([-32602, 1004]);
    e = await rpcError(client.subscribeResource({ uri: 'marketlens://analysis/tether/1d' }));
    expect(e.data.code).toBe('StablecoinNotAnalyzed');
    e = await rpcError(client.subscribeResource({ uri: 'marketlens://positions' }));
    expect([e.code, e.data.code]).toEqual([-32602, 'InvalidRequest']);
    // The free tier follows 5 candles in a session; the same candle by ticker counts once.
    for (const a of ['bitcoin', 'ethereum', 'solana', 'cardano', 'ripple', 'BTC']) {
      await client.subscribeResource({ uri: `marketlens://analysis/${a}/1d` });
    }
    e = await rpcError(client.subscribeResource({ uri: 'marketlens://analysis/dogecoin/1d' }));
    expect([e.code, e.data.code]).toEqual([-32602, 'StreamSubscriptionLimitExceeded']);
    e = await rpcError(client.getPrompt({ name: 'explain_signal', arguments: {} }));
    expect([e.code, e.data.code]).toEqual([-32602, 'InvalidRequest']);
    e = await rpcError(
      client.getPrompt({ name: 'explain_signal', arguments: { asset_id: 'bitcoin', timeframe: '2d' } }),
    );
    expect([e.code, e.data.code]).toEqual([-32602, 'InvalidRequest']);
    e = await rpcError(client.getPrompt({ name: 'explain_signal', arguments: { asset_id: 'nosuchcoin' } }));
    expect([e.code, e.data.code]).toEqual([-32602, 'UnknownAsset']);
    e = await rpcError(client.getPrompt({ name: 'no_such_prompt' }));
    expect([e.code, e.data.code]).toEqual([-32602, 'InvalidRequest']);
    await closeClient(c, sessions().streams);
  });

  it('notifies a subscriber when the candle closes, logs at the level set, and leaves nothing behind', async () => {
    const live0 = liveIn({ state })?.stats();
    expect(live0?.watchers ?? 0).toBe(0);
    // The clock first (an access token lives an hour of it), then the client.
    const dayEnd = Math.floor(h.clock.now / 86_400_000) * 86_400_000 + 86_400_000;
    h.clock.now = dayEnd - 30;
    const { client, transport, notes } = await httpClient();
    await client.setLoggingLevel('info');
    await client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/1d' });
    await client.subscribeResource({ uri: 'marketlens://analysis/ethereum/1d' });
    await client.unsubscribeResource({ uri: 'marketlens://analysis/ethereum/1d' });
    // The GET stream is open once the session's stream is counted.
    await notes.until(() => sessions().streams >= 1, 'the GET stream');
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 1, followed: 1 });
    await closeDay(notes, () => notes.updated.length > 0);
    // Only the followed candle (the clock stood still while its timer fired, so the close may be
    // sent more than once here; with a moving clock it is armed for the next candle).
    expect([...new Set(notes.updated)]).toEqual(['marketlens://analysis/bitcoin/1d']);
    await notes.until(() => notes.logged.length > 0, 'the log message');
    expect(notes.logged[0]).toMatchObject({ level: 'info', data: { event: 'candle_closed', asset_id: 'bitcoin' } });
    const after = textOf(await client.readResource({ uri: 'marketlens://analysis/bitcoin/1d' }));
    expect(after.as_of).toBe(new Date(dayEnd - 86_400_000).toISOString());

    // The client goes away (its GET stream closes). The session follows its candle for the
    // retention window (a stream that resumes with Last-Event-ID misses nothing: see the next
    // test); after it the candle is no longer followed and no timer is held. (Before resumable
    // streams this held as soon as the stream closed; docs/decisions.md, issue 43, session 14.)
    await client.close();
    await notes.until(() => sessions().streams === 0, 'the stream to close');
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 1 });
    await notes.until(() => liveIn({ state })?.stats().watchers === 0, 'the retention window', RETENTION_MS + 10_000);
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 0, timers: 0, followed: 0, subscriptions: 0 });
    // A session ends with a DELETE: its subscriptions go with it.
    void transport;
    const before = sessions();
    const again = await httpClient();
    await again.client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/1d' });
    await again.notes.until(() => liveIn({ state })?.stats().watchers === 1, 'the candle followed');
    expect(sessions()).toMatchObject({ sessions: before.sessions + 1, subscriptions: before.subscriptions + 1 });
    await again.transport.terminateSession();
    expect(sessions()).toMatchObject({ sessions: before.sessions, streams: 0, subscriptions: before.subscriptions });
    await again.client.close();
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 0, timers: 0, followed: 0 });
  });

  it('resumes a dropped GET stream with Last-Event-ID: the notifications made meanwhile are sent first', async () => {
    const dayEnd = Math.floor(h.clock.now / 86_400_000) * 86_400_000 + 86_400_000;
    h.clock.now = dayEnd - 30;
    const user = await h.signup();
    await h.storage.users.setTier(user.userId, 'pro');
    const token = await mint(user.token);
    // The SDK client's own fetch, wrapped: a GET body the test can break (a network drop), and a
    // resuming GET (with Last-Event-ID) held until the test lets it go.
    let drop: (() => void) | null = null;
    const resumedWith: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const wrapped: typeof fetch = async (input, init) => {
      const method = init?.method ?? 'GET';
      const last = new Headers(init?.headers).get('last-event-id');
      if (method === 'GET' && last !== null) {
        resumedWith.push(last);
        await held;
      }
      const res = await fetch(input, init);
      if (method !== 'GET' || res.body === null) return res;
      const reader = res.body.getReader();
      let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
        },
        pull: async (c) => {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) c.close();
          else c.enqueue(value);
        },
        cancel: (why) => reader.cancel(why),
      });
      drop = () => {
        controller?.error(new Error('network drop'));
        void reader.cancel().catch(() => undefined);
      };
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: wrapped,
      reconnectionOptions: {
        initialReconnectionDelay: 10,
        maxReconnectionDelay: 10,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 3,
      },
    });
    const client = new Client({ name: 'resume-test', version: '0' });
    client.onerror = () => {}; // the drop is reported here
    const notes = collect(client);
    await client.connect(transport);
    await client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/1d' });
    await notes.until(() => sessions().streams >= 1 && drop !== null, 'the GET stream');
    const streams = sessions().streams;
    // A first close, received on the stream.
    await closeDay(notes, () => notes.updated.length > 0);
    const seen = notes.updated.length;
    const notified = sessions().notified;
    // The connection drops; the client reconnects at once, held here until the next close happened.
    (drop as (() => void) | null)?.();
    await notes.until(() => sessions().streams < streams && resumedWith.length === 1, 'the drop and the resume');
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 1 }); // still followed meanwhile
    // Meanwhile a 15m candle is followed too (its clock armed on the test's clock) and closes.
    const m15End = dayEnd + 15 * 60_000;
    h.clock.now = m15End - 30;
    await client.subscribeResource({ uri: 'marketlens://analysis/ethereum/15m' });
    h.clock.now = m15End + 500;
    await notes.until(() => sessions().notified > notified, 'the 15m close');
    expect(notes.updated).toHaveLength(seen); // nothing reached the client: no stream
    release();
    await notes.until(() => notes.updated.length > seen, 'the missed notification');
    expect(Number(resumedWith[0])).toBe(notified); // the id of the last notification received
    expect(new Set(notes.updated.slice(seen))).toEqual(new Set(['marketlens://analysis/ethereum/15m']));
    await notes.until(() => sessions().streams === streams, 'the resumed stream');
    // Ended with a DELETE: nothing is kept or followed.
    const before = sessions();
    await transport.terminateSession();
    expect(sessions()).toMatchObject({ sessions: before.sessions - 1, streams: streams - 1 });
    expect(sessions().kept).toBe(0);
    await client.close();
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 0, timers: 0, followed: 0 });
  });

  it('ends the session, instead of notifying it, once its token no longer holds (signed out)', async () => {
    const dayEnd = Math.floor(h.clock.now / 86_400_000) * 86_400_000 + 86_400_000;
    h.clock.now = dayEnd - 30;
    const c = await httpClient();
    await c.client.subscribeResource({ uri: 'marketlens://analysis/solana/1d' });
    const before = sessions();
    await c.notes.until(() => liveIn({ state })?.stats().watchers === 1, 'the candle followed');
    // Signing out of the login session the token was approved with revokes the token.
    const out = await h.json('/v1/auth/logout', {}, { headers: { 'x-session-token': c.user.token } });
    expect(out.status).toBe(200);
    // A minute on: the token's last check (when the session opened) is stale, so it is checked again.
    h.clock.now = dayEnd + 60_000;
    await c.notes.until(() => sessions().sessions === before.sessions - 1, 'the session to end');
    expect(c.notes.updated).toEqual([]);
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 0, timers: 0, followed: 0 });
    await c.client.close();
  });

  it('gets the prompts with their data and completes asset ids, timeframes and exchange ids', async () => {
    const { client, token } = await httpClient(true);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['morning_brief', 'review_positions', 'explain_signal']);
    for (const p of prompts) expect(p.description).toBeTruthy();

    const explain = await client.getPrompt({ name: 'explain_signal', arguments: { asset_id: 'ETH', timeframe: '4h' } });
    const embedded = explain.messages.find((m) => m.content.type === 'resource');
    expect(embedded?.content).toMatchObject({ resource: { uri: 'marketlens://analysis/ethereum/4h' } });
    if (embedded?.content.type !== 'resource') throw new Error('no embedded analysis');
    const data = JSON.parse(String((embedded.content.resource as { text: string }).text));
    expect(data.asset.id).toBe('ethereum');
    expect(data.timeframe).toBe('h4');

    // The watchlist: the new account's favorites removed, it is empty; then two favorites, each
    // linked to its analysis.
    const favorites = (await client.callTool({ name: 'get_favorite_assets', arguments: {} })).structuredContent as {
      assets: { id: string }[];
    };
    for (const f of favorites.assets) {
      await client.callTool({ name: 'remove_favorite_asset', arguments: { asset_id: f.id } });
    }
    let brief = await client.getPrompt({ name: 'morning_brief' });
    expect(JSON.stringify(brief.messages)).toContain('watchlist is empty');
    for (const a of ['bitcoin', 'solana']) {
      await client.callTool({ name: 'add_favorite_asset', arguments: { asset_id: a } });
    }
    brief = await client.getPrompt({ name: 'morning_brief', arguments: { timeframe: '1h' } });
    const links = brief.messages.flatMap((m) => (m.content.type === 'resource_link' ? [m.content.uri] : []));
    expect(links.sort()).toEqual(['marketlens://analysis/bitcoin/1h', 'marketlens://analysis/solana/1h']);
    // Favorites lead resources/list now.
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    expect(listed.filter((u) => u.startsWith('marketlens://analysis/')).sort()).toEqual([
      'marketlens://analysis/bitcoin/1d',
      'marketlens://analysis/solana/1d',
    ]);

    const review = await client.getPrompt({ name: 'review_positions', arguments: { exchange_id: 'binance' } });
    expect(review.messages.length).toBeGreaterThan(0);

    // Completion: by ticker, by name, by id prefix; timeframes; exchange ids; for the template too.
    const values = async (ref: Parameters<Client['complete']>[0]['ref'], name: string, value: string) =>
      (await client.complete({ ref, argument: { name, value } })).completion.values;
    const prompt = { type: 'ref/prompt' as const, name: 'explain_signal' };
    expect((await values(prompt, 'asset_id', 'btc'))[0]).toBe('bitcoin');
    expect(await values(prompt, 'asset_id', 'ether')).toContain('ethereum');
    expect((await values(prompt, 'asset_id', 'sol'))[0]).toBe('solana');
    expect(await values(prompt, 'asset_id', 'zzzz-no-such')).toEqual([]);
    expect(await values(prompt, 'timeframe', '1')).toEqual(['15m', '1h', '1d', '1w']);
    expect(await values(prompt, 'timeframe', 'h')).toEqual(['h1', 'h4']);
    const exchanges = (await (
      await h.request('/v1/exchanges', { headers: { 'x-session-token': (await h.signup()).token } })
    ).json()) as {
      data: { id: string }[];
    };
    const first = exchanges.data[0]?.id ?? '';
    expect(await values({ type: 'ref/prompt', name: 'review_positions' }, 'exchange_id', first.slice(0, 2))).toContain(
      first,
    );
    const template = { type: 'ref/resource' as const, uri: 'marketlens://analysis/{asset_id}/{timeframe}' };
    expect((await values(template, 'asset_id', 'btc'))[0]).toBe('bitcoin');
    expect(await values(template, 'timeframe', '4')).toEqual(['4h']);
    // A ref or argument completed nowhere: no values (the suite's fixture prompt included).
    expect(await values({ type: 'ref/prompt', name: 'test_prompt_with_arguments' }, 'arg1', 'test')).toEqual([]);
    expect(token).toMatch(/^mla_/);
    await client.close();
  });

  it('refuses a subscription outside a session, and an unknown session id', async () => {
    const { token } = await httpClient();
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const sub = {
      jsonrpc: '2.0',
      id: 7,
      method: 'resources/subscribe',
      params: { uri: 'marketlens://analysis/bitcoin/1d' },
    };
    const res = await post(sub);
    const body = (await res.json()) as { id: number; error: { code: number; data: { code: string } } };
    expect([body.id, body.error.code, body.error.data.code]).toEqual([7, -32602, 'InvalidRequest']);
    const unknown = await post(sub, { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    const get = await fetch(`${base}/mcp`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
  });
});

/** A client-side transport over a pair of pipes, in the stdio framing (one JSON message a line). */
class PipeClientTransport implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  readonly #buffer = new ReadBuffer();
  constructor(
    private readonly input: PassThrough,
    private readonly output: PassThrough,
  ) {}
  async start() {
    this.input.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let m = this.#buffer.readMessage(); m !== null; m = this.#buffer.readMessage()) this.onmessage?.(m);
    });
  }
  async send(m: JSONRPCMessage) {
    this.output.write(serializeMessage(m));
  }
  async close() {
    this.output.end();
    this.onclose?.();
  }
}

describe('MCP over stdio', () => {
  it('reads, subscribes and is notified when the candle closes; closing the connection leaves no listener', async () => {
    const user = await h.signup();
    const record = await h.storage.users.byId(user.userId);
    if (!record) throw new Error('no user');
    const deps: AppDeps = {
      storage: h.storage,
      config: DEFAULT_CONFIG,
      now: () => h.clock.now,
      market: h.market,
      state,
    };
    const backend = mcpBackend(deps, {
      kind: 'session',
      user: record,
      tier: 'free',
      tier_expires_at: null,
      api_key_id: null,
    });
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = createMcpServer(backend);
    await server.connect(new StdioServerTransport(toServer, toClient));
    const client = new Client({ name: 'stdio-test', version: '0' });
    const notes = collect(client);
    await client.connect(new PipeClientTransport(toClient, toServer));

    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('marketlens://track-record');
    expect(textOf(await client.readResource({ uri: 'marketlens://analysis/bitcoin/1d' }))).toHaveProperty('zone');
    expect((await client.listPrompts()).prompts).toHaveLength(3);
    expect(
      (
        await client.complete({
          ref: { type: 'ref/prompt', name: 'explain_signal' },
          argument: { name: 'asset_id', value: 'eth' },
        })
      ).completion.values[0],
    ).toBe('ethereum');
    await client.setLoggingLevel('debug');
    const e = await rpcError(client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/1w' }));
    expect([e.code, e.data.code]).toEqual([-32602, 1004]);

    const dayEnd = Math.floor(h.clock.now / 86_400_000) * 86_400_000 + 86_400_000;
    h.clock.now = dayEnd - 30;
    await client.subscribeResource({ uri: 'marketlens://analysis/bitcoin/1d' });
    expect(liveIn({ state })?.stats().watchers).toBe(1);
    await closeDay(notes, () => notes.updated.length > 0);
    expect([...new Set(notes.updated)]).toEqual(['marketlens://analysis/bitcoin/1d']);
    await notes.until(() => notes.logged.some((l) => l.level === 'info'), 'the log message');

    await client.close();
    await server.close();
    expect(liveIn({ state })?.stats()).toMatchObject({ watchers: 0, timers: 0, followed: 0, subscriptions: 0 });
  });
});
