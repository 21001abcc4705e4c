import { type SettingsGroup, setting } from '../platform/settings.js';
import type { PushTransport } from './push/transport.js';
import { DEFAULT_VAPID_SUBJECT } from './push/vapid.js';

/** What the owner's open streams hear of an alert that fired (the `alert` user event). */
export interface AlertTriggeredEvent {
  alert_id: string;
  asset_id: string;
  kind: string;
  title: string;
  body: string;
  value: number;
  candle_time: string;
  triggered_at: string;
}

/** Web Push delivery settings. */
export interface PushConfig {
  /** VAPID keys (env `MARKETLENS_VAPID_PUBLIC_KEY` / `_PRIVATE_KEY` / `_SUBJECT`); null: generated once, kept in storage. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** Accept `http://` subscription endpoints (a local push service in tests); real push services are https. */
  allowInsecureEndpoints: boolean;
}

// The alerts feature's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** Web Push (alerts/push); absent: generated VAPID keys kept in storage, https endpoints only. */
      push?: PushConfig;
    }
    interface Deps {
      /** Sends one Web Push request (alerts/push); absent: `fetch`. */
      pushTransport?: PushTransport;
      /**
       * Told of each alert that fires, after its push and webhooks are staged: the composition root
       * (`createApp`, `startBackgroundJobs`) passes live/'s user event; absent: no stream hears of it.
       * It must not throw (live's publisher swallows its own failures).
       */
      onAlertTriggered?: (userId: string, event: AlertTriggeredEvent) => Promise<void>;
    }
  }
}

/**
 * MARKETLENS_VAPID_PUBLIC_KEY / _PRIVATE_KEY (together; absent: keys generated once and kept in
 * storage) and MARKETLENS_VAPID_SUBJECT (a mailto: or https: contact the push services may use).
 */
function pushFromEnv(env: NodeJS.ProcessEnv): PushConfig {
  const publicKey = env.MARKETLENS_VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.MARKETLENS_VAPID_PRIVATE_KEY?.trim();
  const subject = env.MARKETLENS_VAPID_SUBJECT?.trim() || DEFAULT_VAPID_SUBJECT;
  if (!publicKey && !privateKey) return { vapid: null, allowInsecureEndpoints: false };
  if (!publicKey || !privateKey) {
    throw new Error('MARKETLENS_VAPID_PUBLIC_KEY and MARKETLENS_VAPID_PRIVATE_KEY go together');
  }
  if (!/^(mailto:|https:\/\/)/.test(subject))
    throw new Error('MARKETLENS_VAPID_SUBJECT must be a mailto: or https: URL');
  return { vapid: { publicKey, privateKey, subject }, allowInsecureEndpoints: false };
}

/** The alerts feature's settings: the Web Push VAPID keys and contact (MARKETLENS_VAPID_*). */
export const ALERTS_SETTINGS: SettingsGroup = {
  owner: 'alerts/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('vapidPublicKey', 'MARKETLENS_VAPID_PUBLIC_KEY', 'string', 'generated once, kept in storage', 'Web Push VAPID public key (with the private key)'),
    setting('vapidPrivateKey', 'MARKETLENS_VAPID_PRIVATE_KEY', 'string', 'generated once', 'Web Push VAPID private key'),
    setting('vapidSubject', 'MARKETLENS_VAPID_SUBJECT', 'string', 'mailto:push@marketlens.local', 'mailto: or https: contact for push services'),
  ],
  read: (env) => ({ push: pushFromEnv(env) }),
};
