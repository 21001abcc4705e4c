import { DeviceIdParams, ok, PushSubscriptionSchema } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('Devices');

const vapidRoute = route('alerts.vapidPublicKey', {
  method: 'get',
  path: '/v1/devices/vapid_public_key',
  operationId: 'getVapidPublicKey',
  summary: 'The VAPID public key to subscribe with',
  description:
    'The key a browser passes as `applicationServerKey` to `pushManager.subscribe` before registering the subscription with POST /v1/devices.',
  ok: 'Key',
});

const registerRoute = route('alerts.registerDevice', {
  method: 'post',
  path: '/v1/devices',
  operationId: 'registerDevice',
  summary: 'Register a Web Push subscription',
  description:
    'Body: `PushSubscription.toJSON()` of a subscription made with the VAPID public key. The same endpoint again refreshes the device (and re-activates it). 400 `InvalidPushSubscription`.',
  request: { body: { content: { 'application/json': { schema: PushSubscriptionSchema } }, required: true } },
  ok: 'Device registered',
});

const listRoute = route('alerts.devices', {
  method: 'get',
  path: '/v1/devices',
  operationId: 'listDevices',
  summary: 'List push devices, inactive ones included',
  description:
    'Every Web Push subscription of the account; a device the push service reported gone stays listed with `active: false` and the reason.',
  ok: 'Devices, newest first',
});

const deleteRoute = route('alerts.removeDevice', {
  method: 'delete',
  path: '/v1/devices/{device_id}',
  operationId: 'deleteDevice',
  summary: 'Remove a push device',
  description: 'Pushes not yet delivered to it are dropped.',
  request: { params: DeviceIdParams },
  ok: 'Device removed',
  errors: [404],
});

export function registerDeviceRoutes(serve: Serve, run: RunOperation): void {
  serve(vapidRoute, async (c) => c.json(ok(await run(c, 'alerts.vapidPublicKey', {})), 200));
  serve(registerRoute, async (c) => c.json(ok(await run(c, 'alerts.registerDevice', c.req.valid('json'))), 200));
  serve(listRoute, async (c) => c.json(ok(await run(c, 'alerts.devices', {})), 200));
  serve(deleteRoute, async (c) => c.json(ok(await run(c, 'alerts.removeDevice', c.req.valid('param'))), 200));
}
