import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';

describe('/v1/users/notification_preferences', () => {
  it('reads defaults, patches one field at a time, refuses an empty patch', async () => {
    const h = harness();
    const { token } = await h.signup();
    const headers = { 'x-session-token': token };
    const read = async () =>
      ((await (await h.request('/v1/users/notification_preferences', { headers })).json()) as { data: unknown }).data;
    expect(await read()).toEqual({ pilot_trade_notification_disabled: false, regime_notification_disabled: false });
    const patch = (body: unknown) =>
      h.request('/v1/users/notification_preferences', {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const res = await patch({ pilot_trade_notification_disabled: true });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({
      pilot_trade_notification_disabled: true,
      regime_notification_disabled: false,
    });
    await patch({ regime_notification_disabled: true });
    expect(await read()).toEqual({ pilot_trade_notification_disabled: true, regime_notification_disabled: true });
    expect((await patch({})).status).toBe(400);
    expect((await patch({ pilot_trade_notification_disabled: 'yes' })).status).toBe(400);
    expect((await h.request('/v1/users/notification_preferences')).status).toBe(401);
  });
});
