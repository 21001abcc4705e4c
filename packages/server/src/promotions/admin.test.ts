import { describe, expect, it } from 'vitest';
import { DAY, seedUser } from '../../test/support/promotions.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import {
  createCampaignAdmin,
  createPromotionAdmin,
  invitePromotionAdmin,
  listCampaignsAdmin,
  listPromotionsAdmin,
} from './admin.js';
import { liveCampaigns, PromotionAdminError, randomPromotion, shuffled } from './promotions.js';
import { signUp } from './signup.js';

const NOW = Date.UTC(2026, 0, 15, 12);

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PromotionAdminError);
  return (e as PromotionAdminError).reason;
}

const base = { title: 'T', description: 'D', promotional_value: '30 days of Pro' };

describe('admin promotions', () => {
  it('creates a promotion with catalog defaults, one per exchange', async () => {
    const s = createSqliteStorage(':memory:');
    const p = await createPromotionAdmin(s, { connection_id: 'okx', ...base, bonus_description: 'fee discount' }, NOW);
    expect(p).toMatchObject({
      connection_id: 'okx',
      partner_name: 'OKX',
      referral_url: 'https://www.okx.com/join/CCXTCOM',
      bonus_description: 'fee discount',
      theme: { primary_color: '#2962ff' },
      validations: [{ field: 'uid', pattern: '[0-9]{5,20}' }],
      invited: 0,
      claimed: 0,
      created_at: NOW,
    });
    expect(p.steps[0].action_url).toBe(p.referral_url);
    expect(p.icon.startsWith('data:image/svg+xml')).toBe(true);
    expect(await refusal(createPromotionAdmin(s, { connection_id: 'okx', ...base }, NOW))).toBe('exists');
    const hl = await createPromotionAdmin(s, { connection_id: 'hyperliquid', ...base }, NOW + 1);
    expect(hl.validations[0].pattern).toBe('0x[0-9a-fA-F]{40}');
    expect((await listPromotionsAdmin(s)).map((x) => x.connection_id)).toEqual(['okx', 'hyperliquid']);
  });

  it.each([
    [{ connection_id: 'nowhere', ...base }, 'unknown_exchange'],
    [{ connection_id: 'marketlens-sim', ...base }, 'unknown_exchange'],
    [{ connection_id: 'kraken', ...base }, 'no_referral_url'],
    [{ connection_id: 'bybit', ...base, title: '' }, 'invalid'],
    [{ connection_id: 'bybit', ...base, referral_url: 'javascript:alert(1)' }, 'invalid'],
    [
      {
        connection_id: 'bybit',
        ...base,
        theme: { primary_color: 'red', background_color: '#000000', text_color: '#ffffff' },
      },
      'invalid',
    ],
    [
      { connection_id: 'bybit', ...base, validations: [{ field: 'uid', label: 'UID', pattern: '([', message: 'm' }] },
      'invalid',
    ],
    [{ connection_id: 'bybit', ...base, validations: [] }, 'invalid'],
    [{ connection_id: 'bybit', ...base, extra: 1 }, 'invalid'],
  ])('refuses %j: %s', async (input, code) => {
    const s = createSqliteStorage(':memory:');
    expect(await refusal(createPromotionAdmin(s, input as never, NOW))).toBe(code);
  });

  it('a kraken promotion is accepted with an explicit referral link and a custom UID check', async () => {
    const s = createSqliteStorage(':memory:');
    const p = await createPromotionAdmin(
      s,
      {
        connection_id: 'kraken',
        ...base,
        referral_url: 'https://kraken.example/ref',
        validations: [{ field: 'uid', label: 'Client ID', pattern: '[A-Z]{4}-[0-9]{4}', message: 'like ABCD-1234' }],
      },
      NOW,
    );
    const u = await seedUser(s, 'k@example.com', NOW);
    await invitePromotionAdmin(s, 'k@example.com', 'kraken', NOW);
    await expect(signUp(s, u, 'kraken', '12345678', NOW)).rejects.toMatchObject({ code: 'PromotionUidInvalid' });
    expect((await signUp(s, u, 'kraken', 'ABCD-1234', NOW)).verified).toBe(true);
    expect((await listPromotionsAdmin(s))[0]).toMatchObject({ id: p.id, invited: 1, claimed: 1 });
  });

  it('invites an account by email or id, once', async () => {
    const s = createSqliteStorage(':memory:');
    await createPromotionAdmin(s, { connection_id: 'bybit', ...base }, NOW);
    const id = await seedUser(s, 'inv@example.com', NOW);
    const first = await invitePromotionAdmin(s, ' INV@example.com ', 'bybit', NOW);
    expect(first).toMatchObject({
      user: { id, email: 'inv@example.com' },
      created: true,
      invited_at: NOW,
      claimed: false,
    });
    const again = await invitePromotionAdmin(s, id, 'bybit', NOW + 5);
    expect(again).toMatchObject({ created: false, invited_at: NOW });
    expect(await refusal(invitePromotionAdmin(s, 'nobody@example.com', 'bybit', NOW))).toBe('unknown_user');
    expect(await refusal(invitePromotionAdmin(s, id, 'okx', NOW))).toBe('unknown_promotion');
  });

  it('creates campaigns (future close only, unique ids) and lists them with live flags', async () => {
    const s = createSqliteStorage(':memory:');
    const input = {
      url: 'https://example.com/c',
      video_url: 'https://example.com/v.mp4',
      exchange_icon_url: 'https://example.com/i.svg',
      exchange_icon_alt: 'Bybit',
    };
    const a = await createCampaignAdmin(s, { ...input, id: 'a', registration_close: NOW + DAY }, NOW);
    expect(a).toMatchObject({ id: 'a', live: true, web_banner_video_position: 'center', prize_amount: null });
    const b = await createCampaignAdmin(
      s,
      { ...input, id: 'b', registration_close: new Date(NOW + 2 * DAY).toISOString(), prize_amount: '1 BTC' },
      NOW,
    );
    expect(b.registration_close).toBe(new Date(NOW + 2 * DAY).toISOString());
    const generated = await createCampaignAdmin(s, { ...input, registration_close: NOW + 3 * DAY }, NOW);
    expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await refusal(createCampaignAdmin(s, { ...input, id: 'a', registration_close: NOW + DAY }, NOW))).toBe(
      'exists',
    );
    expect(await refusal(createCampaignAdmin(s, { ...input, id: 'c', registration_close: NOW }, NOW))).toBe('closed');
    expect(await refusal(createCampaignAdmin(s, { ...input, id: 'Bad Id', registration_close: NOW + DAY }, NOW))).toBe(
      'invalid',
    );
    const listed = await listCampaignsAdmin(s, NOW + DAY);
    expect(listed.map((c) => [c.id, c.live])).toEqual([
      ['a', false],
      ['b', true],
      [generated.id, true],
    ]);
  });
});

describe('random order', () => {
  /** A deterministic generator cycling through `values`. */
  const rng = (...values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length];
  };

  it('shuffles with the injected generator (Fisher-Yates) without touching the input', () => {
    const items = [1, 2, 3, 4];
    expect(shuffled(items, rng(0))).toEqual([2, 3, 4, 1]);
    expect(shuffled(items, rng(0.999))).toEqual([1, 2, 3, 4]);
    expect(shuffled(items, rng(1))).toEqual([1, 2, 3, 4]);
    expect(items).toEqual([1, 2, 3, 4]);
    expect(shuffled([], rng(0))).toEqual([]);
  });

  it('serves live campaigns and random promotions in the generator order', async () => {
    const s = createSqliteStorage(':memory:');
    const input = {
      url: 'https://example.com/c',
      video_url: 'https://example.com/v.mp4',
      exchange_icon_url: 'https://example.com/i.svg',
      exchange_icon_alt: 'x',
    };
    for (const [id, d] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      await createCampaignAdmin(s, { ...input, id, registration_close: NOW + d * DAY }, NOW);
    expect((await liveCampaigns(s, NOW, rng(0))).map((c) => c.id)).toEqual(['b', 'c', 'a']);
    expect((await liveCampaigns(s, NOW, rng(0.999))).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect((await liveCampaigns(s, NOW + 1.5 * DAY, rng(0.999))).map((c) => c.id)).toEqual(['b', 'c']);

    await createPromotionAdmin(s, { connection_id: 'bybit', ...base }, NOW);
    await createPromotionAdmin(s, { connection_id: 'okx', ...base }, NOW + 1);
    const u = await seedUser(s, 'r@example.com', NOW);
    expect((await randomPromotion(s, u, rng(0))).connection_id).toBe('bybit');
    expect((await randomPromotion(s, u, rng(0.6))).connection_id).toBe('okx');
  });
});
