import { FREE_ALERT_LIMIT } from '@marketlens/contract';
import { isAtLeast } from '../auth/tiers.js';
import type { Tier } from '../storage/types.js';

/** Active alerts a basic (free) account may hold: a published rule, in the contract. */
export { FREE_ALERT_LIMIT };
/**
 * Paused (disabled) alerts one account may keep, whatever its tier: they do not count against the
 * active limit (pausing is how a basic account frees a slot), so they are bounded on their own.
 */
export const MAX_DISABLED_ALERTS = 100;
/** The largest signed 64-bit integer, `max` when unlimited; beyond a JS number, so kept as text. */
export const INT64_MAX = '9223372036854775807';

/** The cap on active alerts for a tier; null for no cap (Pro and Elite). */
export function alertLimitOf(tier: Tier): number | null {
  return isAtLeast(tier, 'pro') ? null : FREE_ALERT_LIMIT;
}

/** `GET /v1/notifications/config` data. */
export interface NotificationLimits {
  current: number;
  /** The cap, or {@link INT64_MAX} (as text) when unlimited. */
  max: number | typeof INT64_MAX;
  unlimited: boolean;
}

export function limitsOf(tier: Tier, current: number): NotificationLimits {
  const cap = alertLimitOf(tier);
  return cap === null ? { current, max: INT64_MAX, unlimited: true } : { current, max: cap, unlimited: false };
}

/**
 * The success envelope of the limits as JSON text, with `max` written as an exact integer literal:
 * `JSON.stringify` of a number cannot spell 2^63-1, so the literal is placed in the text.
 */
export function limitsEnvelopeJson(limits: NotificationLimits): string {
  return `{"code":0,"success":true,"data":{"current":${limits.current},"max":${String(limits.max)},"unlimited":${limits.unlimited}},"message":null}`;
}
