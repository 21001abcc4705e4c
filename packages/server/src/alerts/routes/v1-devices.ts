import { DeviceIdParams, PushSubscriptionSchema } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

/** The Web Push devices of an account. */
export const deviceRoutes = restTable('Devices', {
  'alerts.vapidPublicKey': [
    { get: '/v1/devices/vapid_public_key', id: 'getVapidPublicKey', ok: 'Key' },
    'The VAPID public key to subscribe with',
    'The key a browser passes as `applicationServerKey` to `pushManager.subscribe` before registering the subscription with POST /v1/devices.',
  ],
  'alerts.registerDevice': [
    { post: '/v1/devices', id: 'registerDevice', json: PushSubscriptionSchema, ok: 'Device registered' },
    'Register a Web Push subscription',
    'Body: `PushSubscription.toJSON()` of a subscription made with the VAPID public key. The same endpoint again refreshes the device (and re-activates it). 400 `InvalidPushSubscription`.',
  ],
  'alerts.devices': [
    { get: '/v1/devices', id: 'listDevices', ok: 'Devices, newest first' },
    'List push devices, inactive ones included',
    'Every Web Push subscription of the account; a device the push service reported gone stays listed with `active: false` and the reason.',
  ],
  'alerts.removeDevice': [
    {
      delete: '/v1/devices/{device_id}',
      id: 'deleteDevice',
      params: DeviceIdParams,
      ok: 'Device removed',
      errors: [404],
    },
    'Remove a push device',
    'Pushes not yet delivered to it are dropped.',
  ],
});
