import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';

const ORIGIN = 'http://localhost';
const CREDENTIALS = { email: 'web@example.com', password: 'password-123' };

/** The `name=value` part of a Set-Cookie header, to send back as Cookie. */
function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0];
}

async function webSignup(h: ReturnType<typeof harness>, origin = ORIGIN) {
  return h.json('/v1/auth/signup', CREDENTIALS, { headers: { 'x-session-cookie': '1', origin } });
}

describe('the web app session cookie', () => {
  it('is set HttpOnly, SameSite=Strict, path / on sign-up and sign-in asked for it, the token left out of the body', async () => {
    const h = harness();
    const res = await webSignup(h);
    expect(res.status).toBe(200);
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^marketlens_session=[^;]{20,};/);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(set).toContain('Path=/');
    expect(set).not.toContain('Secure'); // plain http here
    const body = (await res.json()) as { data: { session_token: string; user: { email: string } } };
    expect(body.data.session_token).toBe('');
    expect(body.data.user.email).toBe('web@example.com');

    const login = await h.json('/v1/auth/login', CREDENTIALS, { headers: { 'x-session-cookie': '1', origin: ORIGIN } });
    expect(login.status).toBe(200);
    expect(cookieOf(login)).toMatch(/^marketlens_session=.{20,}$/);
    expect(((await login.json()) as { data: { session_token: string } }).data.session_token).toBe('');
  });

  it('is Secure over https', async () => {
    const h = harness();
    const res = await h.request('https://localhost/v1/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-cookie': '1', origin: 'https://localhost' },
      body: JSON.stringify(CREDENTIALS),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toContain('Secure');
  });

  it('leaves header clients as they were: no cookie, the token in the body', async () => {
    const h = harness();
    const res = await h.json('/v1/auth/signup', CREDENTIALS);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(((await res.json()) as { data: { session_token: string } }).data.session_token.length).toBeGreaterThan(20);
  });

  it('signs requests in, and refuses a state change from another origin or none', async () => {
    const h = harness();
    const cookie = cookieOf(await webSignup(h));
    const me = await h.request('/v1/auth/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const favorite = (origin: string | undefined) =>
      h.request('/v2/assets/favorites', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: JSON.stringify({ asset_id: 'cardano' }),
      });
    expect((await favorite(ORIGIN)).status).toBe(200);
    for (const origin of ['https://evil.example', 'http://localhost:1', 'null', undefined]) {
      const res = await favorite(origin);
      expect([origin, res.status, ((await res.json()) as { code: string }).code]).toEqual([
        origin,
        403,
        'OriginNotAllowed',
      ]);
    }
    // A cross-site sign-in that would plant a session is refused too.
    const planted = await webSignup(harness(), 'https://evil.example');
    expect(planted.status).toBe(403);
    expect(planted.headers.get('set-cookie')).toBeNull();
  });

  it('gives way to a header credential, and never reaches /mcp', async () => {
    const h = harness();
    const cookie = cookieOf(await webSignup(h));
    const { token } = await h.signup('other@example.com');
    const me = await h.request('/v1/auth/me', { headers: { cookie, 'x-session-token': token } });
    expect(((await me.json()) as { data: { user: { email: string } } }).data.user.email).toBe('other@example.com');
    const key = await h.apiKey(token);
    // With a key, the key is the credential: an account route refuses it, the cookie notwithstanding.
    expect((await h.request('/v1/auth/me', { headers: { cookie, 'x-api-key': key } })).status).toBe(401);
    const mcp = await h.request('/mcp', {
      method: 'POST',
      headers: {
        cookie,
        origin: ORIGIN,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
  });

  it('is removed on sign-out, and an ended or expired session answers 401 removing it', async () => {
    const h = harness();
    const cookie = cookieOf(await webSignup(h));
    const out = await h.request('/v1/auth/logout', { method: 'POST', headers: { cookie, origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^marketlens_session=; Max-Age=0;/);
    const after = await h.request('/v2/config', { headers: { cookie } });
    expect([after.status, ((await after.json()) as { code: string }).code]).toEqual([401, 'InvalidSession']);
    expect(after.headers.get('set-cookie')).toMatch(/^marketlens_session=; Max-Age=0;/);
    // Without the cookie the page is anonymous again.
    expect((await h.request('/v2/config')).status).toBe(200);

    const fresh = cookieOf(
      await h.json('/v1/auth/login', CREDENTIALS, { headers: { 'x-session-cookie': '1', origin: ORIGIN } }),
    );
    expect((await h.request('/v1/auth/me', { headers: { cookie: fresh } })).status).toBe(200);
    h.clock.now += 31 * 86_400_000;
    const expired = await h.request('/v1/auth/me', { headers: { cookie: fresh } });
    expect([expired.status, ((await expired.json()) as { code: string }).code]).toEqual([401, 'InvalidSession']);
    expect(expired.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });
});
