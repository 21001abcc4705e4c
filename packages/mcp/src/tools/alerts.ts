/** Alert tools: list, create, delete alerts, and the notification preferences. */

import {
  CreateAlertToolInput,
  NOTIFICATION_KIND_WORDS,
  NOTIFICATION_KINDS,
  type NotificationPreferences,
} from '@marketlens/contract';
import type { Alert } from '../backend.js';
import { lines, num } from '../render.js';
import { Deletion, defineTool, type ToolDefinition } from '../tool.js';
import { assetName } from './market.js';

function renderAlert(a: Alert): string {
  const b = a.body;
  const what = b.asset ? assetName(b.asset) : b.asset_id;
  return `- ${a.kind} alert on ${what}: target ${num(b.target)}${b.timeframe ? ` (${b.timeframe})` : ''}, status ${a.status}, live price ${num(b.live.price)}${b.triggered_at ? `, triggered ${b.triggered_at}` : `, expires ${b.expires_at}`} (id ${a.id})`;
}

const renderPreferences = (p: NotificationPreferences) =>
  lines(
    `Pilot trade notifications: ${p.pilot_trade_notification_disabled ? 'off' : 'on'}`,
    `Regime-change notifications: ${p.regime_notification_disabled ? 'off' : 'on'}`,
  );

const getAlerts = defineTool({
  name: 'get_alerts',
  title: 'Alerts',
  description: `Your alerts (${NOTIFICATION_KIND_WORDS.join(', ')}) with their status and the live price.`,
  operation: 'alerts.list',
  list: 'alerts',
  text: (list) => lines(`Alerts: ${list.length}`, ...list.map(renderAlert)),
});

const createPriceAlert = defineTool({
  name: 'create_price_alert',
  title: 'Create an alert',
  description: `Creates an alert delivered to your push devices and alert webhooks: by default a price alert (kind price, target a price in the quote currency, fires when the price reaches it); other kinds: ${NOTIFICATION_KINDS.filter((k) => k !== 'price').join(', ')} with their timeframe. Needs a registered push device or alert webhook (register_alert_webhook; code NoActiveDevice otherwise); free accounts hold a limited number of alerts (NotificationLimitExceeded) and no sub-1h timeframes.`,
  input: CreateAlertToolInput,
  operation: 'alerts.create',
  text: (a) => lines('Alert created.', renderAlert(a)),
});

const deleteAlert = defineTool({
  name: 'delete_alert',
  title: 'Delete an alert',
  description: 'Deletes one of your alerts by id (from get_alerts).',
  operation: 'alerts.delete',
  output: Deletion,
  data: (_, input) => ({ id: input.alert_id, deleted: true }),
  text: (_, input) => `Alert ${input.alert_id} deleted.`,
});

const getNotificationPreferences = defineTool({
  name: 'get_notification_preferences',
  title: 'Notification preferences',
  description: 'Which push notifications you receive besides your alerts: pilot trades and regime changes.',
  operation: 'alerts.preferences',
  text: renderPreferences,
});

const updateNotificationPreferences = defineTool({
  name: 'update_notification_preferences',
  title: 'Change notification preferences',
  description:
    'Turns pilot-trade or regime-change push notifications on or off (pilot_trade_notification_disabled, regime_notification_disabled; give at least one).',
  operation: 'alerts.updatePreferences',
  text: (p) => lines('Preferences saved.', renderPreferences(p)),
});

/** The alert tools, in catalog order. */
export const ALERT_TOOLS: readonly ToolDefinition[] = [
  getAlerts,
  createPriceAlert,
  deleteAlert,
  getNotificationPreferences,
  updateNotificationPreferences,
];
