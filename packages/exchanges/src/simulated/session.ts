/**
 * Trading sessions of the simulated venue: when a market trades. Crypto and every perpetual trade
 * around the clock; US stock spot trades the NYSE regular session (09:30 to 16:00 America/New_York,
 * Monday to Friday, daylight saving time read from the platform's time zone data); fx spot trades
 * from Sunday 22:00 UTC to Friday 22:00 UTC. Exchange holidays are not modelled: a stock trades
 * every weekday.
 *
 * Every session is one interval per UTC day on half-hour boundaries, so UTC-aligned candles of any
 * timeframe (m5 to w1) hold either part of it or none of it.
 */

/** When a market trades: `always` (24/7), `nyse` (US regular hours), `fx` (Sunday 22:00 to Friday 22:00 UTC). */
export type TradingSession = 'always' | 'nyse' | 'fx';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

const nyParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
});

/** Offset of New York wall-clock time from UTC at `t`, ms (-4 h in summer, -5 h in winter). */
function newYorkOffset(t: number): number {
  const f: Record<string, number> = {};
  for (const p of nyParts.formatToParts(t)) if (p.type !== 'literal') f[p.type] = Number(p.value);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute);
  return wall - Math.floor(t / MINUTE) * MINUTE;
}

/** Session of each UTC day, by day number since the epoch (one `Intl` call per day, ever). */
const nyseDays = new Map<number, readonly [number, number] | null>();

/**
 * The trading interval `[open, close)` (ms UTC) of `session` within the UTC day that starts at
 * `dayStart`; null when the market does not trade that day.
 */
export function sessionOfDay(session: TradingSession, dayStart: number): readonly [number, number] | null {
  const weekday = new Date(dayStart).getUTCDay();
  switch (session) {
    case 'always':
      return [dayStart, dayStart + DAY];
    case 'fx':
      if (weekday === 6) return null;
      if (weekday === 0) return [dayStart + 22 * HOUR, dayStart + DAY];
      return [dayStart, weekday === 5 ? dayStart + 22 * HOUR : dayStart + DAY];
    case 'nyse': {
      if (weekday === 0 || weekday === 6) return null;
      const key = dayStart / DAY;
      let hit = nyseDays.get(key);
      if (hit === undefined) {
        // The session lies inside one UTC day (13:30-20:00 in summer, 14:30-21:00 in winter); the
        // offset is read at midday, well clear of a 02:00 local clock change.
        const offset = newYorkOffset(dayStart + 12 * HOUR);
        hit = [dayStart + 9.5 * HOUR - offset, dayStart + 16 * HOUR - offset];
        nyseDays.set(key, hit);
      }
      return hit;
    }
  }
}

/** The parts of `[from, to)` in which `session` trades, oldest first. */
export function tradingParts(session: TradingSession, from: number, to: number): [number, number][] {
  const parts: [number, number][] = [];
  if (to <= from) return parts;
  if (session === 'always') return [[from, to]];
  for (let day = Math.floor(from / DAY) * DAY; day < to; day += DAY) {
    const s = sessionOfDay(session, day);
    if (s === null) continue;
    const a = s[0] > from ? s[0] : from;
    const b = s[1] < to ? s[1] : to;
    if (a < b) parts.push([a, b]);
  }
  return parts;
}

/**
 * The time of the last trade at or before `t`: `t` itself while the session is open, else the
 * close of the latest session before it (the price stands still while a market is closed).
 */
export function lastTradedAt(session: TradingSession, t: number): number {
  if (session === 'always') return t;
  for (let day = Math.floor(t / DAY) * DAY; ; day -= DAY) {
    const s = sessionOfDay(session, day);
    if (s === null) continue;
    if (t >= s[1]) return s[1];
    if (t >= s[0]) return t;
  }
}
