import webpush from 'web-push';
import { stateKey, stateOf } from '../../platform/app-state.js';
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

/** The app's generated pair, once read or made. */
const GENERATED = stateKey('vapid keys', () => ({ keys: null as Promise<VapidDetails> | null }));

/**
 * The configured VAPID keys, else the pair generated the first time it was needed and kept in
 * storage, so subscriptions made against the public key survive restarts. Concurrent first
 * callers agree: the first stored pair wins.
 */
export function vapidDetails(deps: Pick<AppDeps, 'storage' | 'config' | 'state'>): Promise<VapidDetails> {
  const configured = deps.config.push?.vapid;
  if (configured) return Promise.resolve(configured);
  const slot = stateOf(deps, GENERATED);
  if (slot.keys === null) {
    const held = loadOrCreate(deps.storage);
    slot.keys = held;
    held.catch(() => {
      if (slot.keys === held) slot.keys = null;
    });
  }
  return slot.keys;
}

async function loadOrCreate(storage: Storage): Promise<VapidDetails> {
  const stored = await storage.pushSettings.get(SETTING);
  const text = stored ?? (await storage.pushSettings.setIfAbsent(SETTING, JSON.stringify(webpush.generateVAPIDKeys())));
  const keys = JSON.parse(text) as { publicKey: string; privateKey: string };
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: DEFAULT_VAPID_SUBJECT };
}
