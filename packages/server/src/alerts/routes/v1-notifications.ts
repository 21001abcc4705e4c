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
import type { AppEnv } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { type RestHook, restTable, serveTable } from '../../platform/rest-table.js';
import { limitsEnvelopeJson } from '../limits.js';

/**
 * Payload failures get the notification codes: a target out of its kind's range is
 * `TargetOutOfRange`, anything else about the body `InvalidNotification`; a bad path id is
 * `InvalidRequest` as everywhere.
 */
const payloadHook: RestHook = (result) => {
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
};

/** The alerts of an account and their cap. */
export const notificationRoutes = restTable('Notifications', {
  'alerts.limits': [
    { get: '/v1/notifications/config', id: 'getNotificationConfig', ok: 'Count and cap' },
    'Active alerts against the account cap',
    'How many alerts are active and how many the account may hold (`unlimited: true`, and `max` 2^63-1, when its tier has no cap).',
  ],
  'alerts.list': [
    { get: '/v1/notifications', id: 'listNotifications', ok: 'Alerts, newest first' },
    'List alerts with live target data',
    "Every alert of the account, armed, paused, triggered or expired, each with the watched value's live reading.",
  ],
  'alerts.create': [
    {
      post: '/v1/notifications',
      id: 'createNotification',
      json: NotificationPayloadSchema,
      ok: 'Alert created',
      errors: [402, 410],
      hook: payloadHook,
    },
    'Create an alert',
    `400 \`UnknownAsset\`, \`StablecoinNotAnalyzed\`, \`TargetOutOfRange\`, \`InvalidNotification\`; 402 \`NotificationLimitExceeded\` (basic accounts hold ${FREE_ALERT_LIMIT} active alerts) or 1004 (timeframe under an hour without Pro); 410 \`NoActiveDevice\` (register a push device first).`,
  ],
  'alerts.update': [
    {
      patch: '/v1/notifications/{notification_id}',
      id: 'updateNotification',
      params: NotificationIdParams,
      json: NotificationPayloadSchema,
      ok: 'Alert updated',
      errors: [402, 404],
      hook: payloadHook,
    },
    'Replace an alert payload (re-arms it)',
    'A triggered or expired alert is re-armed; `enabled: false` pauses it, `enabled: true` re-arms a paused one (the basic cap applies).',
  ],
  'alerts.delete': [
    {
      delete: '/v1/notifications/{notification_id}',
      id: 'deleteNotification',
      params: NotificationIdParams,
      ok: 'Alert deleted',
      errors: [404],
    },
    'Delete an alert',
    'The alert is removed and stops firing at once. 404 when the account has no alert with that id.',
  ],
});

const LimitsEnvelope = envelopeOf(NotificationLimitsSchema);

/** The limits' envelope as its JSON text (an unlimited `max` spelled exactly), typed as the documented 200. */
function limitsJson(c: Context<AppEnv>, text: string) {
  const res = c.body(text, 200, { 'content-type': 'application/json' });
  return res as unknown as Response & TypedResponse<z.infer<typeof LimitsEnvelope>, 200, 'json'>;
}

export function registerNotificationRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, notificationRoutes, {
    'alerts.limits': async (c) => limitsJson(c, limitsEnvelopeJson(await run(c, 'alerts.limits', {}))),
    'alerts.update': async (c) => {
      const input = { alert_id: c.req.valid('param').notification_id, payload: c.req.valid('json') };
      return c.json(ok(await run(c, 'alerts.update', input)), 200);
    },
    'alerts.delete': async (c) => {
      const alert_id = c.req.valid('param').notification_id;
      return c.json(ok(await run(c, 'alerts.delete', { alert_id })), 200);
    },
  });
}
