/**
 * Wire schemas of alert webhooks: a signed HTTPS callback that receives the same notices as a push
 * device, for clients without a browser (an MCP-only user). The signing secret is answered once, at
 * registration.
 */
import { z } from 'zod';

/** The header every webhook delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'marketlens-signature';

/** Webhooks one account may hold. */
export const MAX_ALERT_WEBHOOKS = 5;

export const AlertWebhookIdSchema = z.uuid().describe('Webhook id');

export const RegisterAlertWebhookInput = z.object({
  url: z.string().max(2048).meta({
    description:
      'An https URL on port 443 that answers a POST with a 2xx; never a loopback, private, link-local or metadata address',
  }),
  name: z.string().trim().min(1).max(64).optional().meta({ description: 'A label to tell webhooks apart' }),
});
export type RegisterAlertWebhook = z.output<typeof RegisterAlertWebhookInput>;

export const AlertWebhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    name: z.string().nullable(),
    active: z
      .boolean()
      .meta({ description: 'False once it answered 410 or kept failing; register it again to resume' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    deactivated_at: z.iso.datetime().nullable(),
    deactivated_reason: z.string().nullable(),
  })
  .meta({ id: 'AlertWebhook' });
export type AlertWebhook = z.output<typeof AlertWebhookSchema>;

export const RegisteredAlertWebhookSchema = AlertWebhookSchema.extend({
  secret: z.string().meta({
    description:
      'The signing secret (`whsec_...`), shown only now: each delivery carries `marketlens-signature: t=<unix seconds>,v1=<hex>`, v1 = HMAC-SHA256 with this secret over `<t>.<raw body>`',
  }),
  signature_header: z.literal(WEBHOOK_SIGNATURE_HEADER),
}).meta({ id: 'RegisteredAlertWebhook' });
export type RegisteredAlertWebhook = z.output<typeof RegisteredAlertWebhookSchema>;

export const AlertWebhookListSchema = z.object({ webhooks: z.array(AlertWebhookSchema) });
