/**
 * What an MCP message costs: a tool call pays the weight of the REST route that does the same work,
 * `tools/list` and the manifest pay for their size, and an oversize body is refused before it is
 * parsed. Work is counted (spies on the use cases, the budget headers), not timed.
 */
import { CATALOG, manifest } from '@marketlens/mcp';
import { describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../test/support/harness.js';
import { MCP_BODY_LIMIT } from '../platform/body-limit.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../platform/deps.js';
import { honoPath } from '../platform/rate-limit/rate-limit.js';
import { RATE_LIMIT_WEIGHTS, weightOf } from '../platform/rate-limit/weights.js';
import { createUseCases } from '../use-cases.js';
import { mcpBackend } from './backend.js';

const ORIGIN = 'http://mcp-charge.test';
const REDIRECT = 'http://127.0.0.1:7/cb';

/** The OAuth code flow done headlessly through the app: register, approve with the session, exchange. */
async function accessToken(h: Harness, session: string, ip: string): Promise<string> {
  // Each step from an address of its own: registration alone weighs 100 units.
  const reg = await h.request(
    `${ORIGIN}/oauth/register`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    },
    `${ip}1`,
  );
  const { client_id } = (await reg.json()) as { client_id: string };
  const approved = await h.request(
    `${ORIGIN}/oauth/authorize`,
    {
      method: 'POST',
      headers: { 'x-session-token': session },
      body: new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        resource: `${ORIGIN}/mcp`,
        action: 'approve',
      }),
      redirect: 'manual',
    },
    `${ip}2`,
  );
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await h.request(
    `${ORIGIN}/oauth/token`,
    {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id,
        redirect_uri: REDIRECT,
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      }),
    },
    `${ip}3`,
  );
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error('no access token');
  return token;
}

/** One JSON-RPC message to /mcp from `ip`: status, budget used after it, and the body. */
async function post(h: Harness, token: string, ip: string, message: unknown) {
  const res = await h.request(
    `${ORIGIN}/mcp`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: typeof message === 'string' ? message : JSON.stringify(message),
    },
    ip,
  );
  return { status: res.status, used: Number(res.headers.get('x-ratelimit-used')), text: await res.text() };
}

const callTool = (name: string, args: Record<string, unknown>, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

function setup(limit = 2000) {
  const config: Partial<ServerConfig> = { rateLimit: { limit, windowMs: 60_000 }, publicUrl: ORIGIN };
  return harness(config);
}

describe('MCP charges', () => {
  it('every tool pays the weight of a REST route the app serves, or of an MCP-only entry of the table', async () => {
    const h = setup();
    const doc = (await (await h.request('/docs/openapi.json')).json()) as { paths: Record<string, object> };
    const served = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${honoPath(path)}`),
      ),
    );
    const routes: string[] = [];
    const { userId } = await h.signup();
    const user = await h.storage.users.byId(userId);
    if (!user) throw new Error('no user');
    const deps: AppDeps = { storage: h.storage, config: DEFAULT_CONFIG, now: () => h.clock.now, market: h.market };
    const backend = mcpBackend(
      deps,
      { kind: 'session', user, tier: 'pro', tier_expires_at: null, api_key_id: null },
      createUseCases(deps),
      async (route) => {
        routes.push(route);
        throw new Error('charged');
      },
    );
    // Every method of every group charges before it runs (the spy throws, so nothing runs).
    for (const group of Object.values(backend)) {
      for (const method of Object.values(group as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)) {
        await expect(method({ asset_id: 'bitcoin' }, {})).rejects.toThrow('charged');
      }
    }
    expect(routes.length).toBeGreaterThanOrEqual(Object.values(backend).flatMap((g) => Object.keys(g)).length);
    for (const route of routes) {
      const ok = served.has(route) || (route.startsWith('MCP ') && route in RATE_LIMIT_WEIGHTS);
      expect(ok, route).toBe(true);
    }
    expect(CATALOG.length).toBeGreaterThan(20);
  });

  it('a cold analysis costs over MCP what it costs over REST; the budget runs out as it does there', async () => {
    const h = setup(100);
    const ip = '198.51.100.20';
    const { token: session } = await h.signup();
    // The OAuth flow spends from another address: this one starts with a full budget.
    const token = await accessToken(h, session, '198.51.100.2');
    const weight = weightOf('GET', '/v2/analysis/:asset_id');
    expect(weight).toBe(20);
    const first = await post(h, token, ip, callTool('get_asset_analysis', { asset_id: 'bitcoin' }));
    expect(first.status).toBe(200);
    expect(first.used).toBe(1 + weight);
    // 100 units: four calls of 21, then the fifth is refused inside the tool result, and nothing ran.
    for (let i = 0; i < 3; i++) await post(h, token, ip, callTool('get_asset_analysis', { asset_id: 'bitcoin' }));
    const refused = await post(h, token, ip, callTool('get_asset_analysis', { asset_id: 'ethereum' }));
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('RateLimited');
    expect(refused.used).toBe(4 * (1 + weight) + 1);
    // What is left is spent a unit per message; past it a message is refused at the door (429).
    const left = 100 - refused.used;
    for (let i = 0; i < left; i++) {
      expect((await post(h, token, ip, { jsonrpc: '2.0', id: 10 + i, method: 'ping' })).status).toBe(200);
    }
    const door = await post(h, token, ip, { jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(door.status).toBe(429);
  });

  it('tools/list and the manifest weigh what they carry: a unit per 16 KiB at least', async () => {
    const h = setup();
    const size = Buffer.byteLength(JSON.stringify(manifest(ORIGIN)));
    expect(size).toBeGreaterThan(64 * 1024);
    const atLeast = Math.ceil(size / (16 * 1024));
    expect(weightOf('GET', '/mcp/manifest.json')).toBeGreaterThanOrEqual(atLeast);
    expect(weightOf('MCP', 'tools/list')).toBeGreaterThanOrEqual(atLeast);
    const ip = '198.51.100.30';
    const res = await h.request(`${ORIGIN}/mcp/manifest.json`, {}, ip);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-ratelimit-used'))).toBe(weightOf('GET', '/mcp/manifest.json'));
    expect(Buffer.byteLength(await res.text())).toBe(size);
    const { token: session } = await h.signup();
    const token = await accessToken(h, session, '198.51.100.3');
    const listed = await post(h, token, ip, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(listed.status).toBe(200);
    expect(listed.used).toBe(weightOf('GET', '/mcp/manifest.json') + 1 + weightOf('MCP', 'tools/list'));
  });

  it('refuses a body over the /mcp limit with 413 before parsing it, and charges one unit for it', async () => {
    const h = setup();
    const ip = '198.51.100.40';
    const { token: session } = await h.signup();
    const token = await accessToken(h, session, '198.51.100.4');
    // 868 KB of argument, as the attack sent; not JSON at all past the limit would be refused alike.
    const huge = callTool('get_asset_analysis', { asset_id: 'bitcoin', pair: 'x'.repeat(868 * 1024) });
    const refused = await post(h, token, ip, huge);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchObject({ success: false, code: 'PayloadTooLarge' });
    expect(refused.used).toBe(1);
    const broken = await post(h, token, ip, `{"jsonrpc":"2.0",${' '.repeat(MCP_BODY_LIMIT)}`);
    expect(broken.status).toBe(413);
  });
});
