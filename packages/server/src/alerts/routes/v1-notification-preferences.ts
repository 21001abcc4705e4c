import { NotificationPreferencesPatchSchema, ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('Notifications');

const getRoute = route('alerts.preferences', {
  method: 'get',
  path: '/v1/users/notification_preferences',
  operationId: 'getNotificationPreferences',
  summary: 'Push preferences',
  description: 'Which kinds of push the account has turned off; every kind is on until turned off.',
  ok: 'Preferences',
});

const patchRoute = route('alerts.updatePreferences', {
  method: 'patch',
  path: '/v1/users/notification_preferences',
  operationId: 'updateNotificationPreferences',
  summary: 'Change push preferences',
  description:
    '`pilot_trade_notification_disabled: true` stops pilot_trade pushes (on by default for pilot-eligible users); `regime_notification_disabled` the regime-transition pushes. Fields left out keep their value.',
  request: {
    body: { content: { 'application/json': { schema: NotificationPreferencesPatchSchema } }, required: true },
  },
  ok: 'Preferences after the change',
});

export function registerNotificationPreferenceRoutes(serve: Serve, run: RunOperation): void {
  serve(getRoute, async (c) => c.json(ok(await run(c, 'alerts.preferences', {})), 200));
  serve(patchRoute, async (c) => c.json(ok(await run(c, 'alerts.updatePreferences', c.req.valid('json'))), 200));
}
