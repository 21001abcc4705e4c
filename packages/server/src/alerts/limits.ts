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
/** The largest signed 64-bit integer, `max` when unlimited, as the wire spells it (beyond a JS number). */
export const INT64_MAX = '9223372036854775807';

/** The cap on active alerts for a tier; null for no cap (Pro and Elite). */
export function alertLimitOf(tier: Tier): number | null {
  return isAtLeast(tier, 'pro') ? null : FREE_ALERT_LIMIT;
}

/** `GET /v1/notifications/config` data (the contract's `NotificationLimitsSchema`). */
export interface NotificationLimits {
  current: number;
  /** The cap, or 2^63-1 when unlimited: as a number, the nearest double (2^63), what a JSON parser reads from the wire. */
  max: number;
  unlimited: boolean;
}

export function limitsOf(tier: Tier, current: number): NotificationLimits {
  const cap = alertLimitOf(tier);
  return cap === null ? { current, max: Number(INT64_MAX), unlimited: true } : { current, max: cap, unlimited: false };
}

/**
 * The success envelope of the limits as JSON text, with an unlimited `max` written as the exact
 * integer 2^63-1: `JSON.stringify` of its number would spell 9223372036854776000, so the literal
 * is placed in the text.
 */
export function limitsEnvelopeJson(limits: NotificationLimits): string {
  const max = limits.unlimited ? INT64_MAX : String(limits.max);
  return `{"code":0,"success":true,"data":{"current":${limits.current},"max":${max},"unlimited":${limits.unlimited}},"message":null}`;
}
