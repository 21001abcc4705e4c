import { expect, it } from 'vitest';
import { describeEngines, type TestEngine } from '../../../test/support/storage/engines.js';
import type { OAuthClientRecord, OAuthCodeRecord, OAuthTokenRecord } from '../oauth-types.js';

const T = Date.UTC(2026, 0, 15);

const client = (id: string, created_at = T): OAuthClientRecord => ({
  id,
  secret_hash: null,
  name: `client ${id}`,
  redirect_uris: ['https://app.test/cb'],
  token_endpoint_auth_method: 'none',
  metadata: { client_name: id },
  created_at,
});

const code = (hash: string, session = 's1'): OAuthCodeRecord => ({
  code_hash: hash,
  client_id: 'c1',
  user_id: 'u1',
  session_id: session,
  redirect_uri: 'https://app.test/cb',
  code_challenge: 'ch',
  resource: 'https://api.test/mcp',
  scope: null,
  created_at: T,
  expires_at: T + 60_000,
});

const token = (hash: string, kind: OAuthTokenRecord['kind'], family = 'f1'): OAuthTokenRecord => ({
  token_hash: hash,
  kind,
  family_id: family,
  client_id: 'c1',
  user_id: 'u1',
  session_id: 's1',
  resource: 'https://api.test/mcp',
  scope: null,
  created_at: T,
  expires_at: T + 3_600_000,
  used_at: null,
  revoked_at: null,
});

async function setup(engine: TestEngine) {
  const s = await engine.open();
  await s.users.create({ id: 'u1', email: 'a@x.test', password_hash: 'h', tier: 'free', created_at: T }, []);
  await s.sessions.create({ id: 's1', user_id: 'u1', token_hash: 'sh', created_at: T, expires_at: T + 86_400_000 });
  await s.oauth.createClient(client('c1'));
  return s;
}

/** Bounds that only `max` decides by: nothing lapses, no address cap. */
const LOOSE = { max: 10, unusedBefore: 0, idleBefore: 0, perAddress: 1_000, now: 0 };

describeEngines('oauth', (engine) => {
  it('bounds registrations: unused clients go first, full of used ones refuses', async () => {
    const s = await setup(engine);
    expect(await s.oauth.clientById('c1')).toEqual(client('c1'));
    await s.oauth.createCode(code('x'));
    expect(await s.oauth.createClientBounded(client('c2', T + 1), { ...LOOSE, max: 2 })).toBe('stored');
    // Full: the unused c2 is evicted for c3.
    expect(await s.oauth.createClientBounded(client('c3', T + 2), { ...LOOSE, max: 2 })).toBe('stored');
    expect(await s.oauth.clientById('c2')).toBeNull();
    await s.oauth.deleteUnusedClients(T + 3);
    expect(await s.oauth.clientById('c3')).toBeNull();
    expect(await s.oauth.clientById('c1')).not.toBeNull();
    expect(await s.oauth.createClientBounded(client('c4', T + 4), { ...LOOSE, max: 1 })).toBe('full');
  });

  it('drops unapproved clients after their hour and approved ones idle (no live token) past their 90 days', async () => {
    const s = await setup(engine);
    const HOUR = 3_600_000;
    const DAYS_90 = 90 * 86_400_000;
    // c1 approved at T (setup's code) with a live token; c2 approved at T, its token expired; c3 never approved.
    await s.oauth.createCode(code('x'));
    await s.oauth.createTokens([token('t1', 'refresh')]);
    expect(await s.oauth.createClientBounded(client('c2', T), { ...LOOSE, now: T })).toBe('stored');
    await s.oauth.createCode({ ...code('y'), client_id: 'c2' });
    await s.oauth.createTokens([{ ...token('t2', 'access', 'f2'), client_id: 'c2', expires_at: T + 1 }]);
    expect(await s.oauth.createClientBounded(client('c3', T + 1), { ...LOOSE, now: T + 1 })).toBe('stored');
    const now = T + DAYS_90 + HOUR;
    const bounds = { ...LOOSE, unusedBefore: now - HOUR, idleBefore: now - DAYS_90, now };
    // c1's refresh token is still live at `now` only if it has not expired: make it long-lived.
    await s.oauth.createTokens([{ ...token('t3', 'refresh', 'f3'), expires_at: now + 1 }]);
    expect(await s.oauth.createClientBounded(client('c4', now), bounds)).toBe('stored');
    expect(await s.oauth.clientById('c1')).not.toBeNull();
    expect(await s.oauth.clientById('c2')).toBeNull();
    expect(await s.oauth.clientById('c3')).toBeNull();
    expect((await s.oauth.listClients(now)).map((c) => [c.id, c.approved_by, c.live_tokens])).toEqual([
      ['c1', 'u1', 1],
      ['c4', null, 0],
    ]);
  });

  it('caps unapproved clients per address and approved clients per account', async () => {
    const s = await setup(engine);
    const from = (id: string, at: number) => ({ ...client(id, at), registered_from: '2001:db8:1:2::/64' });
    for (let i = 0; i < 3; i++) {
      expect(await s.oauth.createClientBounded(from(`a${i}`, T + i), { ...LOOSE, perAddress: 3 })).toBe('stored');
    }
    expect(await s.oauth.createClientBounded(from('a3', T + 3), { ...LOOSE, perAddress: 3 })).toBe('address');
    expect(await s.oauth.createClientBounded(client('b0', T + 3), { ...LOOSE, perAddress: 3 })).toBe('stored');
    // Approving one frees a place for its address.
    await s.oauth.createCode({ ...code('p0'), client_id: 'a0', created_at: T + 10 }, 2);
    expect(await s.oauth.createClientBounded(from('a3', T + 11), { ...LOOSE, perAddress: 3 })).toBe('stored');
    // The account's third approval (cap 2) drops the client it approved longest ago, with its tokens.
    await s.oauth.createTokens([{ ...token('ta0', 'access', 'fa0'), client_id: 'a0' }]);
    await s.oauth.createCode({ ...code('p1'), client_id: 'a1', created_at: T + 12 }, 2);
    await s.oauth.createCode({ ...code('p2'), client_id: 'a2', created_at: T + 13 }, 2);
    expect(await s.oauth.clientById('a0')).toBeNull();
    expect(await s.oauth.liveAccessToken('ta0', T + 14)).toBeNull();
    expect(await s.oauth.clientById('a1')).not.toBeNull();
    expect(await s.oauth.clientById('a2')).not.toBeNull();
    // An operator removes a client with its codes and tokens.
    expect(await s.oauth.deleteClient('a1')).toBe(true);
    expect(await s.oauth.deleteClient('a1')).toBe(false);
    expect(await s.oauth.revokeUserTokens('u1', T + 20)).toBeGreaterThanOrEqual(0);
  });

  it('redeems a code once; presented again it revokes what it issued', async () => {
    const s = await setup(engine);
    await s.oauth.createCode(code('x'));
    const issued = [token('a1', 'access'), token('r1', 'refresh')];
    const first = await s.oauth.redeemCode('x', T + 1, T + 600_000, () => issued);
    expect(first).toEqual({ status: 'valid', code: code('x') });
    expect(await s.oauth.liveAccessToken('a1', T + 2)).toMatchObject({ token_hash: 'a1', family_id: 'f1' });
    expect(await s.oauth.redeemCode('x', T + 3, T + 600_000, () => issued)).toEqual({ status: 'replayed' });
    expect(await s.oauth.liveAccessToken('a1', T + 4)).toBeNull();
    expect(await s.oauth.redeemCode('nope', T, T, () => [])).toEqual({ status: 'invalid' });
    // A throwing issuer uses the code up all the same.
    await s.oauth.createCode(code('y'));
    await expect(
      s.oauth.redeemCode('y', T + 1, T + 600_000, () => {
        throw new Error('bad verifier');
      }),
    ).rejects.toThrow('bad verifier');
    expect(await s.oauth.redeemCode('y', T + 2, T + 600_000, () => [])).toEqual({ status: 'replayed' });
    // A code of an ended session.
    await s.oauth.createCode(code('z', 'gone'));
    expect(await s.oauth.redeemCode('z', T + 1, T + 600_000, () => [])).toEqual({ status: 'ended' });
  });

  it('rotates a refresh token once; reuse revokes the family; tokens die with their session', async () => {
    const s = await setup(engine);
    await s.oauth.createTokens([token('a1', 'access'), token('r1', 'refresh')]);
    const next = () => [token('a2', 'access'), token('r2', 'refresh')];
    expect(await s.oauth.rotateRefresh('r1', 'c1', T + 1, next)).toMatchObject({ status: 'valid' });
    expect(await s.oauth.rotateRefresh('r1', 'c1', T + 2, next)).toEqual({ status: 'reused' });
    expect(await s.oauth.liveAccessToken('a2', T + 3)).toBeNull();
    expect(await s.oauth.rotateRefresh('a1', 'c1', T + 3, next)).toEqual({ status: 'invalid' });

    await s.oauth.createTokens([token('a3', 'access', 'f2')]);
    expect(await s.oauth.sessionLive('s1', T)).toBe(true);
    expect(await s.oauth.liveAccessToken('a3', T)).not.toBeNull();
    await s.sessions.deleteByTokenHash('sh');
    expect(await s.oauth.liveAccessToken('a3', T)).toBeNull();
    expect(await s.oauth.revokeFamilyOf('a3', 'c1', T)).toBe(true);
    expect(await s.oauth.revokeFamilyOf('a3', 'other', T)).toBe(false);
    expect(await s.oauth.deleteExpired(T + 3_600_000)).toBe(5);
  });
});
