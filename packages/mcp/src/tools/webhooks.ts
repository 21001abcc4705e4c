/** Webhook tools: the alert channel for a client without a browser (register, list, delete). */

import type { AlertWebhook } from '../backend.js';
import { lines } from '../render.js';
import { Deletion, defineTool, type ToolDefinition } from '../tool.js';

function renderWebhook(w: AlertWebhook): string {
  const state = w.active ? 'active' : `inactive since ${w.deactivated_at} (${w.deactivated_reason})`;
  return `- ${w.name ? `${w.name}: ` : ''}${w.url}, ${state} (id ${w.id})`;
}

const registerAlertWebhook = defineTool({
  name: 'register_alert_webhook',
  title: 'Register an alert webhook',
  description:
    'Registers an https URL that receives your alerts as signed JSON POSTs (a channel that needs no browser or push device). Answers the signing secret once: keep it, it is never shown again. Each delivery carries `marketlens-signature: t=<unix seconds>,v1=<hex>`, v1 = HMAC-SHA256 keyed with the secret over `<t>.<raw body>`; answer 2xx to acknowledge (other answers are retried, 410 removes the webhook). The same URL again replaces its secret. Loopback, private and metadata addresses are refused (InvalidRequest).',
  operation: 'alerts.registerWebhook',
  text: (w) =>
    lines(
      'Webhook registered.',
      renderWebhook(w),
      `Signing secret (shown only now): ${w.secret}`,
      `Verify each delivery: ${w.signature_header} = t=<t>,v1=hex(HMAC-SHA256(secret, "<t>.<raw body>")).`,
    ),
});

const listAlertWebhooks = defineTool({
  name: 'list_alert_webhooks',
  title: 'Alert webhooks',
  description: 'Your alert webhooks, whether each is active, and why one stopped (answered 410, kept failing).',
  operation: 'alerts.webhooks',
  list: 'webhooks',
  text: (list) => lines(`Webhooks: ${list.length}`, ...list.map(renderWebhook)),
});

const deleteAlertWebhook = defineTool({
  name: 'delete_alert_webhook',
  title: 'Delete an alert webhook',
  description:
    'Deletes one of your alert webhooks by id (from list_alert_webhooks); its pending deliveries are dropped.',
  operation: 'alerts.deleteWebhook',
  output: Deletion,
  data: (_, input) => ({ id: input.webhook_id, deleted: true }),
  text: (_, input) => `Webhook ${input.webhook_id} deleted.`,
});

/** The webhook tools, in catalog order. */
export const WEBHOOK_TOOLS: readonly ToolDefinition[] = [registerAlertWebhook, listAlertWebhooks, deleteAlertWebhook];
