/**
 * Backoff after failed syncs: exponential in the number of consecutive failures, capped, with
 * "equal jitter" (half the delay fixed, half random) so connections failing together (a venue
 * outage) do not retry in lockstep.
 */

/** Backoff bounds. */
export interface BackoffOptions {
  /** Delay after the first failure (before jitter). */
  baseMs: number;
  /** The longest delay. */
  maxMs: number;
}

/**
 * The delay before retrying after `failures` consecutive failures (1 = the first): between half
 * and all of `min(maxMs, baseMs * 2^(failures-1))`, never less than `retryAfterMs` (a venue's own
 * hint, itself capped at `maxMs`). `random` returns a number in [0, 1).
 */
export function backoffDelay(
  failures: number,
  options: BackoffOptions,
  random: () => number = Math.random,
  retryAfterMs?: number,
): number {
  const n = Math.max(1, Math.floor(failures));
  // 2^(n-1) overflows to Infinity for large n; the cap bounds it first.
  const exp = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(n - 1, 52));
  const jittered = Math.round(exp / 2 + (exp / 2) * Math.min(Math.max(random(), 0), 1));
  const hint = retryAfterMs === undefined ? 0 : Math.min(Math.max(0, retryAfterMs), options.maxMs);
  return Math.max(jittered, hint);
}
