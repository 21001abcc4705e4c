import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataDir } from '@marketlens/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, marketlens } from '../testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const T = Date.UTC(2025, 0, 1);

/** A data folder holding two OAuth clients, one approved by a user with a live token. */
async function dataDir(): Promise<NodeJS.ProcessEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-clients-'));
  const s = openDataDir(dir);
  await s.users.create({ id: 'u1', email: 'ada@example.com', password_hash: 'x', tier: 'free', created_at: T }, []);
  await s.sessions.create({
    id: 's1',
    user_id: 'u1',
    token_hash: 'sh',
    created_at: T,
    expires_at: Date.now() + 86_400_000,
  });
  const client = (id: string, at: number) => ({
    id,
    secret_hash: id === 'mlc_b' ? 'hash' : null,
    name: `app ${id}`,
    redirect_uris: ['http://127.0.0.1/cb'],
    token_endpoint_auth_method: 'none' as const,
    metadata: {},
    created_at: at,
    registered_from: '198.51.100.7',
  });
  await s.oauth.createClient(client('mlc_a', T));
  await s.oauth.createClient(client('mlc_b', T + 1));
  await s.oauth.createCode({
    code_hash: 'c',
    client_id: 'mlc_a',
    user_id: 'u1',
    session_id: 's1',
    redirect_uri: 'http://127.0.0.1/cb',
    code_challenge: 'x',
    resource: 'http://127.0.0.1/mcp',
    scope: null,
    created_at: T + 2,
    expires_at: T + 60_000,
  });
  await s.oauth.createTokens([
    {
      token_hash: 't',
      kind: 'refresh',
      family_id: 'f',
      client_id: 'mlc_a',
      user_id: 'u1',
      session_id: 's1',
      resource: 'http://127.0.0.1/mcp',
      scope: null,
      created_at: T + 3,
      expires_at: Date.now() + 86_400_000,
      used_at: null,
      revoked_at: null,
    },
  ]);
  await s.close();
  return { MARKETLENS_DATA_DIR: dir };
}

describe('admin clients', () => {
  it('lists the OAuth clients with their approval and live tokens, never a secret hash', async () => {
    const env = await dataDir();
    const listed = marketlens(['admin', 'clients', '--json'], env);
    expect(listed.code).toBe(0);
    const body = JSON.parse(listed.stdout) as { schema: string; clients: Record<string, unknown>[] };
    expect(body.schema).toBe('marketlens.admin.oauth_clients/1');
    expect(body.clients.map((c) => [c.id, c.approved_by, c.live_tokens, c.confidential])).toEqual([
      ['mlc_a', 'u1', 1, false],
      ['mlc_b', null, 0, true],
    ]);
    expect(listed.stdout).not.toContain('secret_hash');
    const text = marketlens(['admin', 'clients'], env);
    expect(text.stdout).toMatch(/mlc_a\s+app mlc_a/);
    expect(text.stdout).toContain('198.51.100.7');
  });

  it('removes a client with its tokens; an unknown one is an error', async () => {
    const env = await dataDir();
    const removed = marketlens(['admin', 'clients', 'remove', 'mlc_a', '--json'], env);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ client_id: 'mlc_a', removed: true });
    const after = JSON.parse(marketlens(['admin', 'clients', '--json'], env).stdout) as { clients: { id: string }[] };
    expect(after.clients.map((c) => c.id)).toEqual(['mlc_b']);
    const again = marketlens(['admin', 'clients', 'remove', 'mlc_a'], env);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('no OAuth client mlc_a');
    expect(marketlens(['admin']).stdout).toContain('admin clients remove');
  });
});
