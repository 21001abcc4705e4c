import type {
  Notification,
  NotificationPayload,
  NotificationPreferencesPatch,
  RegisterAlertWebhook,
} from '@marketlens/contract';
import { tierOf } from '../analysis/analysis.js';
import { requireUser } from '../auth/authorize.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import type { AlertRecord } from '../storage/alerts-types.js';
import { alertViews, createAlert, deleteAlert, updateAlert } from './alerts.js';
import { limitsOf } from './limits.js';
import { registerDevice, removeDevice, type SubscriptionInput } from './push/devices.js';
import { vapidDetails } from './push/vapid.js';
import { listWebhooks, registerWebhook, removeWebhook } from './push/webhooks.js';

/**
 * A signed-in user's alerts and where they are delivered (push devices, signed webhooks), as REST
 * (`/v1/notifications`, `/v1/devices`, notification preferences) and MCP (the alert and webhook
 * tools) ask for them. Every use case but the VAPID key needs a user; the alert cap is the tier's.
 */
export function alertUseCases(deps: AppDeps) {
  const userOf = (actor: Actor) => requireUser(actor.caller).user.id;

  /** One alert with its live target data, as every surface shows it. */
  const viewOf = async (alert: AlertRecord): Promise<Notification> => {
    const [view] = await alertViews(deps, [alert]);
    return view;
  };

  return {
    /** Every alert of the user, newest first, each with the watched value's live reading. */
    list: async (actor: Actor) => alertViews(deps, await deps.storage.alerts.listByUser(userOf(actor))),

    /**
     * Creates an alert: a verified address where that is required, a valid payload near the live
     * market, sub-1h timeframes with Pro only, the tier's cap on active alerts and the bound on
     * paused ones, and a push device or webhook to deliver to.
     */
    async create(actor: Actor, payload: NotificationPayload): Promise<Notification> {
      const caller = requireUser(actor.caller);
      return viewOf(await createAlert(deps, caller.user.id, tierOf(caller), payload));
    },

    /** Replaces an alert's payload and re-arms it, under the payload rules and the tier's cap; `NotificationNotFound` when not the user's. */
    async update(actor: Actor, alertId: string, payload: NotificationPayload): Promise<Notification> {
      const caller = requireUser(actor.caller);
      return viewOf(await updateAlert(deps, caller.user.id, tierOf(caller), alertId, payload));
    },

    /** Deletes one of the user's alerts; `NotificationNotFound` when it is not theirs. */
    delete: async (actor: Actor, alertId: string): Promise<void> => deleteAlert(deps, userOf(actor), alertId),

    /** The user's active alerts against the cap of their tier. */
    async limits(actor: Actor) {
      const caller = requireUser(actor.caller);
      return limitsOf(tierOf(caller), await deps.storage.alerts.countActive(caller.user.id));
    },

    /** Which kinds of push (pilot trades, regime changes) the user has turned off. */
    preferences: async (actor: Actor) => deps.storage.notificationPreferences.get(userOf(actor)),

    /** Turns kinds of push on or off; fields left out keep their value. */
    async updatePreferences(actor: Actor, patch: NotificationPreferencesPatch) {
      return deps.storage.notificationPreferences.update(userOf(actor), patch, deps.now());
    },

    /** The VAPID public key browsers subscribe with (public: no user needed). */
    vapidPublicKey: async (_actor: Actor): Promise<string> => (await vapidDetails(deps)).publicKey,

    /** Registers (or refreshes) a Web Push subscription after checking it; `InvalidPushSubscription` otherwise. */
    async registerDevice(actor: Actor, subscription: SubscriptionInput) {
      return registerDevice(deps, userOf(actor), subscription);
    },

    /** The user's push devices, inactive ones included. */
    devices: async (actor: Actor) => deps.storage.pushDevices.listByUser(userOf(actor)),

    /** Removes one of the user's push devices; `DeviceNotFound` when it is not theirs. */
    removeDevice: async (actor: Actor, deviceId: string): Promise<void> => removeDevice(deps, userOf(actor), deviceId),

    /** Registers a webhook for the user's alerts (a public https URL, a bounded number per account) and answers its secret once. */
    registerWebhook: async (actor: Actor, input: RegisterAlertWebhook) => registerWebhook(deps, userOf(actor), input),

    /** The user's alert webhooks, whether each is active and why one stopped. */
    webhooks: async (actor: Actor) => listWebhooks(deps, userOf(actor)),

    /** Deletes one of the user's webhooks with its pending deliveries; `WebhookNotFound` when it is not theirs. */
    async deleteWebhook(actor: Actor, webhookId: string): Promise<void> {
      return removeWebhook(deps, userOf(actor), webhookId);
    },
  };
}

/** The use cases of the alerts feature, as the composition root builds them. */
export type AlertUseCases = ReturnType<typeof alertUseCases>;
