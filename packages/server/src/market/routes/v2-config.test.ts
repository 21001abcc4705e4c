import { SIGNAL_CONTROLS } from '@marketlens/core';
import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { grantTier } from '../../auth/tiers.js';
import type { Storage } from '../../storage/types.js';

interface ConfigBody {
  data: {
    analysis: { default_timeframe: string; timeframes: { value: string; needs_pro: boolean }[] };
    chart_depth: { free: number; pro: number };
    signals: { timeframes: string[]; controls: { name: string }[] };
    alerts: { kinds: { kind: string; timeframes: { value: string; evaluates_as: string }[] }[] };
    caller: { state: string; tier: string | null; is_pro: boolean | null; via: string | null };
  };
}

const read = async (r: Response) => (await r.json()) as ConfigBody;

describe('/v2/config', () => {
  it('is readable anonymously and private', async () => {
    const h = harness();
    const r = await h.request('/v2/config');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toMatch(/^private/);
    const { data } = await read(r);
    expect(data.analysis.default_timeframe).toBe('d1');
    expect(data.analysis.timeframes.find((t) => t.value === 'd1')?.needs_pro).toBe(false);
    expect(data.analysis.timeframes.find((t) => t.value === 'h1')?.needs_pro).toBe(true);
    expect(data.chart_depth.pro).toBeGreaterThan(data.chart_depth.free);
    expect(data.signals.timeframes).toEqual(['h1', 'm15', 'd1']);
    expect(data.signals.controls.map((c) => c.name)).toEqual(SIGNAL_CONTROLS.map((c) => c.name));
    expect(data.signals.controls).toHaveLength(10);
    expect(data.caller).toMatchObject({ state: 'anonymous', is_pro: false, via: null });
  });

  it('publishes alert kinds with their evaluation windows', async () => {
    const { data } = await read(await harness().request('/v2/config'));
    const kind = (k: string) => data.alerts.kinds.find((x) => x.kind === k);
    expect(data.alerts.kinds.map((k) => k.kind)).toEqual([
      'price',
      'zone',
      'breakout',
      'rsi',
      'smart_zone',
      'percent_change',
    ]);
    expect(kind('price')?.timeframes).toEqual([]);
    for (const k of ['rsi', 'smart_zone']) {
      expect(new Set(kind(k)?.timeframes.map((t) => t.evaluates_as))).toEqual(new Set(['m15', 'h1', 'd1']));
    }
    const pc = kind('percent_change')?.timeframes ?? [];
    expect(pc).toHaveLength(9);
    expect(new Set(pc.map((t) => t.evaluates_as))).toEqual(new Set(['1h', '24h', '7d']));
  });

  it('frees h1 for old mobile builds only, not for a platform claimed without a version', async () => {
    const h = harness();
    const h1 = async (headers: Record<string, string>) =>
      (await read(await h.request('/v2/config', { headers }))).data.analysis.timeframes.find((t) => t.value === 'h1')
        ?.needs_pro;
    expect(await h1({ 'x-platform': 'ios', 'x-app-version': '3.9.29' })).toBe(false);
    expect(await h1({ 'x-platform': 'android' })).toBe(true);
    expect(await h1({ 'x-platform': 'android', 'x-app-version': 'nightly' })).toBe(true);
    expect(await h1({ 'x-platform': 'ios', 'x-app-version': '3.9.30' })).toBe(true);
  });

  it('reports the caller tier by session and API key', async () => {
    const h = harness();
    const { token, userId } = await h.signup();
    await grantTier(h.storage, userId, 'pro', 'promotion', 30, h.clock.now);
    const s = await read(await h.request('/v2/config', { headers: { 'x-session-token': token } }));
    expect(s.data.caller).toMatchObject({ state: 'authenticated', tier: 'pro', is_pro: true, via: 'session' });
    const key = await h.apiKey(token);
    const k = await read(await h.request('/v2/config', { headers: { 'x-api-key': key } }));
    expect(k.data.caller).toMatchObject({ state: 'authenticated', tier: 'pro', via: 'api_key' });
    const bad = await h.request('/v2/config', { headers: { 'x-session-token': 'mls_nope' } });
    expect(bad.status).toBe(401);
  });

  it('reports unavailable with is_pro null when the subscription cannot be read', async () => {
    const h = harness({}, (s: Storage) => ({
      ...s,
      grants: {
        ...s.grants,
        active: async () => {
          throw new Error('subscription store down');
        },
      },
    }));
    const { token } = await h.signup();
    const r = await h.request('/v2/config', { headers: { 'x-session-token': token } });
    expect(r.status).toBe(200);
    expect((await read(r)).data.caller).toMatchObject({ state: 'unavailable', is_pro: null, tier: null });
  });
});
