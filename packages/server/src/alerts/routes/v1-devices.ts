import { type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  DeviceIdParams,
  envelopeOf,
  ok,
  PushDeviceSchema,
  PushSubscriptionSchema,
  pushDeviceWire,
  VapidPublicKeySchema,
} from '@marketlens/contract';
import { PUBLIC, requireUser, SESSION_ONLY } from '../../auth/authorize.js';
import type { AppEnv } from '../../platform/deps.js';
import { operation } from '../../platform/operation.js';
import { registerDevice, removeDevice } from '../push/devices.js';
import { vapidDetails } from '../push/vapid.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

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

export function registerDeviceRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(vapidRoute, async (c) => {
    const { publicKey } = await vapidDetails(c.get('deps'));
    return c.json(ok({ public_key: publicKey }), 200);
  });
  app.openapi(registerRoute, async (c) => {
    const caller = requireUser(c.get('caller'));
    const device = await registerDevice(c.get('deps'), caller.user.id, c.req.valid('json'));
    return c.json(ok(pushDeviceWire(device)), 200);
  });
  app.openapi(listRoute, async (c) => {
    const caller = requireUser(c.get('caller'));
    return c.json(ok((await c.get('deps').storage.pushDevices.listByUser(caller.user.id)).map(pushDeviceWire)), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    const caller = requireUser(c.get('caller'));
    await removeDevice(c.get('deps'), caller.user.id, c.req.valid('param').device_id);
    return c.json(ok(null), 200);
  });
}
