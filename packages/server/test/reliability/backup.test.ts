/**
 * deploy/backup.sh end to end: a running instance's storage (the SQLite default through SQLite's
 * online backup API; PostgreSQL through pg_dump) backed up while it serves, restored into a fresh
 * data folder or an empty database, and a fresh instance started on it still knows the user (its
 * password), its API key and its exchange connection.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { MAIN, type Running, startMain, stop } from '../support/main-process.js';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../deploy/backup.sh');
const DATABASE_URL = process.env.MARKETLENS_TEST_DATABASE_URL ?? '';
const unbuilt = skipWithout(existsSync(MAIN), 'the built server (packages/server/dist/main.js)', 'Run `pnpm build`.');
const noPostgres = skipWithout(
  DATABASE_URL !== '' && spawnSync('pg_dump', ['--version']).status === 0,
  'PostgreSQL and pg_dump (MARKETLENS_TEST_DATABASE_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);
const KEY = randomBytes(32).toString('base64');

interface Envelope<T> {
  data: T;
}

/** The script, with `env` on top of PATH alone; fails the test on a non-zero exit. */
function script(args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync('bash', [SCRIPT, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

const call = async <T>(at: Running, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => {
  const res = await fetch(`${at.url}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
};

/** A user with a password, an API key and a connection, made through the API of `at`. */
async function seed(at: Running) {
  const email = `backup-${randomInt(1e9)}@example.com`;
  const password = 'password-123';
  const up = await call<{ session_token: string }>(at, '/v1/auth/signup', { body: { email, password } });
  expect(up.status).toBe(200);
  const token = up.body.data.session_token;
  const key = await call<{ key: string }>(at, '/v1/users/api_keys', {
    body: { name: 'backup' },
    headers: { 'x-session-token': token },
  });
  expect(key.status).toBe(200);
  const conn = await call<{ id: string }>(at, '/v1/connections/user', {
    body: { exchange_id: 'marketlens-sim' },
    headers: { 'x-session-token': token },
  });
  expect(conn.status).toBe(200);
  return { email, password, apiKey: key.body.data.key, connection: conn.body.data.id };
}

/** What must survive: the password signs in, the key answers, the connection is listed. */
async function survived(at: Running, s: Awaited<ReturnType<typeof seed>>) {
  const login = await call<{ session_token: string }>(at, '/v1/auth/login', {
    body: { email: s.email, password: s.password },
  });
  expect(login.status).toBe(200);
  expect((await call(at, '/v2/config', { headers: { 'x-api-key': s.apiKey } })).status).toBe(200);
  const list = await call<{ id: string }[]>(at, '/v1/connections/user', {
    headers: { 'x-session-token': login.body.data.session_token },
  });
  expect(list.status).toBe(200);
  expect(list.body.data.map((c) => c.id)).toContain(s.connection);
}

describe.skipIf(unbuilt)('deploy/backup.sh (skips unbuilt)', () => {
  it('backs up the SQLite default while it serves, and a fresh instance on the restored folder keeps users, keys and connections', async () => {
    const original = await startMain({}, { MARKETLENS_SECRET_KEY: KEY });
    let restored: Running | undefined;
    try {
      const s = await seed(original);
      const dir = join(mkdtempSync(join(tmpdir(), 'marketlens-backup-')), 'bk');
      script(['backup', dir], { MARKETLENS_DATA_DIR: join(original.dir, 'data') });
      expect(readFileSync(join(dir, 'manifest.txt'), 'utf8')).toMatch(/^engine=sqlite$/m);
      expect(statSync(join(dir, 'marketlens.sqlite')).mode & 0o077).toBe(0);
      await stop(original);
      const fresh = join(mkdtempSync(join(tmpdir(), 'marketlens-restored-')), 'data');
      script(['restore', dir], { MARKETLENS_DATA_DIR: fresh });
      restored = await startMain({ dataDir: fresh }, { MARKETLENS_SECRET_KEY: KEY });
      await survived(restored, s);
      // a second restore onto the same folder is refused
      const again = spawnSync('bash', [SCRIPT, 'restore', dir], {
        env: { PATH: process.env.PATH, MARKETLENS_DATA_DIR: fresh },
        encoding: 'utf8',
      });
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('exists');
    } finally {
      await stop(original);
      await stop(restored);
    }
  }, 120_000);

  it.skipIf(noPostgres)(
    'dumps PostgreSQL with pg_dump and restores it with pg_restore into an empty database',
    async () => {
      const names = [`bk_src_${randomBytes(3).toString('hex')}`, `bk_dst_${randomBytes(3).toString('hex')}`];
      const psql = (sql: string) => {
        const r = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', DATABASE_URL, '-c', sql], {
          encoding: 'utf8',
        });
        expect(r.status, r.stderr).toBe(0);
      };
      const urlOf = (name: string) => {
        const u = new URL(DATABASE_URL);
        u.pathname = `/${name}`;
        return u.href;
      };
      for (const n of names) psql(`CREATE DATABASE ${n}`);
      let original: Running | undefined;
      let restored: Running | undefined;
      try {
        original = await startMain({}, { DATABASE_URL: urlOf(names[0]), MARKETLENS_SECRET_KEY: KEY });
        const s = await seed(original);
        const dir = join(mkdtempSync(join(tmpdir(), 'marketlens-backup-')), 'bk');
        script(['backup', dir], { DATABASE_URL: urlOf(names[0]) });
        expect(readFileSync(join(dir, 'manifest.txt'), 'utf8')).toMatch(/^engine=postgres$/m);
        await stop(original);
        script(['restore', dir], { DATABASE_URL: urlOf(names[1]) });
        restored = await startMain({}, { DATABASE_URL: urlOf(names[1]), MARKETLENS_SECRET_KEY: KEY });
        await survived(restored, s);
        // restoring into a database that is not empty is refused
        const again = spawnSync('bash', [SCRIPT, 'restore', dir], {
          env: { PATH: process.env.PATH, DATABASE_URL: urlOf(names[1]) },
          encoding: 'utf8',
        });
        expect(again.status).toBe(1);
        expect(again.stderr).toContain('restore into an empty one');
      } finally {
        await stop(original);
        await stop(restored);
        for (const n of names) psql(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
      }
    },
    120_000,
  );
});
