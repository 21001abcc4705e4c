/** Times on the wire: every time is an ISO 8601 UTC date-time (`2026-11-25T16:00:00.000Z`). */

/** The wire form of a time given in ms since the epoch. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The wire form of a time, or null. */
export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : iso(ms);
}
