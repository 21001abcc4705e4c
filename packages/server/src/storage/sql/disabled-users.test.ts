/**
 * Disabled accounts on both engines: the flag, what disabling ends (sessions, OAuth tokens) and
 * keeps (API keys), and the schedulers' work lists that skip a disabled account until it is
 * enabled again (connections due, active alerts, push audiences of the pilot and of regimes).
 */
import { expect, it } from 'vitest';
import { describeEngines, type TestEngine } from '../../../test/support/storage/engines.js';
import { disableUser, enableUser } from '../../auth/admin.js';
import type { ConnectionRecord } from '../account-types.js';
import type { AlertRecord } from '../alerts-types.js';

const NOW = Date.UTC(2026, 10, 1);

const connection = (id: string, userId: string): ConnectionRecord => ({
  id,
  user_id: userId,
  venue: 'bybit',
  label: null,
  credentials: 'blob',
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

const alert = (id: string, userId: string): AlertRecord => ({
  id,
  user_id: userId,
  asset_id: 'bitcoin',
  kind: 'price',
  timeframe: null,
  evaluates_as: null,
  target: 1,
  direction: 'above',
  zone_low: null,
  zone_high: null,
  reference: 0.5,
  status: 'active',
  created_at: NOW,
  updated_at: NOW,
  armed_at: NOW,
  expires_at: NOW + 86_400_000,
  triggered_at: null,
  trigger_value: null,
  trigger_candle: null,
  last_evaluated_open: null,
});

/** Two users (`u1`, `u2`), each with a session, a live OAuth token under it, an API key, a connection due, an active alert and a push device. */
async function setup(engine: TestEngine) {
  const s = await engine.open();
  for (const id of ['u1', 'u2']) {
    await s.users.create({ id, email: `${id}@example.com`, password_hash: 'x', tier: 'free', created_at: NOW }, [
      'bitcoin',
    ]);
    await s.sessions.create({
      id: `s-${id}`,
      user_id: id,
      token_hash: `sh-${id}`,
      created_at: NOW,
      expires_at: NOW + 86_400_000,
    });
    await s.oauth.createClient({
      id: `client-${id}`,
      secret_hash: null,
      name: 'app',
      redirect_uris: ['http://127.0.0.1/cb'],
      token_endpoint_auth_method: 'none',
      metadata: {},
      created_at: NOW,
    });
    await s.oauth.createTokens([
      {
        token_hash: `oh-${id}`,
        kind: 'access',
        family_id: `fam-${id}`,
        client_id: `client-${id}`,
        user_id: id,
        session_id: `s-${id}`,
        resource: 'http://127.0.0.1/mcp',
        scope: null,
        created_at: NOW,
        expires_at: NOW + 3_600_000,
        used_at: null,
        revoked_at: null,
      },
    ]);
    expect(
      await s.apiKeys.createIfBelow(
        {
          id: `k-${id}`,
          user_id: id,
          name: null,
          prefix: 'mlk_',
          key_hash: `kh-${id}`,
          created_at: NOW,
          expires_at: null,
          revoked_at: null,
          last_used_at: null,
        },
        5,
        NOW,
      ),
    ).toBe(true);
    await s.connections.create(connection(`c-${id}`, id));
    expect(await s.alerts.createIfBelow(alert(`a-${id}`, id), null)).toBe(true);
    await s.pushDevices.upsert({
      id: `d-${id}`,
      user_id: id,
      endpoint: `https://push.test/${id}`,
      p256dh: 'p',
      auth: 'a',
      name: null,
      created_at: NOW,
      updated_at: NOW,
      active: true,
      deactivated_at: null,
      deactivated_reason: null,
    });
  }
  return s;
}

describeEngines('disabled users', (engine) => {
  it('stores the first disable time, and clears it on enable; false for an unknown user', async () => {
    const s = await setup(engine);
    expect((await s.users.byId('u1'))?.disabled_at).toBeUndefined();
    expect(await s.users.setDisabled('u1', NOW + 5)).toBe(true);
    expect(await s.users.setDisabled('u1', NOW + 9)).toBe(true);
    expect((await s.users.byId('u1'))?.disabled_at).toBe(NOW + 5);
    expect((await s.users.byEmail('u1@example.com'))?.disabled_at).toBe(NOW + 5);
    expect((await s.users.list()).map((u) => u.disabled_at ?? null)).toEqual([NOW + 5, null]);
    expect(await s.users.setDisabled('u1', null)).toBe(true);
    expect((await s.users.byId('u1'))?.disabled_at).toBeUndefined();
    expect(await s.users.setDisabled('nobody', NOW)).toBe(false);
  });

  it("disabling ends the user's sessions and OAuth tokens, keeps the API keys, and touches no one else", async () => {
    const s = await setup(engine);
    const done = await disableUser(s, 'u1@example.com', NOW + 10);
    expect(done).toMatchObject({
      sessions: 1,
      oauth_tokens: 1,
      changed: true,
      user: { id: 'u1', disabled_at: NOW + 10 },
    });
    expect(await s.sessions.byTokenHash('sh-u1')).toBeNull();
    expect(await s.oauth.liveAccessToken('oh-u1', NOW + 11)).toBeNull();
    expect(await s.apiKeys.byHash('kh-u1')).toMatchObject({ id: 'k-u1', revoked_at: null });
    expect(await s.sessions.byTokenHash('sh-u2')).not.toBeNull();
    expect(await s.oauth.liveAccessToken('oh-u2', NOW + 11)).not.toBeNull();
    // again: the first time stands, nothing more to end
    expect(await disableUser(s, 'u1', NOW + 20)).toMatchObject({
      sessions: 0,
      oauth_tokens: 0,
      changed: false,
      user: { disabled_at: NOW + 10 },
    });
    const enabled = await enableUser(s, 'u1');
    expect(enabled.changed).toBe(true);
    expect(enabled.user.disabled_at ?? null).toBeNull();
    expect((await enableUser(s, 'u1')).changed).toBe(false);
    // the key is as it was; the session stays ended
    expect(await s.apiKeys.byHash('kh-u1')).toMatchObject({ revoked_at: null });
    expect(await s.sessions.byTokenHash('sh-u1')).toBeNull();
    await expect(disableUser(s, 'nobody@example.com')).rejects.toThrow(/No user/);
  });

  it("skips a disabled user's connections, alerts and push audiences, and takes them back on enable", async () => {
    const s = await setup(engine);
    const work = async () => ({
      due: (await s.connections.due(NOW + 1, 10)).map((c) => c.id),
      alerts: (await s.alerts.listActive()).map((a) => a.id),
      bitcoinAlerts: (await s.alerts.listActive('bitcoin')).map((a) => a.id),
      pushUsers: await s.pushDevices.usersWithActiveDevices(),
      regime: await s.pushDevices.regimeAudience('bitcoin'),
      regimeAssets: await s.pushDevices.regimeAssets(),
    });
    const everyone = {
      due: ['c-u1', 'c-u2'],
      alerts: ['a-u1', 'a-u2'],
      bitcoinAlerts: ['a-u1', 'a-u2'],
      pushUsers: ['u1', 'u2'],
      regime: ['u1', 'u2'],
      regimeAssets: ['bitcoin'],
    };
    expect(await work()).toEqual(everyone);
    await disableUser(s, 'u1', NOW);
    expect(await work()).toEqual({
      due: ['c-u2'],
      alerts: ['a-u2'],
      bitcoinAlerts: ['a-u2'],
      pushUsers: ['u2'],
      regime: ['u2'],
      regimeAssets: ['bitcoin'],
    });
    await disableUser(s, 'u2', NOW);
    expect(await work()).toEqual({
      due: [],
      alerts: [],
      bitcoinAlerts: [],
      pushUsers: [],
      regime: [],
      regimeAssets: [],
    });
    // the rows themselves are untouched: enabled again, the overdue sync and the alerts are back
    await enableUser(s, 'u1');
    await enableUser(s, 'u2');
    expect(await work()).toEqual(everyone);
  });
});
