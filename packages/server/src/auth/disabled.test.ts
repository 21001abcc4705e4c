/**
 * A disabled account through the REST routes: sign-in refused with 403 `AccountDisabled` (only to
 * whoever knows the password), the sessions ended, the API keys refused but kept, and on enable
 * the keys working again while the old sessions stay ended.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { disableUser, enableUser } from './admin.js';
import { openSession } from './users.js';

async function body(res: Response) {
  return { status: res.status, code: ((await res.json()) as { code: number | string }).code };
}

describe('a disabled account', () => {
  it('cannot sign in, its session ends and its API key is refused; enabled, the key works and the session stays ended', async () => {
    const h = harness();
    const { token, userId } = await h.signup('ops@example.com');
    const key = await h.apiKey(token);
    const keyCall = () => h.request('/v2/config', { headers: { 'x-api-key': key } });
    const sessionCall = () => h.request('/v1/auth/me', { headers: { 'x-session-token': token } });
    expect((await keyCall()).status).toBe(200);
    expect((await sessionCall()).status).toBe(200);

    await disableUser(h.storage, userId, h.clock.now);
    const login = (password: string) => h.json('/v1/auth/login', { email: 'ops@example.com', password });
    expect(await body(await login('password-123'))).toEqual({ status: 403, code: 'AccountDisabled' });
    // a wrong password learns nothing about the account
    expect(await body(await login('wrong-password-1'))).toEqual({ status: 401, code: 'InvalidCredentials' });
    expect(await body(await sessionCall())).toEqual({ status: 401, code: 'InvalidSession' });
    expect(await body(await keyCall())).toEqual({ status: 403, code: 'AccountDisabled' });

    await enableUser(h.storage, userId);
    expect((await keyCall()).status).toBe(200);
    expect(await body(await sessionCall())).toEqual({ status: 401, code: 'InvalidSession' });
    const again = await login('password-123');
    expect(again.status).toBe(200);
  });

  it('refuses a session that outlived the disable (opened in a race with it)', async () => {
    const h = harness();
    const { userId } = await h.signup('race@example.com');
    await h.storage.users.setDisabled(userId, h.clock.now);
    // what a sign-in that read the account just before the flag would store
    const user = await h.storage.users.byId(userId);
    if (user === null) throw new Error('the account is gone');
    expect(user.disabled_at).toBe(h.clock.now);
    const grant = await openSession(h.storage, { ...user, disabled_at: null }, h.clock.now);
    const res = await h.request('/v1/auth/me', { headers: { 'x-session-token': grant.token } });
    expect(await body(res)).toEqual({ status: 401, code: 'InvalidSession' });
  });
});
