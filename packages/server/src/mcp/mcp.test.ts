import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../test/support/harness.js';
import { createApp } from '../app.js';
import { DEFAULT_CONFIG } from '../platform/deps.js';

const REDIRECT = 'http://127.0.0.1:7/callback';

/** An OAuth client that keeps everything in memory and records where it was sent to authorize. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'marketlens test client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let h: Harness;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  // Every request of this suite comes from 127.0.0.1, and a tool call costs what its REST route
  // costs: the suite's traffic is over the default budget of one address (the budget itself is
  // tested in mcp-charge.test.ts).
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  // overrideGlobalObjects: false, or the SDK client misreads the OAuth error responses.
  const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
});

async function signup(): Promise<{ token: string; email: string }> {
  const email = `mcp-${Math.random().toString(36).slice(2)}@example.com`;
  const res = await fetch(`${base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'password-123' }),
  });
  const body = (await res.json()) as { data: { session_token: string } };
  return { token: body.data.session_token, email };
}

/** The consent step done headlessly: post the authorization request back with a session; the code from the redirect. */
async function consent(authorizationUrl: URL, session: Record<string, string>): Promise<string> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Approve');
  const form = new URLSearchParams(authorizationUrl.searchParams);
  form.set('action', 'approve');
  for (const [k, v] of Object.entries(session)) if (k !== 'x-session-token') form.set(k, v);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (session['x-session-token']) headers['x-session-token'] = session['x-session-token'];
  const res = await fetch(`${base}/oauth/authorize`, { method: 'POST', headers, body: form, redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.href}`);
  return code;
}

/** The SDK client's full authorization-code + PKCE flow; returns a connected client and its provider. */
async function authorizedClient(session: Record<string, string>) {
  const provider = new MemoryProvider();
  const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  const client = new Client({ name: 'mcp-test', version: '0' });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const url = provider.authorizationUrl;
  if (!url) throw new Error('the client was not sent to authorize');
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('resource')).toBe(`${base}/mcp`);
  await first.finishAuth(await consent(url, session));
  expect(provider.saved?.access_token).toMatch(/^mla_/);
  const connected = new Client({ name: 'mcp-test', version: '0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  return { client: connected, provider };
}

const mcpPost = (token: string | null, headers: Record<string, string> = {}) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

const tokenRequest = (params: Record<string, string>) =>
  fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });

describe('discovery', () => {
  it('serves RFC 8414 and RFC 9728 metadata and the manifest', async () => {
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as.issuer).toBe(base);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.registration_endpoint).toBe(`${base}/oauth/register`);
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const prm = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(prm.resource).toBe(`${base}/mcp`);
      expect(prm.authorization_servers).toEqual([base]);
    }
    const m = (await (await fetch(`${base}/mcp/manifest.json`)).json()) as {
      endpoint: string;
      tools: { name: string }[];
    };
    expect(m.endpoint).toBe(`${base}/mcp`);
    expect(m.tools.map((t) => t.name)).toContain('get_positions');
  });

  it('refuses /mcp without a token, with an API key or a session, with the RFC 9728 challenge', async () => {
    const { token } = await signup();
    const key = await h.apiKey(token);
    const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
    for (const [headers, code] of [
      [{}, 'Unauthorized'],
      [{ 'x-api-key': key }, 'ApiKeyNotAccepted'],
      [{ 'x-session-token': token }, 'Unauthorized'],
    ] as const) {
      const res = await mcpPost(null, headers);
      expect(res.status).toBe(401);
      const www = res.headers.get('www-authenticate') ?? '';
      expect(www.startsWith(challenge)).toBe(true);
      expect(www).not.toContain('error=');
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
    const bad = await mcpPost('mla_not-a-token');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(((await bad.json()) as { code: string }).code).toBe('InvalidToken');
  });
});

describe('authorization code + PKCE with the SDK client', () => {
  it('authorizes headlessly, lists and calls tools', async () => {
    const { token, email } = await signup();
    const { client } = await authorizedClient({ 'x-session-token': token });
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of [
      'get_positions',
      'get_trading_signals',
      'get_account_info',
      'create_price_alert',
      'get_pilot_spectate',
    ]) {
      expect(names).toContain(n);
    }
    const info = (await client.callTool({ name: 'get_account_info', arguments: {} })) as CallToolResult;
    expect(info.isError).toBeFalsy();
    expect((info.structuredContent as { user: { email: string } }).user.email).toBe(email);
    const analysis = (await client.callTool({
      name: 'get_asset_analysis',
      arguments: { asset_id: 'bitcoin' },
    })) as CallToolResult;
    expect(analysis.isError).toBeFalsy();
    expect((analysis.structuredContent as { zone: unknown }).zone).toBeDefined();
    // The free tier: 1h is paid, and the tool error carries the REST code.
    const paid = (await client.callTool({
      name: 'get_asset_analysis',
      arguments: { asset_id: 'bitcoin', timeframe: '1h' },
    })) as CallToolResult;
    expect(paid.isError).toBe(true);
    expect((paid.structuredContent as { code: number }).code).toBe(1004);
    const fav = (await client.callTool({
      name: 'add_favorite_asset',
      arguments: { asset_id: 'dogecoin' },
    })) as CallToolResult;
    expect(fav.structuredContent).toEqual({ asset_id: 'dogecoin', is_favorite: true });
    const positions = (await client.callTool({ name: 'get_positions', arguments: {} })) as CallToolResult;
    expect(positions.isError).toBeFalsy();
    expect(
      (positions.structuredContent as { totals: { open_positions_count: number } }).totals.open_positions_count,
    ).toBe(0);
    await client.close();
  });

  it('serves every tool group through the server backend, with the REST codes', async () => {
    const { token } = await signup();
    const { client } = await authorizedClient({ 'x-session-token': token });
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      return { isError: r.isError === true, data: r.structuredContent as Record<string, unknown> };
    };
    const ok = [
      ['get_portfolio_summary', {}],
      ['get_balances', {}],
      ['get_orders', { limit: 5 }],
      ['get_trades', {}],
      ['get_alerts', {}],
      ['get_notification_preferences', {}],
      ['update_notification_preferences', { regime_notification_disabled: true }],
      ['get_trading_signals', { timeframe: '15m' }],
      ['get_screener', {}],
      ['get_fear_greed', { limit: 3 }],
      ['list_assets', { limit: 3 }],
      ['get_favorite_assets', {}],
      ['remove_favorite_asset', { asset_id: 'solana' }],
      ['get_asset_signal', { asset_id: 'ethereum' }],
      ['get_asset_overview', { asset_id: 'ethereum', locale: 'de' }],
      ['get_asset_markets', { asset_id: 'bitcoin' }],
      ['list_exchanges', {}],
      ['get_exchange_detail', { exchange_id: 'marketlens-sim' }],
      ['get_track_record', { timeframe: '1d', asset_class: 'coins' }],
    ] as const;
    for (const [name, args] of ok) {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${JSON.stringify(r.data)}`).toBe(false);
    }
    expect((await call('get_notification_preferences')).data.regime_notification_disabled).toBe(true);
    const refused: [string, Record<string, unknown>, string | number][] = [
      ['create_price_alert', { asset_id: 'bitcoin', target: 130_000 }, 'NoActiveDevice'],
      ['create_price_alert', { asset_id: 'bitcoin', target: 1 }, 'TargetOutOfRange'],
      ['create_price_alert', { asset_id: 'no-such-asset', target: 1 }, 'UnknownAsset'],
      ['delete_alert', { alert_id: '00000000-0000-4000-8000-000000000000' }, 'NotificationNotFound'],
      ['position_analysis', { position_id: 'nope' }, 'PositionNotFound'],
      ['edit_position', { position_id: 'nope', notes: 'x' }, 'PositionNotFound'],
      ['get_pilot_spectate', {}, 'PilotNotEligible'],
      ['get_pilot_spectate_history', {}, 'PilotNotEligible'],
      ['get_exchange_detail', { exchange_id: 'nowhere' }, 'UnknownExchange'],
      ['get_asset_analysis', { asset_id: 'bitcoin', limit: 1000 }, 1005],
    ];
    for (const [name, args, code] of refused) {
      const r = await call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.data.code, `${name}: ${JSON.stringify(r.data)}`).toBe(code);
    }
    await client.close();
  });

  it('logs in on the consent page when the request carries no session', async () => {
    const { email } = await signup();
    const { client } = await authorizedClient({ email, password: 'password-123' });
    const info = (await client.callTool({ name: 'get_account_info', arguments: {} })) as CallToolResult;
    expect((info.structuredContent as { user: { email: string } }).user.email).toBe(email);
    await client.close();
  });

  it('rotates refresh tokens and detects reuse', async () => {
    const { token } = await signup();
    const { client, provider } = await authorizedClient({ 'x-session-token': token });
    await client.close();
    const clientId = provider.client?.client_id ?? '';
    const first = provider.saved?.refresh_token ?? '';
    const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first, client_id: clientId });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const next = (await rotated.json()) as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(first);
    expect((await mcpPost(next.access_token)).status).toBe(200);
    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first, client_id: clientId });
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
    // Reuse ends the family: the rotated tokens are revoked too.
    const after = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: clientId,
    });
    expect(after.status).toBe(400);
    expect((await mcpPost(next.access_token)).status).toBe(401);
  });

  it('logging out ends the tokens of the session', async () => {
    const { token } = await signup();
    const { client, provider } = await authorizedClient({ 'x-session-token': token });
    await client.close();
    const access = provider.saved?.access_token ?? '';
    expect((await mcpPost(access)).status).toBe(200);
    const out = await fetch(`${base}/v1/auth/logout`, { method: 'POST', headers: { 'x-session-token': token } });
    expect(out.status).toBe(200);
    const res = await mcpPost(access);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.saved?.refresh_token ?? '',
      client_id: provider.client?.client_id ?? '',
    });
    expect(refreshed.status).toBe(400);
  });

  it('refuses a token issued for another audience', async () => {
    const { token } = await signup();
    const { client, provider } = await authorizedClient({ 'x-session-token': token });
    await client.close();
    // The same storage served under another public URL: the token's audience is not this /mcp.
    const other = createApp(
      {
        storage: h.storage,
        config: { ...DEFAULT_CONFIG, publicUrl: 'https://other.example' },
        now: () => h.clock.now,
        market: h.market,
      },
      { logError: () => {} },
    );
    const res = await other.request('https://other.example/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata="https://other.example/.well-known');
  });

  it('refuses a bearer token everywhere but /mcp', async () => {
    const { token } = await signup();
    const { client, provider } = await authorizedClient({ 'x-session-token': token });
    await client.close();
    const res = await fetch(`${base}/v2/assets/favorites`, {
      headers: { authorization: `Bearer ${provider.saved?.access_token}` },
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('BearerNotAccepted');
  });
});

describe('authorization endpoint checks', () => {
  async function registered() {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'checks' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

  function authorizeUrl(clientId: string, over: Record<string, string | null> = {}) {
    const url = new URL(`${base}/oauth/authorize`);
    const params: Record<string, string | null> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      state: 'st',
      resource: `${base}/mcp`,
      ...over,
    };
    for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
    return url;
  }

  it('refuses registration without valid redirect URIs', async () => {
    for (const redirect_uris of [[], ['http://evil.example/cb'], ['javascript:alert(1)']]) {
      const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/^invalid_(redirect_uri|client_metadata)$/);
    }
  });

  it('requires PKCE S256 and the /mcp resource; never redirects to an unregistered URI', async () => {
    const clientId = await registered();
    const cases: [Record<string, string | null>, string][] = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: null }, 'invalid_request'],
      [{ resource: null }, 'invalid_target'],
      [{ resource: `${base}/v2` }, 'invalid_target'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ];
    for (const [over, error] of cases) {
      const res = await fetch(authorizeUrl(clientId, over), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const loc = new URL(res.headers.get('location') ?? '');
      expect(loc.searchParams.get('error')).toBe(error);
      expect(loc.searchParams.get('state')).toBe('st');
    }
    const bad = await fetch(authorizeUrl(clientId, { redirect_uri: 'https://evil.example/cb' }), {
      redirect: 'manual',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('location')).toBeNull();
    expect((await fetch(authorizeUrl('mlc_unknown'), { redirect: 'manual' })).status).toBe(400);
  });

  it('a code is single use and needs the matching verifier', async () => {
    const clientId = await registered();
    const { token } = await signup();
    const code = await consent(authorizeUrl(clientId), { 'x-session-token': token });
    const wrong = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: `${VERIFIER.slice(0, -1)}x`,
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');
    // The failed attempt consumed the code.
    const again = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
    });
    expect(again.status).toBe(400);
    const ok = await tokenRequest({
      grant_type: 'authorization_code',
      code: await consent(authorizeUrl(clientId), { 'x-session-token': token }),
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
      resource: `${base}/mcp`,
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { token_type: string; expires_in: number };
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(3600);
  });

  it('denial redirects with access_denied; a wrong password shows the page again', async () => {
    const clientId = await registered();
    const url = authorizeUrl(clientId);
    const form = new URLSearchParams(url.searchParams);
    form.set('action', 'deny');
    const denied = await fetch(`${base}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(new URL(denied.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
    form.set('action', 'approve');
    form.set('email', 'nobody@example.com');
    form.set('password', 'wrong-password');
    const wrong = await fetch(`${base}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Email or password is wrong');
  });
});

/** A request to the test server with a Host header of our choosing (fetch does not let one be forged). */
function withHost(path: string, host: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('attacks on /mcp and the OAuth metadata (issue 21)', () => {
  // Each test signs up and registers a client from one address: a fresh budget window for each.
  beforeEach(() => {
    h.clock.now += 60_000;
  });

  const tools = (n: number) =>
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'get_account_info', arguments: {} },
      })),
    );

  it('refuses a JSON-RPC batch with a JSON-RPC error, whatever it holds', async () => {
    const { token } = await signup();
    const { client, provider } = await authorizedClient({ 'x-session-token': token });
    await client.close();
    const access = provider.saved?.access_token ?? '';
    for (const n of [100, 1]) {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: tools(n),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect([body.jsonrpc, body.error.code]).toEqual(['2.0', -32600]);
      expect(body.error.message).toMatch(/batch/i);
    }
    // One message per request still works, and a body that is not JSON is the transport's parse error.
    expect((await mcpPost(access)).status).toBe(200);
    const garbage = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{not json',
    });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('refuses a page of another origin on /mcp with 403, and lets its own origin, allowed ones and non-browsers in', async () => {
    const { token } = await signup();
    const { client, provider } = await authorizedClient({ 'x-session-token': token });
    await client.close();
    const access = provider.saved?.access_token ?? '';
    const evil = await mcpPost(access, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { code: string }).code).toBe('OriginNotAllowed');
    expect((await mcpPost(null, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await mcpPost(access, { origin: 'null' })).status).toBe(403);
    const preflight = await fetch(`${base}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(preflight.status).toBe(403);
    expect((await mcpPost(access, { origin: base })).status).toBe(200);
    expect((await mcpPost(access)).status).toBe(200);
    // An allow-listed origin, on an app over the same storage configured with it.
    const allowing = createApp(
      {
        storage: h.storage,
        config: { ...DEFAULT_CONFIG, mcpAllowedOrigins: ['https://app.example'] },
        now: () => h.clock.now,
        market: h.market,
      },
      { logError: () => {} },
    );
    const call = (origin: string) =>
      allowing.request(`${base}/mcp`, {
        method: 'POST',
        headers: {
          origin,
          authorization: `Bearer ${access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await call('https://app.example')).status).toBe(200);
    expect((await call('https://evil.example')).status).toBe(403);
  });

  it('does not let a forged Host choose the issuer or the audience; metadata is not cached', async () => {
    const own = await withHost('/.well-known/oauth-authorization-server', new URL(base).host);
    expect(own.status).toBe(200);
    expect((JSON.parse(own.body) as { issuer: string }).issuer).toBe(base);
    expect(own.headers['cache-control']).toBe('no-store');
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/mcp/manifest.json',
    ]) {
      const forged = await withHost(path, 'evil.example');
      expect([path, forged.status, forged.body]).toEqual([path, 400, expect.stringContaining('HostNotAllowed')]);
      expect(forged.body).not.toContain('evil.example');
      const ok = await fetch(`${base}${path}`);
      expect([path, ok.status, ok.headers.get('cache-control')]).toEqual([path, 200, 'no-store']);
    }
    // /mcp's challenge names the metadata by the base URL: a forged Host gets no challenge of its choosing.
    const challenge = await withHost('/mcp', 'evil.example:8080');
    expect(challenge.status).toBe(400);
    expect(challenge.headers['www-authenticate']).toBeUndefined();
    // localhost is this machine, on whatever port a mapping in front gives it.
    const local = await withHost('/.well-known/oauth-protected-resource', 'localhost:9999');
    expect((JSON.parse(local.body) as { resource: string }).resource).toBe('http://localhost:9999/mcp');
    // With a public URL configured, the Host plays no part.
    const configured = createApp(
      {
        storage: h.storage,
        config: { ...DEFAULT_CONFIG, publicUrl: 'https://api.example.com' },
        now: () => h.clock.now,
        market: h.market,
      },
      { logError: () => {} },
    );
    const meta = await configured.request('http://evil.example/.well-known/oauth-authorization-server');
    expect((await meta.json()) as { issuer: string }).toMatchObject({ issuer: 'https://api.example.com' });
  });
});
