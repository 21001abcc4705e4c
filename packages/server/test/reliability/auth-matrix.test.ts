import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantTier } from '../../src/auth/tiers.js';
import { liveSession } from '../../src/auth/users.js';
import type { Tier } from '../../src/storage/types.js';
import { type Harness, harness } from '../support/harness.js';
import { bodyText, fillPath, registeredOperations } from '../support/operations.js';
import { admits, type DocOperation, type ServedDocument, servedDocument } from './document.js';
import { offlineHarness } from './offline.js';
import { resolverOf, validArb } from './schema-arbitrary.js';

/**
 * The full auth matrix (issue #13): every operation of the route table
 * against every kind of credential. The expected answer is derived from each operation's
 * declared security alone: a credential the operation does not accept is refused with exactly
 * 401 and the code saying why; one it accepts is never refused as unauthenticated, and its
 * status is the one a session of the same standing gets (or 402 for a lower tier).
 * app.test.ts keeps the quick four-credential version; this one adds expiry, revocation, tiers,
 * malformed tokens and bearer tokens.
 */

type Cred =
  | 'none'
  | 'malformed_session'
  | 'session_free'
  | 'session_elite'
  | 'expired_key'
  | 'revoked_key'
  | 'key_free'
  | 'key_pro'
  | 'key_elite'
  | 'bearer_random';

const CREDS: Cred[] = [
  'none',
  'malformed_session',
  'session_free',
  'session_elite',
  'expired_key',
  'revoked_key',
  'key_free',
  'key_pro',
  'key_elite',
  'bearer_random',
];

/** Routes that read or change account data (the session-only list); keys and bearers never reach them. */
const ACCOUNT_ROUTE =
  /^\/(v1\/orders|v1\/trades|v2\/positions|v1\/connections|v1\/notifications|v1\/users|v1\/promotions\/(volume|[^/]+\/sign_up)|v2\/balances|v2\/portfolio|v2\/assets\/favorites|v1\/assets\/coins\/favorite)(\/|$)/;
/** The only routes an API key may reach: the read-only market data. */
const MARKET_DATA = /^\/(v2\/analysis|v1\/assets|v2\/assets|v2\/insights|v2\/config|v1\/exchanges)(\/|$)/;

let h: Harness;
let doc: ServedDocument;
const headers = new Map<Cred, Record<string, string>>();
const sessionTier = new Map<Cred, Tier>();

async function user(tier: Tier): Promise<string> {
  const { token, userId } = await h.signup();
  if (tier !== 'free') await grantTier(h.storage, userId, tier, 'admin', 365, h.clock.now);
  return token;
}

function expected(op: DocOperation, cred: Cred): { refused: true; code: string } | { refused: false } {
  if (cred === 'bearer_random') return { refused: true, code: 'BearerNotAccepted' };
  if (op.security.length === 0) return { refused: false }; // public (signup, login): credentials ignored
  const session = admits(op, 'session');
  const key = admits(op, 'api_key');
  switch (cred) {
    case 'none':
      return admits(op, 'none') ? { refused: false } : { refused: true, code: 'Unauthorized' };
    case 'malformed_session':
      return session ? { refused: true, code: 'InvalidSession' } : { refused: true, code: 'Unauthorized' };
    case 'session_free':
    case 'session_elite':
      return session ? { refused: false } : { refused: true, code: 'Unauthorized' };
    case 'expired_key':
    case 'revoked_key':
      return key ? { refused: true, code: 'InvalidApiKey' } : { refused: true, code: 'ApiKeyNotAccepted' };
    default:
      return key ? { refused: false } : { refused: true, code: 'ApiKeyNotAccepted' };
  }
}

/** A request with the operation's required parameters and a valid body (from the document). */
function requestOf(op: DocOperation): { url: string; init: RequestInit } {
  const resolve = resolverOf(doc.raw);
  const value = (p: DocOperation['parameters'][number]) => {
    const s = p.schema ?? {};
    const hint = [p.example, s.example, s.examples?.[0], s.enum?.[0], s.default].find((v) => v !== undefined);
    if (hint !== undefined) return String(hint);
    if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
    return String(fc.sample(validArb(s, resolve), { numRuns: 1, seed: 5 })[0]);
  };
  const byName = new Map(op.parameters.map((p) => [p.name, p]));
  const path = fillPath(op.path, (name) => {
    const p = byName.get(name);
    return p ? value(p) : name;
  });
  const query = new URLSearchParams();
  for (const p of op.parameters) if (p.in === 'query' && p.required) query.set(p.name, value(p));
  const init: RequestInit = { method: op.method };
  if (op.body) {
    init.body = JSON.stringify(fc.sample(validArb(op.body.schema, resolve), { numRuns: 1, seed: 5 })[0]);
    init.headers = { 'content-type': 'application/json' };
  }
  const qs = query.toString();
  return { url: qs ? `${path}?${qs}` : path, init };
}

async function call(op: DocOperation, cred: Cred): Promise<{ status: number; code: unknown; text: string }> {
  const { url, init } = requestOf(op);
  h.storage.db.prepare('DELETE FROM api_usage').run();
  const res = await h.request(url, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...headers.get(cred) },
  });
  const text = await bodyText(res);
  let code: unknown = null;
  try {
    code = (JSON.parse(text) as { code?: unknown }).code;
  } catch {
    code = null;
  }
  // An operation that ended the session (logout) gets the credential a fresh one.
  for (const [c, tier] of sessionTier) {
    const token = headers.get(c)?.['x-session-token'];
    if (token && !(await liveSession(h.storage, token, h.clock.now))) {
      headers.set(c, { 'x-session-token': await user(tier) });
    }
  }
  return { status: res.status, code, text };
}

beforeAll(async () => {
  h = offlineHarness();
  // The expired key is made first, then the clock moves past its one day of life.
  const expiring = await h.apiKey(await user('elite'), { expires_in_days: 1 });
  h.clock.now += 2 * 86_400_000;
  const owner = await user('elite');
  const revoked = await h.apiKey(owner);
  const list = (await (await h.request('/v1/users/api_keys', { headers: { 'x-session-token': owner } })).json()) as {
    data: { id: string }[];
  };
  for (const k of list.data) {
    const del = await h.request(`/v1/users/api_keys/${k.id}`, {
      method: 'DELETE',
      headers: { 'x-session-token': owner },
    });
    expect(del.status).toBe(200);
  }
  headers.set('none', {});
  headers.set('malformed_session', { 'x-session-token': 'mls_this-is-not-a-session' });
  headers.set('session_free', { 'x-session-token': await user('free') });
  headers.set('session_elite', { 'x-session-token': await user('elite') });
  sessionTier.set('session_free', 'free');
  sessionTier.set('session_elite', 'elite');
  headers.set('expired_key', { 'x-api-key': expiring });
  headers.set('revoked_key', { 'x-api-key': revoked });
  for (const tier of ['free', 'pro', 'elite'] as const) {
    headers.set(`key_${tier}`, { 'x-api-key': await h.apiKey(await user(tier)) });
  }
  headers.set('bearer_random', { authorization: 'Bearer 3q2-random-access-token' });
  doc = await servedDocument((p) => h.request(p));
});

describe('declared security', () => {
  it('API keys reach only the market-data routes, never an account route', () => {
    const keyed = doc.operations.filter((o) => admits(o, 'api_key') && o.security.length > 0);
    expect(keyed.length).toBeGreaterThan(5);
    for (const o of keyed) {
      // The live stream (issue 43) takes a key for its market data (analyses, prices); a key's
      // stream carries no account event (`user_events: false`, live/routes/v2-stream.test.ts).
      if (o.path === '/v2/stream') continue;
      expect(o.path, `${o.method} ${o.path}`).toMatch(MARKET_DATA);
      expect(o.path, `${o.method} ${o.path}`).not.toMatch(ACCOUNT_ROUTE);
    }
    // Every account route asks for a session and nothing else (a deprecated stub that answers
    // 410 to anyone, like /v2/positions/manual/*, serves no account data).
    for (const o of doc.operations.filter((x) => ACCOUNT_ROUTE.test(x.path) && !x.deprecated)) {
      expect(o.security, `${o.method} ${o.path}`).toEqual([{ session: [] }]);
    }
  });

  it('no operation of the document declares a bearer scheme (bearer tokens are for /mcp only)', () => {
    for (const o of doc.operations) for (const s of o.security) expect(Object.keys(s)).not.toContain('bearer');
  });
});

describe('auth matrix: every operation x every credential', () => {
  const ops = registeredOperations(harness().app);
  it.each(ops.map((o) => [`${o.method} ${o.path}`, o.method, o.path] as const))('%s', async (_name, method, path) => {
    const op = doc.operations.find((o) => o.method === method && o.path === path);
    if (!op) throw new Error(`${method} ${path} missing from the document`);
    const results = new Map<Cred, Awaited<ReturnType<typeof call>>>();
    for (const cred of CREDS) results.set(cred, await call(op, cred));
    const failures: string[] = [];
    const reference = results.get(admits(op, 'session') ? 'session_elite' : 'key_elite');
    for (const cred of CREDS) {
      const r = results.get(cred);
      if (!r) continue;
      const want = expected(op, cred);
      const got = `${r.status} ${String(r.code)}`;
      if (r.status >= 500) failures.push(`${cred}: ${r.status} ${r.text.slice(0, 160)}`);
      if (want.refused) {
        if (got !== `401 ${want.code}`) failures.push(`${cred}: want 401 ${want.code}, got ${got}`);
      } else if (r.status === 401 && op.security.length > 0) {
        failures.push(`${cred}: refused (${got}) though the operation accepts it`);
      } else if (
        reference &&
        cred !== 'none' &&
        op.security.length > 0 &&
        r.status !== reference.status &&
        r.status !== 402
      ) {
        // Same request, accepted credential: the same answer as the elite reference, or a paywall.
        failures.push(`${cred}: ${got}, but the elite reference got ${reference.status} ${String(reference.code)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** A real OAuth access token: dynamic registration, consent with a session, PKCE code exchange. */
async function realBearer(session: string): Promise<string> {
  const redirect = 'http://127.0.0.1:7777/callback';
  const reg = await h.request('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'auth matrix',
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(reg.status).toBeLessThan(300);
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const form = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: 'http://localhost/mcp',
    state: 'matrix',
    action: 'approve',
  });
  const auth = await h.request('/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-session-token': session },
    body: form,
    redirect: 'manual',
  });
  expect(auth.status).toBe(302);
  const code = new URL(auth.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tok = await h.request('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  expect(tok.status).toBe(200);
  return ((await tok.json()) as { access_token: string }).access_token;
}

const mcpPost = (hs: Record<string, string>) =>
  h.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...hs },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('/mcp and bearer tokens', () => {
  it('refuses no credential, API keys, sessions and unknown bearers with a Bearer challenge', async () => {
    for (const cred of ['none', 'key_elite', 'session_elite', 'expired_key', 'malformed_session'] as const) {
      const res = await mcpPost(headers.get(cred) ?? {});
      expect([cred, res.status]).toEqual([cred, 401]);
      expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer .*resource_metadata=/);
    }
    const bad = await mcpPost(headers.get('bearer_random') ?? {});
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate') ?? '').toMatch(/error="invalid_token"/);
  });

  it('a real access token reaches /mcp and nothing else', async () => {
    const token = await realBearer(headers.get('session_elite')?.['x-session-token'] ?? '');
    const bearer = { authorization: `Bearer ${token}` };
    expect((await mcpPost(bearer)).status).toBe(200);
    const failures: string[] = [];
    for (const op of doc.operations) {
      const { url, init } = requestOf(op);
      const res = await h.request(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), ...bearer },
      });
      const body = (await res.json()) as { code?: unknown };
      if (res.status !== 401 || body.code !== 'BearerNotAccepted')
        failures.push(`${op.method} ${op.path}: ${res.status} ${String(body.code)}`);
    }
    expect(failures).toEqual([]);
    // Still valid afterwards: the refusals were about the route, not the token.
    expect((await mcpPost(bearer)).status).toBe(200);
  });
});
