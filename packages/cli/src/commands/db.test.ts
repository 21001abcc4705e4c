/**
 * `marketlens db migrate`: needs the database alone (no secret key, no public URL, production or
 * not) and says how many migrations it applied, 0 when the schema was current.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { ensureBuilt, marketlens } from '../testing/binary.js';

const DATABASE_URL = process.env.MARKETLENS_TEST_DATABASE_URL ?? '';
const noPostgres = skipWithout(
  DATABASE_URL !== '',
  'PostgreSQL (MARKETLENS_TEST_DATABASE_URL)',
  'Start a throwaway one with `source .ci/services.sh`, which sets it.',
);

beforeAll(() => {
  ensureBuilt();
}, 120_000);

/** The environment of a run: nothing of the caller's marketlens settings leaks in. */
const only = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  MARKETLENS_SECRET_KEY: undefined,
  MARKETLENS_PUBLIC_URL: undefined,
  REDIS_URL: undefined,
  DATABASE_URL: undefined,
  MARKETLENS_ENV: undefined,
  ...env,
});

describe('marketlens db migrate', () => {
  it('migrates a new SQLite data folder, then says 0 applied', () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-migrate-'));
    const first = marketlens(['db', 'migrate', '--json'], only({ MARKETLENS_DATA_DIR: dir }));
    expect(first.code, first.stderr).toBe(0);
    const applied = JSON.parse(first.stdout) as { applied: number; version: number };
    expect(applied.applied).toBeGreaterThan(0);
    expect(applied.applied).toBe(applied.version);
    const again = marketlens(['db', 'migrate'], only({ MARKETLENS_DATA_DIR: dir }));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`0 migrations applied, schema version ${applied.version}`);
  });

  it.skipIf(noPostgres)(
    'needs only DATABASE_URL: in production, with REDIS_URL and no secret key or public URL',
    () => {
      const name = `migrate_${randomBytes(4).toString('hex')}`;
      const psql = (sql: string) => {
        const r = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', DATABASE_URL, '-c', sql], {
          encoding: 'utf8',
        });
        if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
      };
      psql(`CREATE DATABASE ${name}`);
      try {
        const url = new URL(DATABASE_URL);
        url.pathname = `/${name}`;
        const env = only({
          DATABASE_URL: url.href,
          REDIS_URL: 'redis://127.0.0.1:1',
          MARKETLENS_ENV: 'production',
        });
        const first = marketlens(['db', 'migrate'], env);
        expect(first.code, first.stderr).toBe(0);
        const n = Number(/(\d+) migrations? applied/.exec(first.stdout)?.[1]);
        expect(n).toBeGreaterThan(0);
        const again = marketlens(['db', 'migrate'], env);
        expect(again.code, again.stderr).toBe(0);
        expect(again.stdout).toMatch(/^postgres .*: 0 migrations applied, schema version \d+\n$/);
        expect(again.stdout).not.toContain(url.password === '' ? '\u0000' : url.password);
      } finally {
        psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    },
    60_000,
  );
});
