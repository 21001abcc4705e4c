import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  envelopeOf,
  NotificationPreferencesPatchSchema,
  NotificationPreferencesSchema,
  ok,
} from '@marketlens/contract';
import { requireUser, SESSION_ONLY } from '../../auth/authorize.js';
import type { AppEnv } from '../../platform/deps.js';
import { operation } from '../../platform/operation.js';

const json = (description: string) => ({
  description,
  content: { 'application/json': { schema: envelopeOf(NotificationPreferencesSchema) } },
});

const getRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/users/notification_preferences',
  operationId: 'getNotificationPreferences',
  tags: ['Notifications'],
  summary: 'Push preferences',
  description: 'Which kinds of push the account has turned off; every kind is on until turned off.',
  responses: { 200: json('Preferences') },
});

const patchRoute = operation(SESSION_ONLY, {
  method: 'patch',
  path: '/v1/users/notification_preferences',
  operationId: 'updateNotificationPreferences',
  tags: ['Notifications'],
  summary: 'Change push preferences',
  description:
    '`pilot_trade_notification_disabled: true` stops pilot_trade pushes (on by default for pilot-eligible users); `regime_notification_disabled` the regime-transition pushes. Fields left out keep their value.',
  request: {
    body: { content: { 'application/json': { schema: NotificationPreferencesPatchSchema } }, required: true },
  },
  responses: { 200: json('Preferences after the change') },
});

export function registerNotificationPreferenceRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getRoute, async (c) => {
    const caller = requireUser(c.get('caller'));
    return c.json(ok(await c.get('deps').storage.notificationPreferences.get(caller.user.id)), 200);
  });
  app.openapi(patchRoute, async (c) => {
    const caller = requireUser(c.get('caller'));
    const deps = c.get('deps');
    return c.json(
      ok(await deps.storage.notificationPreferences.update(caller.user.id, c.req.valid('json'), deps.now())),
      200,
    );
  });
}
