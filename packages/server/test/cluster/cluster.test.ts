/**
 * Three instances of the built server behind one address, on one PostgreSQL and one Redis, as
 * `deploy/` lays them out: whatever a client does on one instance holds on the others, and the
 * limits are the deployment's, not each instance's.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
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

const REDIS_SERVER = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
const noRedisServer = skipWithout(
  REDIS_SERVER,
  'the redis-server binary (to restart a Redis of its own)',
  'Install it: apt-get install -y redis-server (or `source .ci/services.sh`, which does).',
);

/** A Redis of the test's own, without persistence, that can be restarted empty on the same port. */
class OwnRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (spawnSync('redis-cli', ['-p', String(this.port), 'PING'], { encoding: 'utf8' }).stdout.trim() === 'PONG')
        return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not start on ${this.port}`);
  }
  /** Stops it (SIGKILL: nothing saved, as a crash) and waits for the exit. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }
}

/** A loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  return port;
}

describe.skipIf(missing || unbuilt || noRedisServer)(
  'a Redis restarted empty under two instances (skips without PostgreSQL, redis-server or the build)',
  () => {
    const database = `heal_${randomBytes(4).toString('hex')}`;
    const SYNC_INTERVAL_MS = 3_000;
    const instances: Running[] = [];
    let redis: OwnRedis;
    let db: pg.Client;

    beforeAll(async () => {
      redis = new OwnRedis(await freePort());
      await redis.start();
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      const url = new URL(DATABASE_URL);
      url.pathname = `/${database}`;
      db = new pg.Client({ connectionString: url.href });
      await db.connect();
      const env = {
        DATABASE_URL: url.href,
        REDIS_URL: redis.url,
        MARKETLENS_SECRET_KEY: randomBytes(32).toString('base64'),
        MARKETLENS_TRUSTED_PROXIES: '127.0.0.1',
        MARKETLENS_LOG_FORMAT: 'json',
        MARKETLENS_SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS),
        MARKETLENS_SYNC_POLL_MS: '500',
        // the periodic check far away: the reconnection alone must find the loss
        MARKETLENS_JOBS_CHECK_MS: '600000',
      };
      for (let i = 0; i < 2; i++) instances.push(await startMain({}, env));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(instances.map((r) => stop(r)));
      await db?.end();
      await redis?.kill();
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    });

    it('syncs a due connection within two sync intervals, without a restart, and re-creates each schedule once', async () => {
      const [a] = instances;
      const headers = { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' };
      const up = await fetch(`${a.url}/v1/auth/signup`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: `heal-${randomInt(1e9)}@example.com`, password: 'password-123' }),
      });
      expect(up.status).toBe(200);
      const token = ((await up.json()) as Envelope<{ session_token: string }>).data.session_token;
      const connected = await fetch(`${a.url}/v1/connections/user`, {
        method: 'POST',
        headers: { ...headers, 'x-session-token': token },
        body: JSON.stringify({ exchange_id: 'marketlens-sim' }),
      });
      expect(connected.status).toBe(200);
      const synced = async () =>
        Number((await db.query('SELECT max(last_success_at) AS t FROM user_connections')).rows[0]?.t ?? 0);
      const until = async (check: () => Promise<boolean>, ms: number) => {
        const end = Date.now() + ms;
        while (!(await check())) {
          if (Date.now() > end) return false;
          await new Promise((r) => setTimeout(r, 100));
        }
        return true;
      };
      // Synced once, and again on its schedule: the jobs run.
      expect(await until(async () => (await synced()) > 0, 10_000)).toBe(true);
      const first = await synced();
      expect(await until(async () => (await synced()) > first, 3 * SYNC_INTERVAL_MS)).toBe(true);

      // Redis crashes and comes back empty: every schedule and queued job is gone.
      await redis.kill();
      await redis.start();
      const back = Date.now();
      const keys = spawnSync('redis-cli', ['-p', String(redis.port), 'DBSIZE'], { encoding: 'utf8' }).stdout.trim();
      expect(Number(keys)).toBeLessThan(5);
      const due = Math.max(
        back,
        Number((await db.query('SELECT max(next_sync_at) AS t FROM user_connections')).rows[0]?.t ?? 0),
      );
      // Synced again within two sync intervals of being due, nothing restarted.
      expect(await until(async () => (await synced()) > back, due - back + 2 * SYNC_INTERVAL_MS)).toBe(true);
      expect(Date.now() - due).toBeLessThan(2 * SYNC_INTERVAL_MS + 500);
      for (const r of instances) expect(r.child.exitCode).toBeNull();

      const lines = instances.flatMap((r) =>
        r
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
      const recreated = lines.filter((l) => String(l.msg).startsWith('job schedule was missing'));
      const byJob = new Map<string, number>();
      for (const l of recreated) byJob.set(String(l.job), (byJob.get(String(l.job)) ?? 0) + 1);
      expect(byJob.get('sync-due')).toBe(1);
      for (const [job, n] of byJob) expect(n, job).toBe(1);
      // job runs are logged with the process that ran them
      expect(
        lines.some((l) => l.msg === 'job run' && l.job === 'sync-due' && /^api-\d+$/.test(String(l.process))),
      ).toBe(true);
    }, 90_000);
  },
);
