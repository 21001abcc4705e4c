import type { PagingSpec } from './venues.js';

/**
 * Where a time-windowed read stands. `since`/`until` bound the next request (`until` null: the
 * venue's default window), `resume` remembers where a `desc` window that had to be split ends,
 * `skip` holds the ids already returned at the boundary timestamp the next request starts from.
 */
export interface PageState {
  since: number;
  until: number | null;
  resume: number | null;
  skip: readonly string[];
  /**
   * Ask without {@link SLACK_MS}: set after a full page brought nothing new, which happens when the
   * records just outside the window (already read) fill the page; tight bounds make room for the rest.
   */
  tight?: boolean;
}

/** The bounds of one request (inclusive). `until` undefined: do not send one. */
export interface RequestWindow {
  since: number;
  until: number | undefined;
}

/** A record of a time-ordered history. */
export interface Timed {
  id: string;
  time: number;
}

/**
 * Venues differ on whether `since`/`until` are inclusive; requests are widened by this much on both
 * sides and records outside the window are dropped here, so a boundary record is never lost.
 */
export const SLACK_MS = 1;

/** The bounds to send for a window: widened by {@link SLACK_MS} unless the state asks for tight bounds. */
export function requestBounds(window: RequestWindow, state: PageState): RequestWindow {
  const slack = state.tight === true ? 0 : SLACK_MS;
  return { since: window.since - slack, until: window.until === undefined ? undefined : window.until + slack };
}

/** The first state of a read starting at `since`. */
export function startState(since: number): PageState {
  return { since, until: null, resume: null, skip: [] };
}

/** The window to request next, never past `end`. */
export function requestWindow(spec: PagingSpec, state: PageState, end: number): RequestWindow {
  // Leave room for the slack on both sides inside the venue's maximum span.
  const windowEnd = spec.windowMs === null ? end : Math.min(state.since + spec.windowMs - 1 - 2 * SLACK_MS, end);
  if (spec.order === 'asc') return { since: state.since, until: spec.windowMs === null ? undefined : windowEnd };
  return { since: state.since, until: state.until ?? windowEnd };
}

/** Records of a response that fall in the window and were not returned before. */
export function inWindow<T extends Timed>(records: readonly T[], window: RequestWindow, state: PageState): T[] {
  const skip = new Set(state.skip);
  return records.filter(
    (r) => r.time >= window.since && (window.until === undefined || r.time <= window.until) && !skip.has(r.id),
  );
}

/**
 * The state after a response: `raw` is everything the venue returned (its count tells whether the
 * page was full), `end` where the whole read stops. Returns null when the read is complete.
 *
 * - `asc`, full page: continue from the newest timestamp, skipping the ids already seen there.
 * - `desc`, full page: the window is split; continue with its older part, then resume after it.
 * - a page that is not full ends its window; the next window starts after it, up to `end`.
 */
export function advance(
  spec: PagingSpec,
  state: PageState,
  window: RequestWindow,
  raw: readonly Timed[],
  end: number,
): PageState | null {
  const within = raw.filter((r) => r.time >= window.since && (window.until === undefined || r.time <= window.until));
  const seen = new Set(state.skip);
  const fresh = within.some((r) => !seen.has(r.id));
  if (raw.length >= spec.pageSize && within.length > 0) {
    // A full page that brought nothing new: retry with tight bounds, then step past the timestamp.
    if (!fresh && state.tight !== true) return { ...state, tight: true };
    if (spec.order === 'asc') {
      const newest = Math.max(...within.map((r) => r.time));
      if (!fresh) return { since: newest + 1, until: null, resume: null, skip: [] };
      return { since: newest, until: null, resume: null, skip: idsAt(within, newest, state, newest === state.since) };
    }
    const oldest = Math.min(...within.map((r) => r.time));
    const resume = state.resume ?? window.until ?? end;
    if (!fresh) return { since: state.since, until: oldest - 1, resume, skip: [] };
    return {
      since: state.since,
      until: oldest,
      resume,
      skip: idsAt(within, oldest, state, oldest === (window.until ?? Number.NaN)),
    };
  }
  const windowEnd = spec.order === 'desc' ? (state.resume ?? window.until ?? end) : window.until;
  if (windowEnd === undefined || windowEnd >= end) return null;
  return { since: windowEnd + 1, until: null, resume: null, skip: [] };
}

function idsAt(records: readonly Timed[], time: number, state: PageState, keepOld: boolean): string[] {
  const ids = records.filter((r) => r.time === time).map((r) => r.id);
  return keepOld ? [...new Set([...state.skip, ...ids])] : ids;
}
