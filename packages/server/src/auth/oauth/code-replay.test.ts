import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';

/**
 * An authorization code presented a second time is refused, and the tokens already issued from
 * it are revoked (RFC 6749 4.1.2): a replayed code means it leaked, so whoever redeemed it first
 * may be the attacker.
 */

const BASE = 'http://localhost';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

type H = ReturnType<typeof harness>;

const form = (h: H, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  h.request(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

async function codeFor(h: H, clientId: string, token: string): Promise<string> {
  const res = await form(
    h,
    '/oauth/authorize',
    {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      state: 'st',
      resource: `${BASE}/mcp`,
      action: 'approve',
    },
    { 'x-session-token': token },
  );
  expect(res.status).toBe(302);
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code');
  if (!code) throw new Error('no code in the redirect');
  return code;
}

const exchange = (h: H, clientId: string, code: string) =>
  form(h, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: VERIFIER,
  });

/** The /mcp status for a bearer token: 401 once it is revoked. */
const mcpStatus = async (h: H, accessToken: string) =>
  (
    await h.request(`${BASE}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
  ).status;

describe('authorization-code replay', () => {
  it('is refused and revokes the tokens issued from that code, refreshed ones included', async () => {
    const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 } });
    const reg = await h.json(`${BASE}/oauth/register`, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      client_name: 'replay',
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const { token } = await h.signup();
    const code = await codeFor(h, clientId, token);
    const first = await exchange(h, clientId, code);
    expect(first.status).toBe(200);
    const issued = (await first.json()) as { access_token: string; refresh_token: string };
    // The first holder refreshes once: the rotated pair belongs to the same code.
    const rotated = await form(h, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
      client_id: clientId,
    });
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as { access_token: string; refresh_token: string };
    expect(await mcpStatus(h, next.access_token)).toBe(200);
    // An unrelated authorization of the same user and client stays live.
    const other = (await (await exchange(h, clientId, await codeFor(h, clientId, token))).json()) as {
      access_token: string;
    };

    const replay = await exchange(h, clientId, code);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');

    expect(await mcpStatus(h, issued.access_token)).toBe(401);
    expect(await mcpStatus(h, next.access_token)).toBe(401);
    const refreshAfter = await form(h, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: clientId,
    });
    expect(refreshAfter.status).toBe(400);
    expect(await mcpStatus(h, other.access_token)).toBe(200);
  });

  it('keeps a redeemed code long enough to recognise its replay, then drops it', async () => {
    const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 } });
    const reg = await h.json(`${BASE}/oauth/register`, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const { token } = await h.signup();
    const code = await codeFor(h, clientId, token);
    const issued = (await (await exchange(h, clientId, code)).json()) as { access_token: string };
    // Past the code's own two minutes, a replay still ends what it issued.
    h.clock.now += 10 * 60_000;
    expect((await exchange(h, clientId, code)).status).toBe(400);
    expect(await mcpStatus(h, issued.access_token)).toBe(401);
    const codes = () => (h.storage.db.prepare('SELECT COUNT(*) AS n FROM oauth_codes').get() as { n: number }).n;
    expect(codes()).toBe(1);
    // Another login's housekeeping drops it once the access tokens it could have issued are over.
    h.clock.now += 2 * 3_600_000;
    await exchange(h, clientId, await codeFor(h, clientId, token));
    expect(codes()).toBe(1);
  });
});
