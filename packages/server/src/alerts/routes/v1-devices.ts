import { z } from '@hono/zod-openapi';
import {
  DeviceIdParams,
  envelopeOf,
  ok,
  PushDeviceSchema,
  PushSubscriptionSchema,
  pushDeviceWire,
  VapidPublicKeySchema,
} from '@marketlens/contract';
import { PUBLIC, SESSION_ONLY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { json, operation, type Serve } from '../../platform/operation.js';
import type { AlertUseCases } from '../use-cases.js';

const vapidRoute = operation(PUBLIC, {
  method: 'get',
  path: '/v1/devices/vapid_public_key',
  operationId: 'getVapidPublicKey',
  tags: ['Devices'],
  summary: 'The VAPID public key to subscribe with',
  description:
    'The key a browser passes as `applicationServerKey` to `pushManager.subscribe` before registering the subscription with POST /v1/devices.',
  responses: { 200: json(envelopeOf(VapidPublicKeySchema), 'Key') },
});

const registerRoute = operation(SESSION_ONLY, {
  method: 'post',
  path: '/v1/devices',
  operationId: 'registerDevice',
  tags: ['Devices'],
  summary: 'Register a Web Push subscription',
  description:
    'Body: `PushSubscription.toJSON()` of a subscription made with the VAPID public key. The same endpoint again refreshes the device (and re-activates it). 400 `InvalidPushSubscription`.',
  request: { body: { content: { 'application/json': { schema: PushSubscriptionSchema } }, required: true } },
  responses: { 200: json(envelopeOf(PushDeviceSchema), 'Device registered') },
});

const listRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/devices',
  operationId: 'listDevices',
  tags: ['Devices'],
  summary: 'List push devices, inactive ones included',
  description:
    'Every Web Push subscription of the account; a device the push service reported gone stays listed with `active: false` and the reason.',
  responses: { 200: json(envelopeOf(z.array(PushDeviceSchema)), 'Devices, newest first') },
});

const deleteRoute = operation(
  SESSION_ONLY,
  {
    method: 'delete',
    path: '/v1/devices/{device_id}',
    operationId: 'deleteDevice',
    tags: ['Devices'],
    summary: 'Remove a push device',
    description: 'Pushes not yet delivered to it are dropped.',
    request: { params: DeviceIdParams },
    responses: { 200: json(envelopeOf(z.null()), 'Device removed') },
  },
  [404],
);

export function registerDeviceRoutes(serve: Serve, alerts: AlertUseCases): void {
  serve(vapidRoute, async (c) => c.json(ok({ public_key: await alerts.vapidPublicKey(actorOf(c)) }), 200));
  serve(registerRoute, async (c) =>
    c.json(ok(pushDeviceWire(await alerts.registerDevice(actorOf(c), c.req.valid('json')))), 200),
  );
  serve(listRoute, async (c) => c.json(ok((await alerts.devices(actorOf(c))).map(pushDeviceWire)), 200));
  serve(deleteRoute, async (c) => {
    await alerts.removeDevice(actorOf(c), c.req.valid('param').device_id);
    return c.json(ok(null), 200);
  });
}
