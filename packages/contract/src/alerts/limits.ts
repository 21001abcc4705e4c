/**
 * Wire schema of the alert limits (`GET /v1/notifications/config`). `max` is an integer: 2^63-1,
 * beyond a JS number's exact integers, when the tier has no cap. The wire spells it exactly; a JS
 * value of it (what a JSON parser reads, what the operation answers) is the nearest double, 2^63.
 */
import { z } from 'zod';

/** Active alerts a basic (free) account may hold; Pro and Elite have no cap. */
export const FREE_ALERT_LIMIT = 5;

export const NotificationLimitsSchema = z
  .object({
    current: z.number().meta({ type: 'integer', format: 'int64', description: 'Active alerts' }),
    max: z.number().meta({
      type: 'integer',
      format: 'int64',
      description: `Cap on active alerts: ${FREE_ALERT_LIMIT} on a basic account; 9223372036854775807 (2^63-1) when unlimited`,
    }),
    unlimited: z.boolean(),
  })
  .meta({ id: 'NotificationLimits' });

/** `{notification_id}` of the alert paths. */
export const NotificationIdParams = z.object({ notification_id: z.uuid() });
