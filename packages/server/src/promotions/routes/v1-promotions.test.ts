import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { DAY, seedBybitPromotion, seedConnection, seedFills } from '../../../test/support/promotions.js';
import { createCampaign } from '../promotions.js';

interface Body {
  success: boolean;
  code: number | string;
  data?: unknown;
}

async function call(res: Response | Promise<Response>): Promise<{ status: number; body: Body }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as Body };
}

async function setup() {
  const h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const { token, userId } = await h.signup();
  const s = { headers: { 'x-session-token': token } };
  return { h, token, userId, s };
}

const campaignInput = (id: string, close: number) => ({
  id,
  url: `https://example.com/${id}`,
  video_url: 'https://example.com/v.mp4',
  registration_close: close,
  exchange_icon_url: 'https://example.com/i.svg',
  exchange_icon_alt: 'Bybit',
});

describe('promotion routes', () => {
  it('need a session (API keys are refused)', async () => {
    const { h, token } = await setup();
    const key = await h.apiKey(token);
    for (const path of ['/v1/promotions/available', '/v1/promotions/volume', '/v1/promotions/bybit/sign_up']) {
      expect((await h.request(path)).status).toBe(401);
      expect((await h.request(path, { headers: { 'x-api-key': key } })).status).toBe(401);
    }
  });

  it('available lists unclaimed promotions; random picks one; both empty/404 when none', async () => {
    const { h, s, userId } = await setup();
    expect(await call(h.request('/v1/promotions/available', s))).toEqual({
      status: 200,
      body: { success: true, code: 0, data: [], message: null },
    });
    const none = await call(h.request('/v1/promotions/random', s));
    expect([none.status, none.body.code]).toEqual([404, 'PromotionNotFound']);

    const p = await seedBybitPromotion(h.storage, h.clock.now);
    const available = await call(h.request('/v1/promotions/available', s));
    expect(available.body.data).toEqual([
      {
        id: p.id,
        connection_id: 'bybit',
        partner_name: 'Bybit',
        title: p.title,
        description: p.description,
        promotional_value: '30 days of Pro',
        bonus_description: '',
        referral_url: 'https://www.bybit.com/invite?ref=XDK12WP',
        icon: p.icon,
        theme: p.theme,
        steps: p.steps,
        validations: p.validations,
      },
    ]);
    const random = await call(h.request('/v1/promotions/random', s));
    expect([random.status, (random.body.data as { id: string }).id]).toEqual([200, p.id]);

    // Once claimed it is neither available nor drawn.
    await h.storage.promotions.invite({ promotion_id: p.id, user_id: userId, invited_at: h.clock.now });
    expect((await h.json('/v1/promotions/bybit/sign_up', { uid: '12345678' }, s)).status).toBe(200);
    expect((await call(h.request('/v1/promotions/available', s))).body.data).toEqual([]);
    expect((await h.request('/v1/promotions/random', s)).status).toBe(404);
  });

  it('campaigns: live only, empty when none', async () => {
    const { h, s } = await setup();
    expect((await call(h.request('/v1/promotions/campaigns', s))).body.data).toEqual([]);
    const now = h.clock.now;
    await createCampaign(h.storage, campaignInput('spring', now + DAY), now);
    await createCampaign(h.storage, { ...campaignInput('summer', now + 2 * DAY), prize_amount: '1 BTC' }, now);
    await createCampaign(h.storage, campaignInput('closing', now + 1000), now);
    const live = await call(h.request('/v1/promotions/campaigns', s));
    const ids = (live.body.data as { id: string }[]).map((c) => c.id);
    expect(ids.sort()).toEqual(['closing', 'spring', 'summer']);
    expect((live.body.data as Record<string, unknown>[]).find((c) => c.id === 'summer')).toEqual({
      id: 'summer',
      url: 'https://example.com/summer',
      video_url: 'https://example.com/v.mp4',
      web_banner_video_position: 'center',
      registration_close: new Date(now + 2 * DAY).toISOString(),
      exchange_icon_url: 'https://example.com/i.svg',
      exchange_icon_alt: 'Bybit',
      prize_amount: '1 BTC',
      prize_banner_label: null,
      prize_icon_url: null,
    });
    h.clock.now += 1000; // registration_close reached: expired
    const after = (await call(h.request('/v1/promotions/campaigns', s))).body.data as { id: string }[];
    expect(after.map((c) => c.id).sort()).toEqual(['spring', 'summer']);
    h.clock.now += 2 * DAY;
    expect((await call(h.request('/v1/promotions/campaigns', s))).body.data).toEqual([]);
  });

  it('GET /{connection_id}: 404 none, 200 the promotion, 403 once claimed; fixed paths are not ids', async () => {
    const { h, s, userId } = await setup();
    const none = await call(h.request('/v1/promotions/bybit', s));
    expect([none.status, none.body.code]).toEqual([404, 'PromotionNotFound']);
    const p = await seedBybitPromotion(h.storage, h.clock.now);
    const got = await call(h.request('/v1/promotions/bybit', s));
    expect([got.status, (got.body.data as { id: string }).id]).toEqual([200, p.id]);
    expect((await h.request('/v1/promotions/okx', s)).status).toBe(404);
    await h.storage.promotions.invite({ promotion_id: p.id, user_id: userId, invited_at: h.clock.now });
    await h.json('/v1/promotions/bybit/sign_up', { uid: '12345678' }, s);
    const claimed = await call(h.request('/v1/promotions/bybit', s));
    expect([claimed.status, claimed.body.code]).toEqual([403, 'PromotionAlreadyClaimed']);
    // Another user still reads it.
    const other = await h.signup();
    expect((await h.request('/v1/promotions/bybit', { headers: { 'x-session-token': other.token } })).status).toBe(200);
    for (const fixed of ['available', 'campaigns', 'volume'])
      expect((await h.request(`/v1/promotions/${fixed}`, s)).status, fixed).toBe(200);
  });

  it('sign-up: show, 400 invalid payload, 422 per reason, 200 verified with 30 days of Pro', async () => {
    const { h, s, userId } = await setup();
    const p = await seedBybitPromotion(h.storage, h.clock.now);
    const show = async (headers = s) => (await call(h.request('/v1/promotions/bybit/sign_up', headers))).body.data;
    expect(await show()).toEqual({ show: false });
    expect((await call(h.request('/v1/promotions/okx/sign_up', s))).body.data).toEqual({ show: false });

    const notInvited = await call(h.json('/v1/promotions/bybit/sign_up', { uid: '12345678' }, s));
    expect([notInvited.status, notInvited.body.code]).toEqual([422, 'PromotionNotInvited']);

    await h.storage.promotions.invite({ promotion_id: p.id, user_id: userId, invited_at: h.clock.now });
    expect(await show()).toEqual({ show: true });

    for (const bad of [{}, { uid: '' }, { uid: 123 }, { uid: 'has space' }, { uid: 'x'.repeat(65) }, []]) {
      const r = await call(h.json('/v1/promotions/bybit/sign_up', bad, s));
      expect([r.status, r.body.success], JSON.stringify(bad)).toEqual([400, false]);
    }
    const malformed = await h.request('/v1/promotions/bybit/sign_up', {
      ...s,
      method: 'POST',
      headers: { ...s.headers, 'content-type': 'application/json' },
      body: '{"uid":',
    });
    expect(malformed.status).toBe(400);
    // Printable but not the promotion's format (5..20 digits): 400 with its own code.
    const format = await call(h.json('/v1/promotions/bybit/sign_up', { uid: 'abc123' }, s));
    expect([format.status, format.body.code]).toEqual([400, 'PromotionUidInvalid']);
    expect((await h.json('/v1/promotions/okx/sign_up', { uid: '12345678' }, s)).status).toBe(404);

    const me = async () =>
      ((await call(h.request('/v2/config', s))).body.data as { caller: Record<string, unknown> }).caller;
    expect((await me()).is_pro).toBe(false);
    const ok = await call(h.json('/v1/promotions/bybit/sign_up', { uid: ' 12345678 ' }, s));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      verified: true,
      connection_id: 'bybit',
      uid: '12345678',
      tier: 'pro',
      granted_at: new Date(h.clock.now).toISOString(),
      expires_at: new Date(h.clock.now + 30 * DAY).toISOString(),
    });
    expect((await me()).is_pro).toBe(true);
    expect(await show()).toEqual({ show: false });

    const again = await call(h.json('/v1/promotions/bybit/sign_up', { uid: '12345678' }, s));
    expect([again.status, again.body.code]).toEqual([422, 'PromotionClaimed']);

    const other = await h.signup();
    const os = { headers: { 'x-session-token': other.token } };
    await h.storage.promotions.invite({ promotion_id: p.id, user_id: other.userId, invited_at: h.clock.now });
    const used = await call(h.json('/v1/promotions/bybit/sign_up', { uid: '12345678' }, os));
    expect([used.status, used.body.code]).toEqual([422, 'PromotionUidUsed']);
    expect(await show(os)).toEqual({ show: true });
  });

  it('volume: standing from seeded fills; qualifying grants Elite once', async () => {
    const { h, s, userId } = await setup();
    const vol = async () => (await call(h.request('/v1/promotions/volume', s))).body.data as Record<string, unknown>;
    expect(await vol()).toEqual({
      per_exchange: [],
      total_30d_usd: 0,
      threshold_usd: 10_000,
      qualifies: false,
      granted_via_promotion: false,
      promotion_expires_at: null,
    });
    const now = h.clock.now;
    const conn = await seedConnection(h.storage, userId, 'bybit', now);
    await seedFills(h.storage, userId, conn, 'bybit', [['BTCUSDT', 60_000, 0.1, now - DAY]], now);
    const below = await vol();
    expect(below).toMatchObject({ total_30d_usd: 6000, qualifies: false, granted_via_promotion: false });
    await seedFills(h.storage, userId, conn, 'bybit', [['ETHUSDT', 2_000, 2, now - 2 * DAY]], now);
    const standing = await vol();
    expect(standing).toEqual({
      per_exchange: [
        {
          connection_id: 'bybit',
          name: 'Bybit',
          accounts: 1,
          volume_30d_usd: 10_000,
          counted_fills: 2,
          uncounted_fills: 0,
        },
      ],
      total_30d_usd: 10_000,
      threshold_usd: 10_000,
      qualifies: true,
      granted_via_promotion: true,
      promotion_expires_at: new Date(now + 30 * DAY).toISOString(),
    });
    const caller = ((await call(h.request('/v2/config', s))).body.data as { caller: Record<string, unknown> }).caller;
    expect([caller.tier, caller.is_elite]).toEqual(['elite', true]);
    h.clock.now += DAY;
    expect((await vol()).promotion_expires_at).toBe(new Date(now + 30 * DAY).toISOString());
    const affiliate = (await h.storage.grants.active(userId, h.clock.now)).filter((g) => g.source === 'affiliate');
    expect(affiliate).toHaveLength(1);
  });

  it('volume honours the configured threshold', async () => {
    const h = harness({ affiliateVolumeThresholdUsd: 100 });
    const { token, userId } = await h.signup();
    const conn = await seedConnection(h.storage, userId, 'okx', h.clock.now);
    await seedFills(h.storage, userId, conn, 'okx', [['BTC-USDT-SWAP', 100, 1, h.clock.now]], h.clock.now);
    const r = await call(h.request('/v1/promotions/volume', { headers: { 'x-session-token': token } }));
    expect(r.body.data).toMatchObject({ threshold_usd: 100, total_30d_usd: 100, qualifies: true });
  });
});
