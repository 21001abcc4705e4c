import { expect, it } from 'vitest';
import { describeEngines, type TestEngine } from '../../../test/support/storage/engines.js';
import type { CampaignRecord, PromotionRecord } from '../promotions-types.js';
import type { TierGrantRecord } from '../types.js';

const T = Date.UTC(2026, 0, 1);

function promotion(id: string, connection_id: string, created_at = T): PromotionRecord {
  return {
    id,
    connection_id,
    partner_name: connection_id,
    title: 't',
    description: 'd',
    promotional_value: 'v',
    bonus_description: '',
    referral_url: 'https://example.com/ref',
    icon: 'data:,',
    theme: { primary_color: '#000000', background_color: '#ffffff', text_color: '#111111' },
    steps: [{ title: 's', description: 'sd', action_url: null }],
    validations: [{ field: 'uid', label: 'UID', pattern: '[0-9]+', message: 'digits' }],
    created_at,
  };
}

function campaign(id: string, registration_close: number): CampaignRecord {
  return {
    id,
    url: 'https://example.com/c',
    video_url: 'https://example.com/v.mp4',
    web_banner_video_position: 'center',
    registration_close,
    exchange_icon_url: 'https://example.com/i.svg',
    exchange_icon_alt: 'icon',
    prize_amount: null,
    prize_banner_label: '1 BTC',
    prize_icon_url: null,
    created_at: T,
  };
}

const grant = (id: string, user_id: string, source: TierGrantRecord['source'] = 'promotion'): TierGrantRecord => ({
  id,
  user_id,
  tier: source === 'affiliate' ? 'elite' : 'pro',
  source,
  granted_at: T,
  expires_at: T + 1000,
});

async function setup(engine: TestEngine) {
  const s = await engine.open();
  for (const u of ['u1', 'u2'])
    await s.users.create({ id: u, email: `${u}@x.test`, password_hash: 'x', tier: 'free', created_at: T }, []);
  return s;
}

describeEngines('sqlite promotions', (engine) => {
  it('migrates to a schema with the promotions tables', async () => {
    const s = await setup(engine);
    expect(await s.schemaVersion()).toBeGreaterThanOrEqual(7);
  });

  it('stores promotions (one per exchange) with their JSON fields', async () => {
    const s = await setup(engine);
    expect(await s.promotions.create(promotion('p2', 'okx', T + 1))).toBe(true);
    expect(await s.promotions.create(promotion('p1', 'bybit'))).toBe(true);
    expect(await s.promotions.create(promotion('p3', 'bybit'))).toBe(false);
    expect(await s.promotions.byExchange('bybit')).toEqual(promotion('p1', 'bybit'));
    expect(await s.promotions.byId('p2')).toEqual(promotion('p2', 'okx', T + 1));
    expect(await s.promotions.byId('nope')).toBeNull();
    expect((await s.promotions.list()).map((p) => p.id)).toEqual(['p1', 'p2']);
  });

  it('invites once; claims atomically with the grant, refusing in order not invited, claimed, UID used', async () => {
    const s = await setup(engine);
    await s.promotions.create(promotion('p1', 'bybit'));
    const claim = (id: string, user_id: string, uid: string) => ({
      id,
      promotion_id: 'p1',
      connection_id: 'bybit',
      user_id,
      uid,
      claimed_at: T,
      grant_id: `g-${id}`,
    });
    expect(await s.promotions.claim(claim('c0', 'u1', '42'), grant('g-c0', 'u1'))).toEqual({
      ok: false,
      reason: 'not_invited',
    });
    expect(await s.promotions.invite({ promotion_id: 'p1', user_id: 'u1', invited_at: T })).toBe(true);
    expect(await s.promotions.invite({ promotion_id: 'p1', user_id: 'u1', invited_at: T + 5 })).toBe(false);
    expect(await s.promotions.invite({ promotion_id: 'p1', user_id: 'u2', invited_at: T + 1 })).toBe(true);
    expect((await s.promotions.invitations('p1')).map((i) => i.user_id)).toEqual(['u1', 'u2']);
    expect(await s.grants.active('u1', T)).toEqual([]);

    const ok = await s.promotions.claim(claim('c1', 'u1', '42'), grant('g-c1', 'u1'));
    expect(ok).toMatchObject({ ok: true, claim: { id: 'c1' }, grant: { id: 'g-c1' } });
    expect(await s.grants.active('u1', T)).toHaveLength(1);
    expect(await s.promotions.claimOf('p1', 'u1')).toMatchObject({ uid: '42', grant_id: 'g-c1' });
    expect((await s.promotions.unclaimedBy('u1')).map((p) => p.id)).toEqual([]);
    expect((await s.promotions.unclaimedBy('u2')).map((p) => p.id)).toEqual(['p1']);

    expect(await s.promotions.claim(claim('c2', 'u1', '43'), grant('g-c2', 'u1'))).toEqual({
      ok: false,
      reason: 'already_claimed',
    });
    expect(await s.promotions.claim(claim('c3', 'u2', '42'), grant('g-c3', 'u2'))).toEqual({
      ok: false,
      reason: 'uid_used',
    });
    // Refusals wrote nothing: no grant for u2, one claim in all.
    expect(await s.grants.active('u2', T)).toEqual([]);
    expect(await s.promotions.claims('p1')).toHaveLength(1);
  });

  it('lists live campaigns (registration_close strictly after now) and all of them', async () => {
    const s = await setup(engine);
    expect(await s.campaigns.create(campaign('b', T + 10))).toBe(true);
    expect(await s.campaigns.create(campaign('a', T))).toBe(true);
    expect(await s.campaigns.create(campaign('c', T + 10))).toBe(true);
    expect(await s.campaigns.create(campaign('a', T + 99))).toBe(false);
    expect((await s.campaigns.live(T)).map((c) => c.id)).toEqual(['b', 'c']);
    expect((await s.campaigns.live(T + 10)).map((c) => c.id)).toEqual([]);
    expect((await s.campaigns.list()).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect((await s.campaigns.live(T - 1))[0]).toEqual(campaign('a', T));
  });

  it('grants affiliate Elite only when none is valid', async () => {
    const s = await setup(engine);
    const first = await s.affiliateGrants.grantIfAbsent(grant('a1', 'u1', 'affiliate'), T);
    expect(first.id).toBe('a1');
    expect((await s.affiliateGrants.grantIfAbsent(grant('a2', 'u1', 'affiliate'), T + 999)).id).toBe('a1');
    // A promotion (Pro) grant does not count as an affiliate one.
    await s.grants.create(grant('p1', 'u2'));
    expect((await s.affiliateGrants.grantIfAbsent(grant('a3', 'u2', 'affiliate'), T)).id).toBe('a3');
    // Expired (expires_at = T + 1000 is not after now): a new one.
    expect(
      (await s.affiliateGrants.grantIfAbsent({ ...grant('a4', 'u1', 'affiliate'), expires_at: T + 5000 }, T + 1000)).id,
    ).toBe('a4');
  });
});
