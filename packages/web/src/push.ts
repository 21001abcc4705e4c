import { api } from './api.js';
import type { Catalog } from './i18n/catalog.js';

/** base64url to bytes (a VAPID public key for PushManager.subscribe). */
export function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(new ArrayBuffer(b.length));
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

/** How a push subscription attempt ended: the page shows its sentence, the test reads its state. */
export interface PushOutcome {
  state: 'on' | 'unsupported' | 'insecure' | 'denied' | 'refused' | 'timeout';
  text: string;
}

/**
 * How long the page waits for the push service. A browser whose push service cannot be reached
 * (Chromium without access to FCM) neither resolves nor rejects `subscribe` for minutes; a
 * reachable one answers in a second or two.
 */
export const PUSH_SUBSCRIBE_TIMEOUT_MS = 10_000;

/**
 * Subscribes this browser to Web Push and registers it as a device of the account: registers the
 * service worker (scope `/app/`), asks the push service for a subscription with the server's VAPID
 * key, then sends it to `/v1/devices`. Every way it can fail ends in a sentence for the page: no
 * Web Push in this browser, not a secure context, notifications blocked, or the push service
 * refusing, or not answering within {@link PUSH_SUBSCRIBE_TIMEOUT_MS}.
 */
export async function enablePush(t: Catalog): Promise<PushOutcome> {
  const p = t.account.push;
  if (!window.isSecureContext) return { state: 'insecure', text: p.insecure };
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    return { state: 'unsupported', text: p.unsupported };
  const { public_key } = await api<{ public_key: string }>('/v1/devices/vapid_public_key');
  const registration = await navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' });
  await navigator.serviceWorker.ready;
  if ('Notification' in window && window.Notification.permission === 'denied')
    return { state: 'denied', text: p.denied };
  let subscription: PushSubscription | null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const asked = registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: fromBase64Url(public_key),
    });
    const late = new Promise<null>((done) => {
      timer = setTimeout(() => done(null), PUSH_SUBSCRIBE_TIMEOUT_MS);
    });
    // A late answer or failure after the timeout is dropped (no unhandled rejection).
    asked.catch(() => undefined);
    subscription = await Promise.race([asked, late]);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'NotAllowedError') return { state: 'denied', text: p.denied };
    const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { state: 'refused', text: p.refused(reason) };
  } finally {
    clearTimeout(timer);
  }
  if (subscription === null) return { state: 'timeout', text: p.timedOut(PUSH_SUBSCRIBE_TIMEOUT_MS / 1000) };
  await api('/v1/devices', {
    method: 'POST',
    body: { ...subscription.toJSON(), name: navigator.userAgent.slice(0, 60) },
  });
  return { state: 'on', text: p.on };
}
