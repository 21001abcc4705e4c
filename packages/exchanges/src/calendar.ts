/**
 * When a market trades, as far as candles need to know: whether a missing candle is a gap or a
 * closed market (a weekend, a night), and up to when a series that has stopped has really seen
 * the market (so that a candle built from shorter ones is closed only once its whole span has
 * passed). No holiday tables: a holiday is recognised by its shape (one or two weekdays without a
 * candle), never assumed.
 */
import type { AssetClass } from './ports.js';

/**
 * How a market trades through the week: `always` (crypto, around the clock), `fx` (Sunday evening to
 * Friday evening, UTC), `sessions` (stocks and indices: weekday sessions, closed nights and weekends).
 */
export type MarketCalendar = 'always' | 'fx' | 'sessions';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday: day 0 of the epoch is weekday 4 (Sunday = 0). */
const EPOCH_WEEKDAY = 4;
/** A session template (the hours a stock trades) is read from the data only over this many days. */
const TEMPLATE_DAYS = 20;
/** The longest run of weekdays without a candle that is taken for holidays rather than missing data. */
const HOLIDAY_RUN = 2;

/** The calendar of an asset class: coins and on-chain tokens trade always, fx on weekdays, stocks in sessions. */
export function calendarOf(assetClass: AssetClass | null | undefined): MarketCalendar {
  if (assetClass === 'stocks') return 'sessions';
  if (assetClass === 'fx') return 'fx';
  return 'always';
}

/** Weekday of a UTC time: 0 Sunday .. 6 Saturday. */
function weekday(t: number): number {
  return (((Math.floor(t / DAY_MS) + EPOCH_WEEKDAY) % 7) + 7) % 7;
}

/** Milliseconds since the start of the week (Sunday 00:00 UTC). */
function weekTime(t: number): number {
  return weekday(t) * DAY_MS + (((t % DAY_MS) + DAY_MS) % DAY_MS);
}

/** Milliseconds since 00:00 UTC. */
function dayTime(t: number): number {
  return ((t % DAY_MS) + DAY_MS) % DAY_MS;
}

/**
 * The part of the week when the market is surely shut (start and end in ms since Sunday 00:00 UTC,
 * the end possibly past the week's end): fx from Friday 22:00 to Sunday 21:00 UTC (the close and
 * open of both daylight-saving seasons), stocks from Saturday 00:00 (the end of US after-hours) to
 * Sunday 21:00 UTC (the first Pacific session). Crypto never shuts.
 */
const SHUT: Readonly<Record<MarketCalendar, readonly [number, number] | null>> = {
  always: null,
  fx: [5 * DAY_MS + 22 * HOUR_MS, 7 * DAY_MS + 21 * HOUR_MS],
  sessions: [6 * DAY_MS, 7 * DAY_MS + 21 * HOUR_MS],
};

/**
 * The part of the week when a missing intraday candle is no gap (a generous window, so that a
 * venue's own weekend hours never count): fx from Friday 20:00 to Sunday 23:00 UTC, stocks the
 * whole weekend (UTC Saturday and Sunday).
 */
const WEEKEND: Readonly<Record<MarketCalendar, readonly [number, number] | null>> = {
  always: null,
  fx: [5 * DAY_MS + 20 * HOUR_MS, 7 * DAY_MS + 23 * HOUR_MS],
  sessions: [6 * DAY_MS, 8 * DAY_MS],
};

/** True when `[start, end)` lies wholly inside the weekly window (which may run past Saturday). */
function within(window: readonly [number, number], start: number, end: number): boolean {
  const from = weekTime(start);
  const to = from + (end - start);
  // The window, seen from this week and from the week before (it can wrap into Sunday).
  return (from >= window[0] && to <= window[1]) || (from + WEEK_MS >= window[0] && to + WEEK_MS <= window[1]);
}

/** True when daily (or longer) candles of the calendar exist on this UTC date. */
function tradingDate(calendar: MarketCalendar, t: number): boolean {
  const d = weekday(t);
  if (calendar === 'sessions') return d !== 0 && d !== 6;
  // fx: some feeds close their week with a short Sunday candle; none has a Saturday one.
  if (calendar === 'fx') return d !== 6;
  return true;
}

/** The hours of the day a stock trades, read from a series (ms since 00:00 UTC, last candle open included). */
export interface SessionTemplate {
  first: number;
  last: number;
}

/**
 * The session a series shows: the earliest and latest candle open of the day, over at least
 * 20 trading days (null with fewer days, for candles of a day or longer, or when
 * the candles cover the whole day: a session across midnight UTC is not narrowed).
 */
export function sessionTemplate(time: ArrayLike<number>, stepMs: number): SessionTemplate | null {
  if (stepMs >= DAY_MS) return null;
  let first = DAY_MS;
  let last = -1;
  let days = 0;
  let day = Number.NaN;
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    const d = Math.floor(t / DAY_MS);
    if (d !== day) {
      day = d;
      days++;
    }
    const tod = dayTime(t);
    if (tod < first) first = tod;
    if (tod > last) last = tod;
  }
  if (days < TEMPLATE_DAYS || (first === 0 && last + stepMs >= DAY_MS)) return null;
  return { first, last };
}

/**
 * True when a candle of `stepMs` opening at `t` may exist in the calendar: its span reaches a time
 * the market may trade (daily and longer candles: a trading date; intraday: outside the weekly
 * shut and, with a session template, inside the session's hours). Errs towards "may": it decides
 * when a stopped series has seen the market, where an early "no" would close a candle too soon.
 */
export function mayTrade(
  calendar: MarketCalendar,
  t: number,
  stepMs: number,
  template: SessionTemplate | null = null,
): boolean {
  if (calendar === 'always') return true;
  if (stepMs >= DAY_MS) {
    for (let d = t; d < t + stepMs; d += DAY_MS) if (tradingDate(calendar, d)) return true;
    return false;
  }
  const shut = SHUT[calendar];
  if (shut !== null && within(shut, t, t + stepMs)) return false;
  if (template !== null && calendar === 'sessions') {
    const tod = dayTime(t);
    return tod >= template.first && tod <= template.last;
  }
  return true;
}

/**
 * Up to when a series that stops at its last candle has seen the market: the open of the first
 * candle that could have come next in the calendar (after a Friday's daily candle of a stock, the
 * next Monday; after a session's last candle, the next session's first; for crypto, the end of the
 * last candle). A candle built from these whose span ends by then is complete; one that ends
 * later is still forming, whatever the clock says. Null for an empty series.
 */
export function seenUntil(
  time: ArrayLike<number>,
  stepMs: number,
  calendar: MarketCalendar,
  template: SessionTemplate | null = sessionTemplate(time, stepMs),
): number | null {
  const n = time.length;
  if (n === 0) return null;
  let t = time[n - 1] + stepMs;
  // A closed market lasts at most a weekend and a night (and holidays, which are not skipped).
  const limit = t + 4 * DAY_MS;
  while (t < limit && !mayTrade(calendar, t, stepMs, template)) t += stepMs;
  return t;
}

/**
 * Candles missing from a series with candles `stepMs` apart, counted against the market's
 * calendar: a weekend, a night between sessions and a holiday are no gaps. Crypto: every missing
 * candle. Fx: every missing candle outside the weekend (Friday 20:00 to Sunday 23:00 UTC; for daily
 * candles, Saturdays and Sundays). Stocks: daily candles missing on weekdays, except runs of one
 * or two weekdays (holidays); weekly candles: every missing week; intraday candles missing inside a trading day (between its first and
 * last candle), plus whole weekdays missing in runs of three or more, each counted as a median day
 * of candles.
 */
export function countGaps(time: ArrayLike<number>, stepMs: number, calendar: MarketCalendar): number {
  const n = time.length;
  if (n < 2 || !(stepMs > 0)) return 0;
  if (calendar === 'sessions' && stepMs <= DAY_MS) return sessionGaps(time, stepMs);
  const weekend = WEEKEND[calendar];
  let gaps = 0;
  for (let i = 1; i < n; i++) {
    const missing = Math.round((time[i] - time[i - 1]) / stepMs) - 1;
    if (missing <= 0) continue;
    if (weekend === null || stepMs > DAY_MS) {
      gaps += missing;
      continue;
    }
    for (let k = 1; k <= missing; k++) {
      const t = time[i - 1] + k * stepMs;
      const closed = stepMs >= DAY_MS ? !tradingDate('sessions', t) : within(weekend, t, t + stepMs);
      if (!closed) gaps++;
    }
  }
  return gaps;
}

function sessionGaps(time: ArrayLike<number>, stepMs: number): number {
  const n = time.length;
  const daily = stepMs >= DAY_MS;
  let gaps = 0;
  // Candles per trading day, for counting a missing day of intraday candles.
  const perDay: number[] = [];
  let dayCount = 1;
  let missingDays = 0;
  for (let i = 1; i < n; i++) {
    const a = time[i - 1];
    const b = time[i];
    const dayA = Math.floor(a / DAY_MS);
    const dayB = Math.floor(b / DAY_MS);
    if (!daily && dayA === dayB) {
      gaps += Math.max(0, Math.round((b - a) / stepMs) - 1);
      dayCount++;
      continue;
    }
    if (!daily) {
      perDay.push(dayCount);
      dayCount = 1;
    }
    // Weekdays strictly between the two candles' dates (for daily candles: the dates with no candle).
    let run = 0;
    for (let d = dayA + 1; d < dayB; d++) if (tradingDate('sessions', d * DAY_MS)) run++;
    if (run > HOLIDAY_RUN) missingDays += run;
  }
  if (daily) return missingDays;
  perDay.push(dayCount);
  perDay.sort((x, y) => x - y);
  const median = perDay[Math.floor(perDay.length / 2)];
  return gaps + missingDays * median;
}

/** The spacing of a series, in words: `1 minute`, `5 minutes`, `4 hours`, `1 day`, `7 days`. */
export function describeSpacing(ms: number): string {
  const unit = (x: number, one: string): string => `${x} ${one}${x === 1 ? '' : 's'}`;
  if (ms % DAY_MS === 0) return unit(ms / DAY_MS, 'day');
  if (ms % HOUR_MS === 0) return unit(ms / HOUR_MS, 'hour');
  if (ms % MINUTE_MS === 0) return unit(ms / MINUTE_MS, 'minute');
  return unit(ms / 1000, 'second');
}

/**
 * The spacing a series was recorded at: the most common distance between consecutive candles
 * (gaps, weekends and nights are rarer than the spacing itself), the shorter one on a tie. Null
 * with fewer than two candles.
 */
export function measuredSpacing(time: ArrayLike<number>): number | null {
  const counts = new Map<number, number>();
  for (let i = 1; i < time.length; i++) {
    const d = time[i] - time[i - 1];
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best: number | null = null;
  let most = 0;
  for (const [d, c] of counts) {
    if (c > most || (c === most && best !== null && d < best)) {
      best = d;
      most = c;
    }
  }
  return best;
}
