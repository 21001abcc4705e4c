import { randomInt } from 'node:crypto';
import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { type App, createApp } from '../../app.js';
import { secretHash } from '../../auth/secrets.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { DEFAULT_CONFIG } from '../deps.js';
import { openSharedState, type SharedState } from './shared-state.js';

const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const noRedis = skipWithout(
  REDIS_URL !== '',
  'Redis (MARKETLENS_TEST_REDIS_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

// Two apps over one storage and one Redis stand for two instances behind one address; the clock
// stands still, so a cached session never expires by itself: only an invalidation ends it.
describe.skipIf(noRedis)('two instances sharing Redis (skips without MARKETLENS_TEST_REDIS_URL)', () => {
  const clock = { now: Date.UTC(2026, 0, 15, 12, 0, 0) };
  const now = () => clock.now;
  const storage = createSqliteStorage(':memory:');
  const market = createSimulatedVenue({ now });
  const states: SharedState[] = [];
  const stops: (() => void)[] = [];
  let a: App;
  let b: App;
  // a fresh client address per run: the budget in Redis is per address and outlives the test
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const get = (app: App, path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(app.request(path, { headers }, { incoming: { socket: { remoteAddress: ip } } }));

  beforeAll(async () => {
    const { shareInvalidations } = await import('../../auth/session-cache.js');
    for (let i = 0; i < 2; i++) {
      const shared = await openSharedState(REDIS_URL);
      states.push(shared);
      stops.push(await shareInvalidations(shared.invalidation));
    }
    const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 30, windowMs: 60_000 } };
    a = createApp({ storage, config, now, market, shared: states[0] }, { logError: () => {} });
    b = createApp({ storage, config, now, market, shared: states[1] }, { logError: () => {} });
  });

  afterAll(async () => {
    for (const stop of stops) stop();
    await Promise.all(states.map((s) => s.close()));
    await storage.close();
  });

  it('spends one request budget across both instances, then refuses on both', async () => {
    const used: number[] = [];
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      const res = await get(i % 2 === 0 ? a : b, '/v2/config');
      if (res.status === 429) {
        refused++;
        expect(((await res.json()) as { code: number | string }).code).toBeDefined();
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        continue;
      }
      expect(res.status).toBe(200);
      used.push(Number(res.headers.get('x-ratelimit-used')));
    }
    // each answer counts the other instance's requests too
    expect(used).toEqual(used.map((_, k) => (k + 1) * (used[0] ?? 0)));
    expect(used.at(-1)).toBeLessThanOrEqual(30);
    expect(refused).toBeGreaterThan(0);
    expect((await get(a, '/v2/config')).status).toBe(429);
    expect((await get(b, '/v2/config')).status).toBe(429);
  });

  async function signedIn(): Promise<string> {
    const signup = await a.request(
      '/v1/auth/signup',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `shared-${randomInt(1e9)}@example.com`, password: 'password-123' }),
      },
      { incoming: { socket: { remoteAddress: `10.9.${randomInt(256)}.${randomInt(1, 255)}` } } },
    );
    expect(signup.status).toBe(200);
    return ((await signup.json()) as { data: { session_token: string } }).data.session_token;
  }
  const credits = (app: App, token: string) =>
    Promise.resolve(
      app.request(
        '/v1/users/api_keys/credits',
        { headers: { 'x-session-token': token } },
        { incoming: { socket: { remoteAddress: `10.8.${randomInt(256)}.${randomInt(1, 255)}` } } },
      ),
    );

  it('publishes a logout to the other instances, by the token hash only', async () => {
    const token = await signedIn();
    const heard: { kind: string; id: string }[] = [];
    const probe = await openSharedState(REDIS_URL);
    const stop = await probe.invalidation.subscribe((m) => heard.push(m));
    const out = await a.request(
      '/v1/auth/logout',
      { method: 'POST', headers: { 'x-session-token': token } },
      { incoming: { socket: { remoteAddress: '10.7.0.1' } } },
    );
    expect(out.status).toBe(200);
    const deadline = Date.now() + 1_000;
    while (!heard.some((m) => m.kind === 'session') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    stop();
    await probe.close();
    expect(heard).toContainEqual({ kind: 'session', id: secretHash(token) });
    expect(JSON.stringify(heard)).not.toContain(token);
  });

  it("drops a cached session within 1 s when another instance's logout is published", async () => {
    const token = await signedIn();
    expect((await credits(b, token)).status).toBe(200); // b now holds the session in its cache
    // another instance ended it: the shared database no longer has it, b's cache still does
    await storage.sessions.deleteByTokenHash(secretHash(token));
    expect((await credits(b, token)).status).toBe(200);
    await states[0].invalidation.publish('session', secretHash(token));
    const deadline = Date.now() + 1_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
      status = (await credits(b, token)).status;
    }
    expect(status).toBe(401);
  });

  it("computes a closed candle's analysis once for both instances and serves the same one", async () => {
    // each instance reads its own venue (same prices, same clock); count the analyses computed:
    // the funding read is the first step of computing one
    const counted = (venue: ReturnType<typeof createSimulatedVenue>) => {
      let computed = 0;
      const market = Object.assign(Object.create(venue) as typeof venue, {
        fundingRate: (q: Parameters<typeof venue.fundingRate>[0]) => {
          computed++;
          return venue.fundingRate(q);
        },
      });
      return { market, computed: () => computed };
    };
    const one = counted(createSimulatedVenue({ now }));
    const two = counted(createSimulatedVenue({ now }));
    const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 1_000, windowMs: 60_000 } };
    const x = createApp({ storage, config, now, market: one.market, shared: states[0] }, { logError: () => {} });
    const y = createApp({ storage, config, now, market: two.market, shared: states[1] }, { logError: () => {} });
    // a day no earlier run asked for (Redis outlives the test run), so the shared entry is this run's
    clock.now = Date.UTC(2026, 0, 15, 12) + randomInt(1, 100_000) * 86_400_000;
    const token = await signedIn();
    const path = '/v2/analysis/ethereum?timeframe=d1';
    const ask = (app: App) =>
      Promise.resolve(
        app.request(
          path,
          { headers: { 'x-session-token': token } },
          { incoming: { socket: { remoteAddress: address() } } },
        ),
      );
    const [first, second] = await Promise.all([ask(x), ask(y)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(one.computed() + two.computed()).toBe(1);
    const a = ((await first.json()) as { data: { analysis: unknown } }).data.analysis;
    const b = ((await second.json()) as { data: { analysis: unknown } }).data.analysis;
    expect(b).toEqual(a);
  });

  it('answers a cached analysis while the verdict is on its way; a refused request computes, records and spends nothing', async () => {
    let computed = 0;
    const venue = createSimulatedVenue({ now });
    const market = Object.assign(Object.create(venue) as typeof venue, {
      fundingRate: (q: Parameters<typeof venue.fundingRate>[0]) => {
        computed++; // the first step of computing an analysis
        return venue.fundingRate(q);
      },
    });
    // 100 units: five analyses (20 units each) per window, for the two instances together
    const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 100, windowMs: 60_000 } };
    const x = createApp({ storage, config, now, market, shared: states[0] }, { logError: () => {} });
    const y = createApp({ storage, config, now, market, shared: states[1] }, { logError: () => {} });
    clock.now = Date.UTC(2026, 0, 15, 12) + randomInt(1, 100_000) * 86_400_000;
    const token = await signedIn();
    const keyed = await x.request(
      '/v1/users/api_keys',
      { method: 'POST', headers: { 'x-session-token': token, 'content-type': 'application/json' }, body: '{}' },
      { incoming: { socket: { remoteAddress: address() } } },
    );
    expect(keyed.status).toBe(200);
    const key = ((await keyed.json()) as { data: { key: string } }).data.key;
    const from = address();
    const ask = (app: App, path: string, headers: Record<string, string> = { 'x-session-token': token }) =>
      Promise.resolve(app.request(path, { headers }, { incoming: { socket: { remoteAddress: from } } }));
    const path = '/v2/analysis/bitcoin?timeframe=d1';

    const used: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ask(i % 2 === 0 ? x : y, path);
      expect(res.status).toBe(200);
      used.push(res.headers.get('x-ratelimit-used') ?? '');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(100 - 20 * (i + 1)));
    }
    expect(used).toEqual(['20', '40', '60', '80', '100']);
    const computedAdmitted = computed;
    expect(computedAdmitted).toBeGreaterThan(0);

    // Refused on both, cached or not, with the budget's headers, whatever else was wrong.
    for (const app of [x, y]) {
      const cached = await ask(app, path);
      expect([cached.status, ((await cached.json()) as { code: string }).code]).toEqual([429, 'RateLimited']);
      expect(cached.headers.get('x-ratelimit-used')).toBe('100');
      expect(cached.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(cached.headers.get('retry-after'))).toBeGreaterThan(0);
      const badSession = await ask(app, path, { 'x-session-token': 'not-a-session' });
      expect(badSession.status).toBe(429);
      const gated = await ask(app, '/v2/analysis/bitcoin?timeframe=d1&limit=100000');
      expect(gated.status).toBe(429);
    }
    // Nothing computed for a refused request, and no plan recorded for it.
    const plansBefore = await storage.publishedPlans.aggregate(5, { asset_id: 'ethereum' });
    const refused = await ask(x, '/v2/analysis/ethereum?timeframe=d1');
    expect(refused.status).toBe(429);
    expect(computed).toBe(computedAdmitted);
    expect(await storage.publishedPlans.aggregate(5, { asset_id: 'ethereum' })).toEqual(plansBefore);
    // An API key's daily allowance is not spent by a refused request.
    const refusedKey = await ask(y, path, { 'x-api-key': key });
    expect(refusedKey.status).toBe(429);
    const left = (await (await credits(x, token)).json()) as { data: { used_today: number } };
    expect(left.data.used_today).toBe(0);
  });

  it("reads the venue's quotes once for both instances", async () => {
    const counted = (venue: ReturnType<typeof createSimulatedVenue>) => {
      let tickers = 0;
      const market = Object.assign(Object.create(venue) as typeof venue, {
        ticker: (q: Parameters<typeof venue.ticker>[0]) => {
          tickers++;
          return venue.ticker(q);
        },
      });
      return { market, tickers: () => tickers };
    };
    const one = counted(createSimulatedVenue({ now }));
    const two = counted(createSimulatedVenue({ now }));
    const config = { ...DEFAULT_CONFIG, rateLimit: { limit: 1_000, windowMs: 60_000 } };
    const x = createApp({ storage, config, now, market: one.market, shared: states[0] }, { logError: () => {} });
    const y = createApp({ storage, config, now, market: two.market, shared: states[1] }, { logError: () => {} });
    // a minute no earlier run read (Redis outlives the run)
    clock.now = Date.UTC(2026, 0, 15, 12) + randomInt(1, 1_000_000) * 60_000;
    const token = await signedIn();
    const ask = (app: App) =>
      Promise.resolve(
        app.request(
          '/v2/assets/?limit=5',
          { headers: { 'x-session-token': token } },
          { incoming: { socket: { remoteAddress: address() } } },
        ),
      );
    const first = await ask(x);
    expect(first.status).toBe(200);
    expect(one.tickers()).toBeGreaterThan(0);
    const second = await ask(y);
    expect(second.status).toBe(200);
    expect(two.tickers()).toBe(0);
    const rows = (r: unknown) => (r as { data: unknown[] }).data;
    expect(rows(await second.json())).toEqual(rows(await first.json()));
  });

  it('answers 503 with an ErrorResponse while Redis cannot be reached', async () => {
    const gone = await openSharedState(REDIS_URL);
    const app = createApp({ storage, config: DEFAULT_CONFIG, now, market, shared: gone }, { logError: () => {} });
    gone.redis.disconnect();
    const res = await get(app, '/v2/config');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { success: boolean; code: string | number; message: string };
    expect(body.success).toBe(false);
    expect(body.code).toBe('ServiceUnavailable');
    expect(res.headers.get('retry-after')).toBe('1');
    await gone.close();
  });
});
