import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reach } from '../../core/src/testing/reach.js';
import { type MarketCalendar, seenUntil } from './calendar.js';
import { splitSeries } from './closed.js';
import { type CandleSeries, TIMEFRAME_MS, type Timeframe } from './ports.js';
import { emptyCandles, foldCandles, sliceCandles } from './sources/repair.js';

const M = 60_000;
const H = 3_600_000;
const D = 86_400_000;

/** A native spacing and a longer timeframe it folds into (at most 300 native candles a bucket). */
const FOLDS: readonly (readonly [number, Timeframe])[] = [
  [M, 'm5'],
  [M, 'm15'],
  [M, 'h1'],
  [5 * M, 'm15'],
  [5 * M, 'h1'],
  [5 * M, 'h4'],
  [5 * M, 'd1'],
  [15 * M, 'h4'],
  [H, 'h4'],
  [H, 'd1'],
  [H, 'w1'],
  [D, 'w1'],
];

function weekday(t: number): number {
  return new Date(t).getUTCDay();
}

/**
 * Whether the generated market trades the slot `[t, t + step)`: crypto always; fx from Sunday
 * evening to Friday evening (21:00 or 22:00 UTC by season; daily candles on weekdays); stocks on
 * weekdays outside holidays, intraday within the session `[open, close)` of the day.
 */
interface GeneratedMarket {
  calendar: MarketCalendar;
  fxHour: number;
  open: number;
  close: number;
  holidays: ReadonlySet<number>;
}

function trades(m: GeneratedMarket, t: number, step: number): boolean {
  const wd = weekday(t);
  const tod = t % D;
  if (m.calendar === 'always') return true;
  if (m.calendar === 'fx') {
    if (step >= D) return wd !== 0 && wd !== 6;
    if (wd === 6) return false;
    if (wd === 5) return tod < m.fxHour * H;
    if (wd === 0) return tod >= m.fxHour * H;
    return true;
  }
  if (wd === 0 || wd === 6 || m.holidays.has(Math.floor(t / D))) return false;
  return step >= D || (tod >= m.open && tod + step <= m.close);
}

const draw = fc
  .record({
    fold: fc.constantFrom(...FOLDS),
    calendar: fc.constantFrom<MarketCalendar>('always', 'fx', 'sessions'),
    // A Monday in 2001..2030, then some hours into the week.
    week: fc.integer({ min: 1600, max: 3150 }),
    offsetHours: fc.integer({ min: 0, max: 167 }),
    fxHour: fc.constantFrom(21, 22),
    openHour: fc.integer({ min: 0, max: 14 }),
    sessionHours: fc.integer({ min: 2, max: 9 }),
    holidayDays: fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { maxLength: 6 }),
    holeRate: fc.constantFrom(0, 0.02, 0.05),
    holeSeed: fc.integer({ min: 1, max: 2 ** 30 }),
    // Buckets of the longer timeframe the whole series spans (around the clock; more with closed hours).
    buckets: fc.integer({ min: 40, max: 80 }),
    cutShare: fc.double({ min: 0.5, max: 1, noNaN: true }),
  })
  .map((d) => {
    const [step, timeframe] = d.fold;
    const firstMonday = Date.UTC(1970, 0, 5) + d.week * 7 * D;
    const start = Math.floor((firstMonday + d.offsetHours * H) / step) * step;
    const market: GeneratedMarket = {
      calendar: d.calendar,
      fxHour: d.fxHour,
      open: d.openHour * H,
      close: (d.openHour + d.sessionHours) * H,
      holidays: new Set(d.holidayDays.map((k) => Math.floor(start / D) + k)),
    };
    // The market's candles, a few missing at random inside its hours (a deterministic hash of the slot).
    const length = d.buckets * Math.round(TIMEFRAME_MS[timeframe] / step);
    const times: number[] = [];
    for (let t = start; times.length < length; t += step) {
      if (!trades(market, t, step)) continue;
      const h = Math.imul((t / step) ^ d.holeSeed, 2654435761) >>> 0;
      if (h / 2 ** 32 < d.holeRate) continue;
      times.push(t);
    }
    return { ...d, step, timeframe, times, cut: Math.max(1, Math.floor(d.cutShare * times.length)) };
  });

function series(times: readonly number[], timeframe: Timeframe, step: number, calendar: MarketCalendar) {
  const c = emptyCandles(times.length);
  times.forEach((t, i) => {
    c.time[i] = t;
    c.open[i] = 100 + (i % 17);
    c.high[i] = 120 + (i % 13);
    c.low[i] = 80 - (i % 11);
    c.close[i] = 100 + (i % 7);
    c.volume[i] = 1 + (i % 5);
  });
  const folded = foldCandles(c, timeframe);
  const seen = seenUntil(c.time, step, calendar);
  const out: CandleSeries = {
    asset_id: 'x',
    venue: 'files',
    pair: 'X',
    market_type: 'spot',
    timeframe,
    candles: folded,
    ...(seen === null ? {} : { seen_until: seen }),
  };
  return out;
}

describe('resampled candles', () => {
  it('never closes a bucket before its span: what a cut series calls closed, the whole series agrees with (property)', () => {
    const closedSome = reach('a cut series with closed buckets');
    const partialLive = reach('a cut inside a bucket, reported live');
    closedSome.assert(
      fc.property(draw, (d) => {
        const whole = series(d.times, d.timeframe, d.step, d.calendar);
        const cut = series(d.times.slice(0, d.cut), d.timeframe, d.step, d.calendar);
        // Any clock after the data: the file's own end decides.
        const { closed, live } = splitSeries(cut, Date.UTC(2100, 0, 1));
        const n = closed.time.length;
        closedSome.hitIf(n > 10);
        const span = TIMEFRAME_MS[d.timeframe];
        for (let i = 0; i < n; i++) {
          // Closed: its whole span has passed by what the data has seen ...
          expect(closed.time[i] + span).toBeLessThanOrEqual(cut.seen_until ?? Number.NaN);
          // ... and no later candle of the market changes it (no repainting).
          const k = whole.candles.time.indexOf(closed.time[i]);
          expect(k).toBeGreaterThanOrEqual(0);
          for (const col of ['open', 'high', 'low', 'close', 'volume'] as const) {
            expect(closed[col][i]).toBe(whole.candles[col][k]);
          }
        }
        const lastCut = cut.candles.time.length - 1;
        if (lastCut >= 0) {
          const t = cut.candles.time[lastCut];
          const k = whole.candles.time.indexOf(t);
          // The whole series holds more of the cut's last bucket: it must be live.
          if (k >= 0 && whole.candles.volume[k] > cut.candles.volume[lastCut]) {
            partialLive.hit();
            expect(live?.time).toBe(t);
          }
        }
      }),
      { numRuns: 300, also: [[partialLive, 0.6]] },
    );
  });

  it('a one-day week and a one-hour h4 bucket are live; whole ones close', () => {
    const monday = Date.UTC(2008, 8, 15);
    const days = [1, 2, 3, 4, 5, 8].map((k) => Date.UTC(2008, 8, 7 + k)); // Mon 8th .. Fri 12th, Mon 15th
    const w = series(days, 'w1', D, 'sessions');
    const atMonday = splitSeries(w, Date.now());
    expect(atMonday.live?.time).toBe(monday);
    expect(Array.from(atMonday.closed.time)).toEqual([Date.UTC(2008, 8, 8)]);
    const toFriday = series(days.slice(0, 5), 'w1', D, 'sessions');
    expect(splitSeries(toFriday, Date.now()).live).toBeNull();
    expect(splitSeries(toFriday, Date.now()).closed.time.length).toBe(1);
    // Crypto hours: 4 close an h4 bucket, a fifth opens a live one.
    const hours = [0, 1, 2, 3, 4].map((k) => Date.UTC(2021, 10, 1, k));
    const h4 = splitSeries(series(hours, 'h4', H, 'always'), Date.now());
    expect(h4.closed.time.length).toBe(1);
    expect(h4.live?.time).toBe(Date.UTC(2021, 10, 1, 4));
    // The clock still rules a live source: without seen_until the clock decides.
    const { seen_until: _seen, ...live } = series(hours, 'h4', H, 'always');
    expect(splitSeries(live, Date.UTC(2021, 10, 1, 6)).live?.time).toBe(Date.UTC(2021, 10, 1, 4));
    expect(
      splitSeries({ ...live, candles: sliceCandles(live.candles, 0, 1) }, Date.UTC(2021, 10, 1, 6)).live,
    ).toBeNull();
  });
});
