import { describe, expect, it } from 'vitest';
import { API_KEY_DAILY_ALLOWANCE, grantTier } from '../../src/auth/tiers.js';
import { RATE_LIMIT_WEIGHTS } from '../../src/platform/rate-limit/weights.js';
import { TIERS, type Tier } from '../../src/storage/types.js';
import type { Harness } from '../support/harness.js';
import { offlineHarness } from './offline.js';

/**
 * Limits under concurrency (issue #13), in process: many requests at once
 * through app.fetch, from many client IPs behind a configured trusted proxy, with many keys.
 * The per-IP budget admits exactly floor(2000 / weight) requests of an operation per window and
 * the daily allowance exactly its calls per account, never more. The same over real sockets
 * with autocannon: `node packages/server/scripts/load-reliability.mjs`.
 */

const PROXY = '127.0.0.1';
const LIMIT = 2000;

function proxied(): Harness {
  return offlineHarness({ trustedProxies: [PROXY], rateLimit: { limit: LIMIT, windowMs: 60_000 } });
}

/** A request that reached the proxy from `client` (the proxy appends the peer it saw). */
function via(h: Harness, client: string, path: string, init: RequestInit = {}, spoofed?: string) {
  const xff = spoofed ? `${spoofed}, ${client}` : client;
  return h.request(
    path,
    { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': xff } },
    PROXY,
  );
}

async function statuses(responses: Promise<Response>[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const r of await Promise.all(responses)) {
    out.set(r.status, (out.get(r.status) ?? 0) + 1);
    await r.body?.cancel();
  }
  return out;
}

describe('per-IP weighted budget under concurrency', () => {
  it('admits exactly 2000 weight-1 requests per client IP, however many arrive at once', async () => {
    const h = proxied();
    const clients = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '2001:db8::7'];
    const extra = 150;
    const all = clients.flatMap((ip) => Array.from({ length: LIMIT + extra }, () => via(h, ip, '/v2/config')));
    const byStatus = await statuses(all);
    expect(byStatus.get(200)).toBe(clients.length * LIMIT);
    expect(byStatus.get(429)).toBe(clients.length * extra);
    expect(byStatus.size).toBe(2);
    // A client-written hop to the left of the proxy's own proves nothing: still the same budget.
    const spoofed = await statuses(
      Array.from({ length: 50 }, (_, i) => via(h, clients[0], '/v2/config', {}, `10.9.8.${i}`)),
    );
    expect(spoofed.get(429)).toBe(50);
    const last = await via(h, clients[0], '/v2/config');
    expect(last.status).toBe(429);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // A peer that is not a trusted proxy is its own client, whatever X-Forwarded-For claims.
    const direct = await h.request('/v2/config', { headers: { 'x-forwarded-for': clients[0] } }, '203.0.113.50');
    expect(direct.status).toBe(200);
    // The next window admits again.
    h.clock.now += 60_000;
    expect((await via(h, clients[0], '/v2/config')).status).toBe(200);
  });

  it('admits exactly floor(2000 / weight) requests of every weighted operation', async () => {
    // The HTTP routes; the `MCP <operation>` entries are charged inside /mcp (mcp-charge.test.ts).
    const weighted = Object.entries(RATE_LIMIT_WEIGHTS).filter(([route, w]) => w > 1 && !route.startsWith('MCP '));
    expect(weighted.length).toBeGreaterThan(1);
    const h = proxied();
    const results = await Promise.all(
      weighted.map(async ([route, weight], i) => {
        const [method, path] = route.split(' ');
        const url = path.replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000');
        const admitted = Math.floor(LIMIT / weight);
        // Bodies that fail validation: the budget is spent before the operation runs (no scrypt).
        const init: RequestInit =
          method === 'GET' || method === 'DELETE'
            ? { method }
            : { method, headers: { 'content-type': 'application/json' }, body: '{"x":' };
        const byStatus = await statuses(
          Array.from({ length: admitted + 25 }, () => via(h, `198.51.100.${100 + i}`, url, init)),
        );
        const refused = byStatus.get(429) ?? 0;
        return { route, weight, admitted: admitted + 25 - refused, refused, expected: admitted };
      }),
    );
    expect(results.filter((r) => r.admitted !== r.expected || r.refused !== 25)).toEqual([]);
  });

  it('never admits more than the budget when weights mix on one IP', async () => {
    const h = proxied();
    const heavy = Object.entries(RATE_LIMIT_WEIGHTS).find(([r]) => r === 'POST /v1/auth/login');
    expect(heavy).toBeDefined();
    const w = heavy?.[1] ?? 20;
    const kinds = Array.from({ length: 1500 }, (_, i) => (i % 3 === 0 ? 'heavy' : 'light'));
    const responses = await Promise.all(
      kinds.map((k) =>
        k === 'heavy'
          ? via(h, '198.51.100.200', '/v1/auth/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            })
          : via(h, '198.51.100.200', '/v2/config'),
      ),
    );
    let spent = 0;
    responses.forEach((r, i) => {
      if (r.status !== 429) spent += kinds[i] === 'heavy' ? w : 1;
    });
    expect(spent).toBeLessThanOrEqual(LIMIT);
    // Light requests keep arriving after heavy ones stop fitting, so the budget ends (nearly) full.
    expect(spent).toBeGreaterThan(LIMIT - w);
  });
});

describe('daily API-key allowance under concurrency', () => {
  it('admits exactly the allowance per account across its keys, never more; resets at 00:00 UTC', async () => {
    const h = proxied();
    const keysPerUser = 3;
    const extra = 40;
    const accounts: { tier: Tier; keys: string[]; token: string }[] = [];
    for (const tier of TIERS) {
      const { token, userId } = await h.signup();
      if (tier !== 'free') await grantTier(h.storage, userId, tier, 'admin', 365, h.clock.now);
      const keys: string[] = [];
      for (let k = 0; k < keysPerUser; k++) keys.push(await h.apiKey(token));
      accounts.push({ tier, keys, token });
    }
    // Everyone at once, spread over many client IPs so the per-IP budget is not what refuses.
    const requests = accounts.flatMap((a) =>
      Array.from({ length: API_KEY_DAILY_ALLOWANCE[a.tier] + extra }, (_, i) => ({
        a,
        key: a.keys[i % keysPerUser],
        i,
      })),
    );
    const responses = await Promise.all(
      requests.map(({ key }, n) =>
        via(h, `10.${(n >> 8) & 255}.${n & 255}.1`, '/v2/config', { headers: { 'x-api-key': key } }),
      ),
    );
    for (const a of accounts) {
      const mine = responses.filter((_, n) => requests[n].a === a);
      const ok = mine.filter((r) => r.status === 200).length;
      const refused = mine.filter((r) => r.status === 429);
      expect({ tier: a.tier, ok, refused: refused.length }).toEqual({
        tier: a.tier,
        ok: API_KEY_DAILY_ALLOWANCE[a.tier],
        refused: extra,
      });
      const body = (await refused[0].json()) as { code: string };
      expect(body.code).toBe('ApiKeyAllowanceExceeded');
      expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
      const credits = await (
        await h.request('/v1/users/api_keys/credits', { headers: { 'x-session-token': a.token } })
      ).json();
      expect(credits).toMatchObject({ data: { used_today: API_KEY_DAILY_ALLOWANCE[a.tier], remaining_today: 0 } });
    }
    // 00:00 UTC: a new allowance.
    const midnight = Math.floor(h.clock.now / 86_400_000) * 86_400_000 + 86_400_000;
    h.clock.now = midnight;
    for (const a of accounts) {
      expect((await via(h, '10.99.0.1', '/v2/config', { headers: { 'x-api-key': a.keys[0] } })).status).toBe(200);
    }
  });
});
