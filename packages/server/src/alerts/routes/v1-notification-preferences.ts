import {
  envelopeOf,
  NotificationPreferencesPatchSchema,
  NotificationPreferencesSchema,
  ok,
} from '@marketlens/contract';
import { operation, type RunOperation, type Serve } from '../../platform/operation.js';

const json = (description: string) => ({
  description,
  content: { 'application/json': { schema: envelopeOf(NotificationPreferencesSchema) } },
});

const getRoute = operation('alerts.preferences', {
  method: 'get',
  path: '/v1/users/notification_preferences',
  operationId: 'getNotificationPreferences',
  tags: ['Notifications'],
  summary: 'Push preferences',
  description: 'Which kinds of push the account has turned off; every kind is on until turned off.',
  responses: { 200: json('Preferences') },
});

const patchRoute = operation('alerts.updatePreferences', {
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

export function registerNotificationPreferenceRoutes(serve: Serve, run: RunOperation): void {
  serve(getRoute, async (c) => c.json(ok(await run(c, 'alerts.preferences', {})), 200));
  serve(patchRoute, async (c) => c.json(ok(await run(c, 'alerts.updatePreferences', c.req.valid('json'))), 200));
}
