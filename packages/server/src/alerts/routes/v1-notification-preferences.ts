import { NotificationPreferencesPatchSchema } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

/** Which pushes an account receives. */
export const notificationPreferenceRoutes = restTable('Notifications', {
  'alerts.preferences': [
    { get: '/v1/users/notification_preferences', id: 'getNotificationPreferences', ok: 'Preferences' },
    'Push preferences',
    'Which kinds of push the account has turned off; every kind is on until turned off.',
  ],
  'alerts.updatePreferences': [
    {
      patch: '/v1/users/notification_preferences',
      id: 'updateNotificationPreferences',
      json: NotificationPreferencesPatchSchema,
      ok: 'Preferences after the change',
    },
    'Change push preferences',
    '`pilot_trade_notification_disabled: true` stops pilot_trade pushes (on by default for pilot-eligible users); `regime_notification_disabled` the regime-transition pushes. Fields left out keep their value.',
  ],
});
