import { randomBytes, randomUUID } from 'node:crypto';
import { SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDeps } from '../platform/deps.js';
import {
  CredentialsDecryptError,
  decryptCredentials,
  encryptCredentials,
  openCredentials,
} from '../platform/secrets.js';
import type { SqlStorage } from '../storage/sql/storage.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { rotateCredentialsKey } from './key-rotation.js';

const NOW = Date.UTC(2026, 10, 28);
const storages: SqlStorage[] = [];
afterEach(async () => {
  for (const s of storages.splice(0)) await s.close();
});

/** A storage with one user, `n` connections and one webhook, all encrypted with `key`. */
async function seeded(key: Uint8Array, n: number) {
  const storage = createSqliteStorage(':memory:');
  storages.push(storage);
  const userId = randomUUID();
  await storage.users.create(
    { id: userId, email: 'rotate@example.com', password_hash: 'x', tier: 'free', created_at: NOW },
    [],
  );
  const connections: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await storage.connections.create({
      id,
      user_id: userId,
      venue: SIMULATED_VENUE_ID,
      label: null,
      credentials: encryptCredentials(key, id, { apiKey: `key-${i}`, secret: `secret-${i}` }),
      created_at: NOW,
      last_sync_at: null,
      last_success_at: null,
      last_error: null,
      failures: 0,
      next_sync_at: NOW,
      fills_synced_until: null,
      fills_cursor: null,
      fills_cursor_since: null,
      fills_cursor_until: null,
      protective_levels_synced_at: null,
    });
    connections.push(id);
  }
  const hook = randomUUID();
  expect(
    await storage.alertWebhooks.register(
      {
        id: hook,
        user_id: userId,
        url: 'https://hooks.example.com/a',
        name: null,
        secret: encryptCredentials(key, hook, { secret: 'signing-secret' }),
        created_at: NOW,
        updated_at: NOW,
        active: true,
        deactivated_at: null,
        deactivated_reason: null,
      },
      10,
    ),
  ).toBe(true);
  return { storage, connections, hook };
}

describe('rotateCredentialsKey', () => {
  it('re-encrypts every connection and webhook secret under the new key, once', async () => {
    const old = randomBytes(32);
    const next = randomBytes(32);
    const { storage, connections, hook } = await seeded(old, 5);
    const first = await rotateCredentialsKey(storage, old, next);
    expect(first).toEqual({
      user_connections: { rotated: 5, current: 0, unreadable: [] },
      alert_webhooks: { rotated: 1, current: 0, unreadable: [] },
    });
    for (const [i, id] of connections.entries()) {
      const row = await storage.connections.byId(id);
      expect(decryptCredentials(next, id, row?.credentials ?? '')).toEqual({
        apiKey: `key-${i}`,
        secret: `secret-${i}`,
      });
      expect(() => decryptCredentials(old, id, row?.credentials ?? '')).toThrow(CredentialsDecryptError);
    }
    const w = await storage.alertWebhooks.byId(hook);
    expect(decryptCredentials(next, hook, w?.secret ?? '')).toEqual({ secret: 'signing-secret' });
    // a second run writes nothing
    expect(await rotateCredentialsKey(storage, old, next)).toEqual({
      user_connections: { rotated: 0, current: 5, unreadable: [] },
      alert_webhooks: { rotated: 0, current: 1, unreadable: [] },
    });
  });

  it('leaves a blob neither key opens, and names it', async () => {
    const old = randomBytes(32);
    const { storage, connections } = await seeded(randomBytes(32), 1);
    const report = await rotateCredentialsKey(storage, old, randomBytes(32));
    expect(report.user_connections).toEqual({ rotated: 0, current: 0, unreadable: connections });
  });
});

describe('openCredentials', () => {
  it('opens with the current key, else with the previous one, else fails', () => {
    const old = randomBytes(32);
    const next = randomBytes(32);
    const id = randomUUID();
    const blob = encryptCredentials(old, id, { apiKey: 'k' });
    const deps = { credentialsKey: next, previousCredentialsKey: old } as Pick<
      AppDeps,
      'credentialsKey' | 'previousCredentialsKey'
    > as AppDeps;
    expect(openCredentials(deps, id, blob)).toEqual({ apiKey: 'k' });
    expect(openCredentials(deps, id, encryptCredentials(next, id, { apiKey: 'n' }))).toEqual({ apiKey: 'n' });
    const without = { credentialsKey: next } as Pick<AppDeps, 'credentialsKey'> as AppDeps;
    expect(() => openCredentials(without, id, blob)).toThrow(CredentialsDecryptError);
  });
});
