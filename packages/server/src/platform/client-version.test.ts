import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { clientInfo, parseVersion } from './client-version.js';

describe('client version', () => {
  it('parses versions', () => {
    expect(parseVersion('3.9.29')).toEqual([3, 9, 29]);
    expect(parseVersion('v4.1')).toEqual([4, 1, 0]);
    expect(parseVersion('banana')).toBeNull();
  });

  it('gates h1 and the legacy shapes on mobile builds', () => {
    expect(clientInfo('ios', '3.9.29')).toMatchObject({ mobile: true, h1Free: true, legacyShapes: false });
    expect(clientInfo('android', '3.9.30')).toMatchObject({ h1Free: false, legacyShapes: false });
    expect(clientInfo('ios', '3.9.25')).toMatchObject({ h1Free: true, legacyShapes: true });
    // A claimed mobile platform without a well-formed version is no old build (issue 41: h1 for free by `x-platform: ios` alone).
    expect(clientInfo('ios', undefined)).toMatchObject({ mobile: true, h1Free: false, legacyShapes: false });
    expect(clientInfo('ios', '')).toMatchObject({ h1Free: false });
    expect(clientInfo('android', 'banana')).toMatchObject({ h1Free: false });
    expect(clientInfo('ios', '3.9')).toMatchObject({ h1Free: true });
    expect(clientInfo('web', '1.0.0')).toMatchObject({ mobile: false, h1Free: false, legacyShapes: false });
    expect(clientInfo(undefined, undefined)).toMatchObject({ mobile: false, h1Free: false });
  });

  it('a free key gets no h1 analysis by claiming a mobile platform without a version', async () => {
    const h = harness();
    const { token } = await h.signup();
    const key = await h.apiKey(token);
    const h1 = (headers: Record<string, string>) =>
      h.request('/v2/analysis/bitcoin?timeframe=1h', { headers: { 'x-api-key': key, ...headers } });
    expect((await h1({ 'x-platform': 'ios' })).status).toBe(402);
    expect((await h1({ 'x-platform': 'ios', 'x-app-version': 'latest' })).status).toBe(402);
    expect((await h1({ 'x-platform': 'ios', 'x-app-version': '3.9.29' })).status).toBe(200);
  });

  it('refuses unsupported builds unless a valid API key is sent', async () => {
    const h = harness({ minClientVersion: '3.5.0' });
    const old = { 'x-platform': 'android', 'x-app-version': '3.4.9' };
    const r1 = await h.request('/v2/config', { headers: old });
    expect(r1.status).toBe(403);
    expect(((await r1.json()) as { code: string }).code).toBe('UnsupportedClientVersion');
    const r2 = await h.request('/v2/config', { headers: { ...old, 'x-api-key': 'mlk_bogus' } });
    expect(r2.status).toBe(403);
    const { token } = await h.signup();
    const key = await h.apiKey(token);
    const r3 = await h.request('/v2/config', { headers: { ...old, 'x-api-key': key } });
    expect(r3.status).toBe(200);
  });
});
