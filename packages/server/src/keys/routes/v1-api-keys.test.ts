import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { setUserTier } from '../../auth/admin.js';
import { grantTier } from '../../auth/tiers.js';

interface KeyView {
  id: string;
  is_active: boolean;
  expires_at: string | null;
  revoked_at: string | null;
}

describe('API keys', () => {
  it('creates, lists, expires and revokes keys', async () => {
    const h = harness();
    const { token } = await h.signup();
    const s = { headers: { 'x-session-token': token } };
    const r = await h.json('/v1/users/api_keys', { name: 'ci', expires_in_days: 2 }, s);
    const created = (await r.json()) as { data: { key: string; api_key: KeyView } };
    expect(created.data.key.startsWith('mlk_')).toBe(true);
    expect(created.data.api_key.is_active).toBe(true);
    const key = created.data.key;
    expect((await h.request('/v2/config', { headers: { 'x-api-key': key } })).status).toBe(200);

    h.clock.now += 2 * 86_400_000;
    const expired = await h.request('/v2/config', { headers: { 'x-api-key': key } });
    expect([expired.status, ((await expired.json()) as { code: string }).code]).toEqual([401, 'InvalidApiKey']);
    const list = (await (await h.request('/v1/users/api_keys', s)).json()) as { data: KeyView[] };
    expect(list.data[0].is_active).toBe(false);

    const k2 = await h.apiKey(token);
    const views = (await (await h.request('/v1/users/api_keys', s)).json()) as { data: KeyView[] };
    const id2 = views.data.find((v) => v.is_active)?.id;
    const del = await h.request(`/v1/users/api_keys/${id2}`, { ...s, method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await h.request('/v2/config', { headers: { 'x-api-key': k2 } })).status).toBe(401);
    const after = (await (await h.request('/v1/users/api_keys', s)).json()) as { data: KeyView[] };
    expect(after.data).toHaveLength(2);
    expect(after.data.every((v) => !v.is_active)).toBe(true);
    expect(after.data.find((v) => v.id === id2)?.revoked_at).not.toBeNull();
    const again = await h.request(`/v1/users/api_keys/${id2}`, { ...s, method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('validates expires_in_days and caps active keys at 10', async () => {
    const h = harness();
    const { token } = await h.signup();
    const s = { headers: { 'x-session-token': token } };
    for (const bad of [0, 366, 1.5, '7']) {
      expect((await h.json('/v1/users/api_keys', { expires_in_days: bad }, s)).status).toBe(400);
    }
    for (let i = 0; i < 10; i++) expect((await h.json('/v1/users/api_keys', {}, s)).status).toBe(200);
    const r = await h.json('/v1/users/api_keys', {}, s);
    expect([r.status, ((await r.json()) as { code: string }).code]).toEqual([422, 'ApiKeyLimitExceeded']);
  });

  it('meters the daily allowance by tier and reports credits', async () => {
    const h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    const { token, userId } = await h.signup('meter@example.com');
    const key = await h.apiKey(token);
    const call = () => h.request('/v2/config', { headers: { 'x-api-key': key } });
    for (let i = 0; i < 100; i++) expect((await call()).status).toBe(200);
    const over = await call();
    expect([over.status, ((await over.json()) as { code: string }).code]).toEqual([429, 'ApiKeyAllowanceExceeded']);
    expect(over.headers.get('retry-after')).toBe(String(12 * 3600));
    const credits = (await (
      await h.request('/v1/users/api_keys/credits', { headers: { 'x-session-token': token } })
    ).json()) as {
      data: { daily_limit: number; used_today: number; remaining_today: number; resets_at: string };
    };
    expect(credits.data).toMatchObject({
      daily_limit: 100,
      used_today: 100,
      remaining_today: 0,
      resets_at: '2026-01-16T00:00:00.000Z',
    });

    await setUserTier(h.storage, 'meter@example.com', 'pro');
    expect((await call()).status).toBe(200);
    await grantTier(h.storage, userId, 'elite', 'affiliate', 10, h.clock.now);
    const c2 = (await (
      await h.request('/v1/users/api_keys/credits', { headers: { 'x-session-token': token } })
    ).json()) as {
      data: { tier: string; daily_limit: number };
    };
    expect(c2.data).toMatchObject({ tier: 'elite', daily_limit: 5000 });

    h.clock.now = Date.UTC(2026, 0, 16, 0, 0, 1);
    await setUserTier(h.storage, userId, 'free');
    h.clock.now += 11 * 86_400_000;
    // Grant expired, base tier free again, new day: a fresh allowance of 100.
    const c3 = (await (
      await h.request('/v1/users/api_keys/credits', { headers: { 'x-session-token': token } })
    ).json()) as {
      data: { tier: string; used_today: number; daily_limit: number };
    };
    expect(c3.data).toMatchObject({ tier: 'free', used_today: 0, daily_limit: 100 });
  });
});
