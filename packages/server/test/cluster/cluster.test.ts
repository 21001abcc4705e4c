/**
 * Three instances of the built server behind one address, on one PostgreSQL and one Redis, as
 * `deploy/` lays them out: whatever a client does on one instance holds on the others, and the
 * limits are the deployment's, not each instance's.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { MAIN, type Running, startMain, stop } from '../support/main-process.js';

const DATABASE_URL = process.env.MARKETLENS_TEST_DATABASE_URL ?? '';
const REDIS_URL = process.env.MARKETLENS_TEST_REDIS_URL ?? '';
const missing = skipWithout(
  DATABASE_URL !== '' && REDIS_URL !== '',
  'PostgreSQL and Redis (MARKETLENS_TEST_DATABASE_URL, MARKETLENS_TEST_REDIS_URL)',
  'Start throwaway ones with `source .ci/services.sh`, which sets both.',
);
const unbuilt = skipWithout(existsSync(MAIN), 'the built server (packages/server/dist/main.js)', 'Run `pnpm build`.');

interface Envelope<T> {
  success: boolean;
  code: number | string;
  data: T;
  message: string;
}

describe.skipIf(missing || unbuilt)('three instances on one PostgreSQL and one Redis (skips without them)', () => {
  const database = `cluster_${randomBytes(4).toString('hex')}`;
  const instances: Running[] = [];
  let a: Running;
  let b: Running;
  let c: Running;
  // A reverse proxy sets X-Forwarded-For; each test speaks from its own addresses.
  const call = async <T>(
    at: Running,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; ip?: string } = {},
  ): Promise<{ status: number; body: Envelope<T>; headers: Headers }> => {
    const res = await fetch(`${at.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'x-forwarded-for': init.ip ?? '198.51.100.1',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Envelope<T>, headers: res.headers };
  };
  const address = () => `203.0.${randomInt(256)}.${randomInt(1, 255)}`;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    const env = {
      DATABASE_URL: url.href,
      REDIS_URL,
      MARKETLENS_SECRET_KEY: randomBytes(32).toString('base64'),
      MARKETLENS_TRUSTED_PROXIES: '127.0.0.1',
    };
    // one after the other, as a rolling start would: the first migrates, the others find it done
    for (let i = 0; i < 3; i++) instances.push(await startMain({}, env));
    [a, b, c] = instances;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((r) => stop(r)));
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('is ready on each instance once storage and Redis answer', async () => {
    for (const at of instances) {
      const res = await fetch(`${at.url}/readyz`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string; checks: Record<string, { ok: boolean }> };
      expect(body.checks.storage?.ok).toBe(true);
      expect(body.checks.redis?.ok).toBe(true);
    }
  });

  it('signs up on A, logs in on B, and reads on A the favorites written on C', async () => {
    const email = `cluster-${randomInt(1e9)}@example.com`;
    const ip = address();
    const up = await call<{ session_token: string }>(a, '/v1/auth/signup', {
      body: { email, password: 'password-123' },
      ip,
    });
    expect(up.status).toBe(200);
    const login = await call<{ session_token: string }>(b, '/v1/auth/login', {
      body: { email, password: 'password-123' },
      ip,
    });
    expect(login.status).toBe(200);
    const token = login.body.data.session_token;
    const assets = await call<{ id: string }[]>(c, '/v2/assets/?limit=50', {
      headers: { 'x-session-token': token },
      ip,
    });
    expect(assets.status).toBe(200);
    const favorite = assets.body.data.map((row) => row.id).find((id) => id !== undefined) as string;
    const before = await call<{ id: string }[]>(a, '/v2/assets/favorites', {
      headers: { 'x-session-token': token },
      ip,
    });
    expect(before.body.data.map((r) => r.id)).not.toContain(favorite);
    const added = await call(c, '/v2/assets/favorites', {
      body: { asset_id: favorite },
      headers: { 'x-session-token': token },
      ip,
    });
    expect(added.status).toBe(200);
    const after = await call<{ id: string }[]>(a, '/v2/assets/favorites', {
      headers: { 'x-session-token': token },
      ip,
    });
    expect(after.body.data.map((r) => r.id)).toContain(favorite);
  });

  it("meters a key's daily allowance exactly under concurrent calls spread over the three", async () => {
    const email = `allowance-${randomInt(1e9)}@example.com`;
    const up = await call<{ session_token: string }>(a, '/v1/auth/signup', {
      body: { email, password: 'password-123' },
      ip: address(),
    });
    const token = up.body.data.session_token;
    const created = await call<{ key: string }>(b, '/v1/users/api_keys', {
      body: { name: 'cluster' },
      headers: { 'x-session-token': token },
      ip: address(),
    });
    expect(created.status).toBe(200);
    const key = created.body.data.key;
    // the free tier's 100 calls a day, asked 130 times at once over A, B and C
    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        call(instances[i % 3], '/v2/assets/popular', { headers: { 'x-api-key': key }, ip: address() }),
      ),
    );
    const ok = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(ok).toBe(100);
    expect(refused.length).toBe(30);
    for (const r of refused) expect(r.body.success).toBe(false);
    const credits = await call<{ used_today: number; remaining_today: number }>(c, '/v1/users/api_keys/credits', {
      headers: { 'x-session-token': token },
      ip: address(),
    });
    expect(credits.body.data).toMatchObject({ used_today: 100, remaining_today: 0 });
  });

  it('refuses on B, within a second, a key revoked on A', async () => {
    const up = await call<{ session_token: string }>(a, '/v1/auth/signup', {
      body: { email: `revoke-${randomInt(1e9)}@example.com`, password: 'password-123' },
      ip: address(),
    });
    const token = up.body.data.session_token;
    const created = await call<{ key: string; api_key: { id: string } }>(a, '/v1/users/api_keys', {
      body: { name: 'revoke me' },
      headers: { 'x-session-token': token },
      ip: address(),
    });
    const { key } = created.body.data;
    const id = created.body.data.api_key?.id ?? (created.body.data as unknown as { id: string }).id;
    expect((await call(b, '/v2/assets/popular', { headers: { 'x-api-key': key }, ip: address() })).status).toBe(200);
    const revoked = await call(a, `/v1/users/api_keys/${id}`, {
      method: 'DELETE',
      headers: { 'x-session-token': token },
      ip: address(),
    });
    expect(revoked.status).toBe(200);
    const at = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - at < 1_000) {
      status = (await call(b, '/v2/assets/popular', { headers: { 'x-api-key': key }, ip: address() })).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - at).toBeLessThan(1_000);
  });

  it('spends one request budget of 2,000 units across the three, then refuses on all three', async () => {
    const ip = address();
    // /v2/config weighs 1 unit: 2,000 calls over A, B and C in parallel batches
    let admitted = 0;
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => call(instances[(batch * 100 + i) % 3], '/v2/config', { ip })),
      );
      admitted += answers.filter((r) => r.status === 200).length;
    }
    expect(admitted).toBe(2_000);
    for (const at of instances) {
      const r = await call(at, '/v2/config', { ip });
      expect(r.status).toBe(429);
      expect(r.headers.get('x-ratelimit-used')).toBe('2000');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
