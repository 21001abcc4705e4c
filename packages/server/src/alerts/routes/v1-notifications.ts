import type { z } from '@hono/zod-openapi';
import {
  envelopeOf,
  FREE_ALERT_LIMIT,
  NotificationIdParams,
  NotificationLimitsSchema,
  NotificationPayloadSchema,
  ok,
  TARGET_OUT_OF_RANGE,
} from '@marketlens/contract';
import type { Context, TypedResponse } from 'hono';
import { SESSION_ONLY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import type { AppEnv } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import { json, operation, type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import { limitsEnvelopeJson } from '../limits.js';
import type { AlertUseCases } from '../use-cases.js';

const LimitsEnvelope = envelopeOf(NotificationLimitsSchema);

const payloadBody = { content: { 'application/json': { schema: NotificationPayloadSchema } }, required: true };

const route = routesOf('Notifications');

const listRoute = route('alerts.list', {
  method: 'get',
  path: '/v1/notifications',
  operationId: 'listNotifications',
  summary: 'List alerts with live target data',
  description:
    "Every alert of the account, armed, paused, triggered or expired, each with the watched value's live reading.",
  ok: 'Alerts, newest first',
});

const createRoute = route('alerts.create', {
  method: 'post',
  path: '/v1/notifications',
  operationId: 'createNotification',
  summary: 'Create an alert',
  description: `400 \`UnknownAsset\`, \`StablecoinNotAnalyzed\`, \`TargetOutOfRange\`, \`InvalidNotification\`; 402 \`NotificationLimitExceeded\` (basic accounts hold ${FREE_ALERT_LIMIT} active alerts) or 1004 (timeframe under an hour without Pro); 410 \`NoActiveDevice\` (register a push device first).`,
  request: { body: payloadBody },
  ok: 'Alert created',
  errors: [402, 410],
});

const configRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/notifications/config',
  operationId: 'getNotificationConfig',
  tags: ['Notifications'],
  summary: 'Active alerts against the account cap',
  description:
    'How many alerts are active and how many the account may hold (`unlimited: true`, and `max` 2^63-1, when its tier has no cap).',
  responses: { 200: json(LimitsEnvelope, 'Count and cap') },
});

const updateRoute = route('alerts.update', {
  method: 'patch',
  path: '/v1/notifications/{notification_id}',
  operationId: 'updateNotification',
  summary: 'Replace an alert payload (re-arms it)',
  description:
    'A triggered or expired alert is re-armed; `enabled: false` pauses it, `enabled: true` re-arms a paused one (the basic cap applies).',
  request: { params: NotificationIdParams, body: payloadBody },
  ok: 'Alert updated',
  errors: [402, 404],
});

const deleteRoute = route('alerts.delete', {
  method: 'delete',
  path: '/v1/notifications/{notification_id}',
  operationId: 'deleteNotification',
  summary: 'Delete an alert',
  description: 'The alert is removed and stops firing at once. 404 when the account has no alert with that id.',
  request: { params: NotificationIdParams },
  ok: 'Alert deleted',
  errors: [404],
});

interface HookResult {
  success: boolean;
  target?: string;
  error?: { issues: { path: PropertyKey[]; message: string; code?: string; params?: unknown }[] };
}

/**
 * Payload failures get the notification codes: a target out of its kind's range is
 * `TargetOutOfRange`, anything else about the body `InvalidNotification`; a bad path id is
 * `InvalidRequest` as everywhere.
 */
function payloadHook(result: HookResult): undefined {
  if (result.success) return undefined;
  const issues = result.error?.issues ?? [];
  const text = issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : result.target}: ${i.message}`)
    .join('; ');
  if (result.target !== 'json') throw new AppError('InvalidRequest', `Invalid ${result.target}: ${text}`);
  const rangeOnly =
    issues.length > 0 &&
    issues.every((i) => (i.params as { reason?: unknown } | undefined)?.reason === TARGET_OUT_OF_RANGE);
  throw new AppError(rangeOnly ? 'TargetOutOfRange' : 'InvalidNotification', `Invalid notification: ${text}`);
}

function limitsJson(c: Context<AppEnv>, text: string) {
  const res = c.body(text, 200, { 'content-type': 'application/json' });
  return res as unknown as Response & TypedResponse<z.infer<typeof LimitsEnvelope>, 200, 'json'>;
}

export function registerNotificationRoutes(serve: Serve, run: RunOperation, alerts: AlertUseCases): void {
  serve(configRoute, async (c) => limitsJson(c, limitsEnvelopeJson(await alerts.limits(actorOf(c)))));
  serve(listRoute, async (c) => c.json(ok(await run(c, 'alerts.list', {})), 200));
  serve(createRoute, async (c) => c.json(ok(await run(c, 'alerts.create', c.req.valid('json'))), 200), payloadHook);
  serve(
    updateRoute,
    async (c) => {
      const input = { alert_id: c.req.valid('param').notification_id, payload: c.req.valid('json') };
      return c.json(ok(await run(c, 'alerts.update', input)), 200);
    },
    payloadHook,
  );
  serve(deleteRoute, async (c) => {
    const alert_id = c.req.valid('param').notification_id;
    return c.json(ok(await run(c, 'alerts.delete', { alert_id })), 200);
  });
}
