/** `marketlens admin sessions revoke`, `admin user delete|disable|enable` and `admin key rotate` on a data folder. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptCredentials, encryptCredentials, openDataDir } from '@marketlens/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, marketlens } from '../testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const USER = 'ops@example.com';
const OLD = randomBytes(32);
const NEW = randomBytes(32);

/** A data folder with one user, two sessions and a connection whose credentials are under OLD. */
async function dataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-ops-'));
  const storage = openDataDir(dir);
  await storage.users.create({ id: 'u-ops', email: USER, password_hash: 'x', tier: 'free', created_at: 1 }, []);
  await storage.users.create(
    { id: 'u-other', email: 'other@example.com', password_hash: 'x', tier: 'free', created_at: 1 },
    [],
  );
  for (const [id, user] of [
    ['s1', 'u-ops'],
    ['s2', 'u-ops'],
    ['s3', 'u-other'],
  ]) {
    await storage.sessions.create({ id, user_id: user, token_hash: `h-${id}`, created_at: 1, expires_at: 4e12 });
  }
  await storage.connections.create({
    id: 'c1',
    user_id: 'u-ops',
    venue: 'bybit',
    label: null,
    credentials: encryptCredentials(OLD, 'c1', { apiKey: 'k', secret: 's' }),
    created_at: 1,
    last_sync_at: null,
    last_success_at: null,
    last_error: null,
    failures: 0,
    next_sync_at: 1,
    fills_synced_until: null,
    fills_cursor: null,
    fills_cursor_since: null,
    fills_cursor_until: null,
    protective_levels_synced_at: null,
  });
  await storage.close();
  return { dir, env: { MARKETLENS_DATA_DIR: dir, DATABASE_URL: undefined } };
}

describe('admin commands for operators', () => {
  it("ends a user's sessions, and no one else's", async () => {
    const { dir, env } = await dataDir();
    const r = marketlens(['admin', 'sessions', 'revoke', USER, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ schema: 'marketlens.admin.sessions.revoked/1', sessions: 2 });
    expect(marketlens(['admin', 'sessions', 'revoke', USER], env).stdout).toBe(`${USER}: 0 sessions ended\n`);
    const storage = openDataDir(dir);
    expect(await storage.sessions.byTokenHash('h-s3')).not.toBeNull();
    await storage.close();
    expect(marketlens(['admin', 'sessions', 'revoke', 'nobody@example.com'], env).code).toBe(3);
  });

  it('deletes a user only with --yes, with everything of theirs', async () => {
    const { dir, env } = await dataDir();
    expect(marketlens(['admin', 'user', 'delete', USER], env).code).toBe(2);
    const r = marketlens(['admin', 'user', 'delete', USER, '--yes'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${USER}: deleted (u-ops)\n`);
    expect(marketlens(['admin', 'user', USER], env).code).toBe(3);
    const storage = openDataDir(dir);
    expect(await storage.connections.byId('c1')).toBeNull();
    expect(await storage.users.byEmail('other@example.com')).not.toBeNull();
    await storage.close();
  });

  it('disables a user (sessions ended, key kept, sync skipped) and enables them again', async () => {
    const { dir, env } = await dataDir();
    let storage = openDataDir(dir);
    await storage.apiKeys.createIfBelow(
      {
        id: 'k1',
        user_id: 'u-ops',
        name: null,
        prefix: 'mlk_x',
        key_hash: 'kh1',
        created_at: 1,
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      },
      5,
      1,
    );
    await storage.close();
    const r = marketlens(['admin', 'user', 'disable', USER, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      schema: 'marketlens.admin.user.disabled/1',
      user_id: 'u-ops',
      changed: true,
      sessions: 2,
      oauth_tokens: 0,
    });
    expect(typeof out.disabled_at).toBe('number');
    const again = marketlens(['admin', 'user', 'disable', 'u-ops'], env);
    expect(again.stdout).toMatch(
      /^ops@example\.com: already disabled since .* UTC; 0 sessions ended, 0 OAuth tokens revoked\n$/,
    );
    const shown = JSON.parse(marketlens(['admin', 'user', USER, '--json'], env).stdout);
    expect(shown.user.disabled_at).toBe(out.disabled_at);
    storage = openDataDir(dir);
    expect(await storage.sessions.byTokenHash('h-s1')).toBeNull();
    expect(await storage.sessions.byTokenHash('h-s3')).not.toBeNull();
    expect(await storage.apiKeys.byHash('kh1')).toMatchObject({ revoked_at: null });
    expect((await storage.connections.due(2, 10)).map((c) => c.id)).toEqual([]);
    await storage.close();

    const enabled = marketlens(['admin', 'user', 'enable', USER], env);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toBe(`${USER}: enabled\n`);
    expect(marketlens(['admin', 'user', 'enable', USER], env).stdout).toBe(`${USER}: was not disabled\n`);
    expect(JSON.parse(marketlens(['admin', 'user', USER, '--json'], env).stdout).user.disabled_at).toBeNull();
    storage = openDataDir(dir);
    expect((await storage.connections.due(2, 10)).map((c) => c.id)).toEqual(['c1']);
    await storage.close();
    expect(marketlens(['admin', 'user', 'disable', 'nobody@example.com'], env).code).toBe(3);
    expect(marketlens(['admin']).stdout).toContain('admin user disable');
  });

  it('re-encrypts stored credentials under the new key, once; refuses without both keys', async () => {
    const { dir, env } = await dataDir();
    const keys = {
      MARKETLENS_SECRET_KEY: NEW.toString('base64'),
      MARKETLENS_SECRET_KEY_PREVIOUS: OLD.toString('base64'),
    };
    expect(
      marketlens(['admin', 'key', 'rotate'], { ...env, MARKETLENS_SECRET_KEY: keys.MARKETLENS_SECRET_KEY }).code,
    ).toBe(2);
    const first = marketlens(['admin', 'key', 'rotate'], { ...env, ...keys });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('user_connections: 1 re-encrypted, 0 already under the new key, 0 unreadable');
    const again = marketlens(['admin', 'key', 'rotate', '--json'], { ...env, ...keys });
    expect(JSON.parse(again.stdout)).toMatchObject({ user_connections: { rotated: 0, current: 1, unreadable: [] } });
    const storage = openDataDir(dir);
    const row = await storage.connections.byId('c1');
    await storage.close();
    expect(decryptCredentials(NEW, 'c1', row?.credentials ?? '')).toEqual({ apiKey: 'k', secret: 's' });
    // a third key opens nothing: named, exit 3
    const wrong = marketlens(['admin', 'key', 'rotate'], {
      ...env,
      MARKETLENS_SECRET_KEY: randomBytes(32).toString('base64'),
      MARKETLENS_SECRET_KEY_PREVIOUS: randomBytes(32).toString('base64'),
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('c1');
  });
});
