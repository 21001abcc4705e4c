import { describe, expect, it } from 'vitest';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../../core/src/testing/shared-data.js';

/** One real series by its name in `loadSharedSeries`. */
function shared(name: string) {
  const found = loadSharedSeries().find((s) => s.name === name);
  if (found === undefined) throw new Error(`no shared series ${name}`);
  return found.candles;
}

import {
  calendarOf,
  countGaps,
  describeSpacing,
  mayTrade,
  measuredSpacing,
  seenUntil,
  sessionTemplate,
} from './calendar.js';

const M = 60_000;
const H = 3_600_000;
const D = 86_400_000;
/** Monday 2024-01-08 00:00 UTC. */
const MON = Date.UTC(2024, 0, 8);

/** Weekday dates from `from` for `days` calendar days, skipping the dates listed. */
function weekdays(from: number, days: number, skip: readonly number[] = []): number[] {
  const out: number[] = [];
  for (let k = 0; k < days; k++) {
    const t = from + k * D;
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6 && !skip.includes(t)) out.push(t);
  }
  return out;
}

/** A stock's hourly candles: 14:00 to 20:00 UTC on weekdays. */
function sessionHours(from: number, days: number): number[] {
  return weekdays(from, days).flatMap((d) => [14, 15, 16, 17, 18, 19, 20].map((h) => d + h * H));
}

describe('market calendars', () => {
  it('maps asset classes to calendars', () => {
    expect(calendarOf('coins')).toBe('always');
    expect(calendarOf('external')).toBe('always');
    expect(calendarOf('fx')).toBe('fx');
    expect(calendarOf('stocks')).toBe('sessions');
    expect(calendarOf(undefined)).toBe('always');
  });

  it('counts no gap over a stock weekend or night, one or two holidays; counts holes inside a session', () => {
    // Four weeks of weekdays: weekends are no gaps.
    expect(countGaps(weekdays(MON, 28), D, 'sessions')).toBe(0);
    // Around the clock, the same dates miss every weekend day: 2 a week.
    expect(countGaps(weekdays(MON, 28), D, 'always')).toBe(6);
    // A one-day holiday (Wednesday) and a two-day one (Thursday, Friday) are no gaps ...
    expect(countGaps(weekdays(MON, 28, [MON + 2 * D, MON + 10 * D, MON + 11 * D]), D, 'sessions')).toBe(0);
    // ... three weekdays without a candle are.
    expect(countGaps(weekdays(MON, 28, [MON + 1 * D, MON + 2 * D, MON + 3 * D]), D, 'sessions')).toBe(3);
    // Intraday: nights and weekends are no gaps; a missing hour inside a session is one.
    const hours = sessionHours(MON, 14);
    expect(countGaps(hours, H, 'sessions')).toBe(0);
    expect(countGaps(hours, H, 'always')).toBeGreaterThan(200);
    const holed = hours.filter((t) => t !== MON + D + 16 * H);
    expect(countGaps(holed, H, 'sessions')).toBe(1);
    // A whole missing week (five weekdays) counts as five median days of seven candles.
    const week = hours.filter((t) => t < MON + 7 * D || t >= MON + 14 * D);
    const longer = [...week, ...sessionHours(MON + 14 * D, 7)].sort((a, b) => a - b);
    expect(countGaps(longer, H, 'sessions')).toBe(35);
  });

  it('counts fx weekends as closed and every missing crypto candle as a gap', () => {
    // Fx hours from Sunday 22:00 to Friday 21:00: the weekend between is no gap.
    const fx: number[] = [];
    for (let t = MON - 2 * H; t < MON + 5 * D - 3 * H; t += H) fx.push(t);
    for (let t = MON + 7 * D - 2 * H; t < MON + 12 * D - 3 * H; t += H) fx.push(t);
    expect(countGaps(fx, H, 'fx')).toBe(0);
    expect(countGaps(fx, H, 'always')).toBe(49);
    // A missing Wednesday hour is a gap in both.
    const holed = fx.filter((t) => t !== MON + 2 * D + 10 * H);
    expect(countGaps(holed, H, 'fx')).toBe(1);
    expect(countGaps([0, 5 * M, 20 * M], 5 * M, 'always')).toBe(2);
  });

  it('says up to when a stopped series has seen the market', () => {
    const friday = MON + 4 * D;
    // A stock's daily candles that end on a Friday have seen the market until Monday.
    expect(seenUntil(weekdays(MON, 5), D, 'sessions')).toBe(MON + 7 * D);
    // Ending on a Monday: until Tuesday.
    expect(seenUntil([...weekdays(MON, 5), MON + 7 * D], D, 'sessions')).toBe(MON + 8 * D);
    // Crypto: the end of the last candle.
    expect(seenUntil([friday], D, 'always')).toBe(friday + D);
    // Hourly stock candles over 20+ sessions: after the last session hour, the next day's first.
    const hours = sessionHours(MON, 35);
    const template = sessionTemplate(hours, H);
    expect(template).toEqual({ first: 14 * H, last: 20 * H });
    const lastDay = Math.floor(hours[hours.length - 1] / D) * D;
    expect(new Date(lastDay).getUTCDay()).toBe(5);
    expect(seenUntil(hours, H, 'sessions')).toBe(lastDay + 3 * D + 14 * H);
    // Cut at 15:00: the 16:00 hour may still come.
    const cut = hours.filter((t) => t <= lastDay + 15 * H);
    expect(seenUntil(cut, H, 'sessions')).toBe(lastDay + 16 * H);
    // With fewer than 20 sessions no template is read: the night may trade.
    expect(sessionTemplate(sessionHours(MON, 14), H)).toBeNull();
    expect(seenUntil(sessionHours(MON, 5), H, 'sessions')).toBe(MON + 4 * D + 21 * H);
    expect(seenUntil([], H, 'always')).toBeNull();
  });

  it('never calls a weekday session shut', () => {
    // Monday 00:00 to Friday 21:00 UTC, the earliest fx close.
    for (let t = MON; t < MON + 4 * D + 21 * H; t += H) {
      expect(mayTrade('sessions', t, H)).toBe(true);
      expect(mayTrade('fx', t, H)).toBe(true);
    }
    expect(mayTrade('sessions', MON - 2 * D + 12 * H, H)).toBe(false); // Saturday noon
    expect(mayTrade('sessions', MON - D + 22 * H, H)).toBe(true); // Sunday 22:00: Pacific Monday
    expect(mayTrade('fx', MON - 3 * D + 23 * H, H)).toBe(false); // Friday 23:00
    expect(mayTrade('fx', MON - 3 * D + 21 * H, H)).toBe(true); // Friday 21:00: winter fx still open
    expect(mayTrade('sessions', MON - D, D)).toBe(false); // a Sunday daily candle
    expect(mayTrade('fx', MON - 2 * D, D)).toBe(false); // a Saturday daily candle
  });

  it('measures and names a spacing', () => {
    expect(measuredSpacing([0, M, 2 * M, 10 * M, 11 * M])).toBe(M);
    expect(measuredSpacing(weekdays(MON, 60))).toBe(D);
    expect(measuredSpacing([5])).toBeNull();
    expect(describeSpacing(M)).toBe('1 minute');
    expect(describeSpacing(5 * M)).toBe('5 minutes');
    expect(describeSpacing(4 * H)).toBe('4 hours');
    expect(describeSpacing(7 * D)).toBe('7 days');
  });
});

describe.skipIf(!sharedDataDir)(`calendars on the real series (skips when ${sharedDataSkipReason})`, () => {
  it('finds no gap over the weekends and holidays of NVDA and ORCL, only the four days after 9/11', () => {
    for (const name of ['nvda-d1', 'orcl-d1']) {
      const candles = shared(name);
      // Thousands of weekend days around the clock ...
      expect(countGaps(candles.time, D, 'always')).toBeGreaterThan(1500);
      // ... none on a stock's calendar but the market's closure of 2001-09-11 to 09-14.
      expect(countGaps(candles.time, D, 'sessions')).toBe(4);
      expect(measuredSpacing(candles.time)).toBe(D);
    }
  });

  it('reads the index session from its 5-minute candles and finds no night gaps', () => {
    const candles = shared('index-m5');
    expect(measuredSpacing(candles.time)).toBe(5 * M);
    expect(countGaps(candles.time, 5 * M, 'always')).toBeGreaterThan(5000);
    expect(countGaps(candles.time, 5 * M, 'sessions')).toBeLessThan(10);
  });
});
