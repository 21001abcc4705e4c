import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { CLIENT_LIMITS, MAX_CLIENTS, UNUSED_CLIENT_TTL_MS } from './service.js';

/**
 * `POST /oauth/register` is open to anyone (RFC 7591 dynamic registration), so it is bounded
 * (issue 21): the body, each field, registrations per address, how long an unused client lives,
 * and how many clients there are.
 */

const REDIRECT = 'http://127.0.0.1:7777/callback';
const valid = (over: Record<string, unknown> = {}) => ({
  client_name: 'bounded',
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
  ...over,
});

const clientCount = (h: ReturnType<typeof harness>) =>
  (h.storage.db.prepare('SELECT COUNT(*) AS n FROM oauth_clients').get() as { n: number }).n;

describe('POST /oauth/register bounds', () => {
  it('refuses a body over 8 KB with 413 before reading it, and oversized fields with 400', async () => {
    const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 } });
    const big = await h.json('/oauth/register', valid({ client_uri: `https://example.com/${'a'.repeat(9000)}` }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ success: false, code: 'PayloadTooLarge' });
    const cases: [Record<string, unknown>, string][] = [
      [{ client_name: 'n'.repeat(CLIENT_LIMITS.clientName + 1) }, 'invalid_client_metadata'],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT}${i}`) }, 'invalid_redirect_uri'],
      [{ redirect_uris: [`${REDIRECT}?${'q'.repeat(CLIENT_LIMITS.redirectUri)}`] }, 'invalid_redirect_uri'],
      [{ contacts: Array.from({ length: 11 }, (_, i) => `a${i}@example.com`) }, 'invalid_client_metadata'],
      [{ scope: 's'.repeat(CLIENT_LIMITS.text + 1) }, 'invalid_client_metadata'],
    ];
    for (const [over, error] of cases) {
      const res = await h.json('/oauth/register', valid(over));
      expect(res.status, JSON.stringify(over).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
    expect(clientCount(h)).toBe(0);
    // At the limits: accepted.
    const ok = await h.json(
      '/oauth/register',
      valid({
        client_name: 'n'.repeat(CLIENT_LIMITS.clientName),
        redirect_uris: Array.from({ length: 10 }, (_, i) => `${REDIRECT}${i}`),
      }),
    );
    expect(ok.status).toBe(201);
  });

  it('weighs registrations so that one address registers at most 20 clients a minute', async () => {
    const h = harness({ rateLimit: { limit: 2000, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await h.json('/oauth/register', valid())).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // Another address still registers.
    const other = await h.request(
      '/oauth/register',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(valid()) },
      '198.51.100.9',
    );
    expect(other.status).toBe(201);
  });

  it('drops clients that never completed an authorization after a day; keeps the ones that did', async () => {
    const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.json('/oauth/register', valid());
      ids.push(((await res.json()) as { client_id: string }).client_id);
    }
    // The first client completed an authorization: a code was issued to it.
    const { userId } = await h.signup();
    await h.storage.oauth.createCode({
      code_hash: 'h',
      client_id: ids[0] ?? '',
      user_id: userId,
      session_id: 's',
      redirect_uri: REDIRECT,
      code_challenge: 'c',
      resource: 'r',
      scope: null,
      created_at: h.clock.now,
      expires_at: h.clock.now + 120_000,
    });
    h.clock.now += UNUSED_CLIENT_TTL_MS - 1000;
    expect((await h.json('/oauth/register', valid())).status).toBe(201);
    expect(clientCount(h)).toBe(4);
    h.clock.now += 2000;
    expect((await h.json('/oauth/register', valid())).status).toBe(201);
    expect(await h.storage.oauth.clientById(ids[0] ?? '')).not.toBeNull();
    expect(await h.storage.oauth.clientById(ids[1] ?? '')).toBeNull();
    expect(await h.storage.oauth.clientById(ids[2] ?? '')).toBeNull();
    expect(clientCount(h)).toBe(3);
  });

  it(`holds at most ${MAX_CLIENTS} clients: evicts the oldest unused, then refuses with 503`, async () => {
    const h = harness({ rateLimit: { limit: 1e12, windowMs: 60_000 } });
    const insert = h.storage.db.prepare(
      `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, token_endpoint_auth_method, metadata, created_at)
       VALUES (?, NULL, NULL, '[]', 'none', '{}', ?)`,
    );
    h.storage.db.transaction(() => {
      for (let i = 0; i < MAX_CLIENTS; i++)
        insert.run(`old-${String(i).padStart(5, '0')}`, h.clock.now - 1000 + i / 100);
    })();
    const res = await h.json('/oauth/register', valid());
    expect(res.status).toBe(201);
    expect(clientCount(h)).toBe(MAX_CLIENTS);
    expect(await h.storage.oauth.clientById('old-00000')).toBeNull();
    expect(await h.storage.oauth.clientById('old-00001')).not.toBeNull();
    // All in use: nothing to evict, registration refused.
    h.storage.db.prepare('UPDATE oauth_clients SET authorized_at = created_at').run();
    const full = await h.json('/oauth/register', valid());
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ success: false, code: 'ServiceUnavailable' });
    expect(clientCount(h)).toBe(MAX_CLIENTS);
  });
});
