import type { PushCategory, PushNotice } from '../../storage/alerts-types.js';

/**
 * The JSON a device receives (decrypted by its browser): `key` is the idempotency key of the
 * trigger (the same on every copy; a client that has shown it drops a repeat), `category` one of
 * `alert`, `regime`, `pilot_trade`, `title`/`body` ready to show, `data` the machine-readable facts.
 */
export interface PushPayload {
  key: string;
  category: PushCategory;
  title: string;
  body: string;
  /** Clock time the trigger happened (ISO). */
  time: string;
  data: Record<string, string | number | boolean | null>;
}

/** A notice for the outbox: the payload serialized once, so every device gets the same bytes. */
export function noticeOf(payload: PushPayload): PushNotice {
  return { idempotency_key: payload.key, category: payload.category, payload: JSON.stringify(payload) };
}

/** A price as people read it: up to 6 significant digits, no exponent. */
export function formatPrice(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = Math.abs(n) >= 1 ? Math.max(0, 6 - Math.floor(Math.log10(Math.abs(n))) - 1) : 8;
  return Number(n.toFixed(Math.min(digits, 8))).toLocaleString('en-US', { maximumFractionDigits: 8 });
}

/** A signed percentage with two decimals (`+5.00%`). */
export function formatPct(n: number): string {
  return `${n >= 0 ? '+' : ''}${n.toFixed(2)}%`;
}
