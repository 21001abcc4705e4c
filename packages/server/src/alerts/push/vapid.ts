import webpush from 'web-push';
import type { AppDeps } from '../../platform/deps.js';
import type { Storage } from '../../storage/types.js';

/** VAPID identity of this server (RFC 8292). */
export interface VapidDetails {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Subject used with generated keys when none is configured; set `MARKETLENS_VAPID_SUBJECT` in production. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:push@marketlens.invalid';
const SETTING = 'vapid_keys';

const generated = new WeakMap<Storage, Promise<VapidDetails>>();

/**
 * The configured VAPID keys, else the pair generated the first time it was needed and kept in
 * storage, so subscriptions made against the public key survive restarts. Concurrent first
 * callers agree: the first stored pair wins.
 */
export function vapidDetails(deps: Pick<AppDeps, 'storage' | 'config'>): Promise<VapidDetails> {
  const configured = deps.config.push?.vapid;
  if (configured) return Promise.resolve(configured);
  let held = generated.get(deps.storage);
  if (!held) {
    held = loadOrCreate(deps.storage);
    generated.set(deps.storage, held);
    held.catch(() => generated.delete(deps.storage));
  }
  return held;
}

async function loadOrCreate(storage: Storage): Promise<VapidDetails> {
  const stored = await storage.pushSettings.get(SETTING);
  const text = stored ?? (await storage.pushSettings.setIfAbsent(SETTING, JSON.stringify(webpush.generateVAPIDKeys())));
  const keys = JSON.parse(text) as { publicKey: string; privateKey: string };
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: DEFAULT_VAPID_SUBJECT };
}
