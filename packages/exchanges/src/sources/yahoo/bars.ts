/**
 * Yahoo bars to marketlens candles. Yahoo stamps bars in the exchange's terms: a US stock's daily
 * bar at the 09:30 New York open (13:30 or 14:30 UTC), an fx daily bar at London midnight (23:00 UTC
 * in summer), hourly bars of a session opening at 09:30 at half past. It also often sends the live
 * price as a separate last row stamped with the time of the trade. Here every bar is given the
 * marketlens bucket it opens in (days at 00:00 UTC of the exchange's date, weeks on Monday, shorter
 * candles on the UTC grid of {@link candleOpenTime}), and rows sharing a bucket are merged.
 */
import type { Candles } from '@marketlens/core';
import { candleOpenTime, type Timeframe } from '../../ports.js';
import { candlesOf } from '../repair.js';
import type { YahooInterval } from './client.js';
import type { ChartMeta, ChartResult } from './schema.js';

/** One bar, times in ms UTC. */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

const DAY_MS = 86_400_000;

/** Length of each intraday interval. */
export const INTRADAY_MS: Readonly<Partial<Record<YahooInterval, number>>> = {
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '60m': 3_600_000,
};

/**
 * The bars of a chart, oldest first. A row with a null or non-finite price is a gap (Yahoo sends
 * one for every slot without trades in some series) and is dropped; a null volume with prices is
 * read as 0, as indices and fx report no volume.
 */
export function chartBars(result: ChartResult): Bar[] {
  const times = result.timestamp ?? [];
  const q = result.indicators.quote[0];
  if (q === undefined) return [];
  const bars: Bar[] = [];
  for (let i = 0; i < times.length; i++) {
    const bar = {
      time: times[i] * 1000,
      open: q.open?.[i] ?? Number.NaN,
      high: q.high?.[i] ?? Number.NaN,
      low: q.low?.[i] ?? Number.NaN,
      close: q.close?.[i] ?? Number.NaN,
      volume: q.volume?.[i] ?? 0,
    };
    if (Object.values(bar).every(Number.isFinite)) bars.push(bar);
  }
  return bars.sort((a, b) => a.time - b.time);
}

const dayFormats = new Map<string, Intl.DateTimeFormat | null>();

function dayFormat(zone: string): Intl.DateTimeFormat | null {
  let format = dayFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' });
    } catch {
      format = null; // an unknown zone name: fall back to the offset
    }
    dayFormats.set(zone, format);
  }
  return format;
}

/**
 * The exchange's calendar date of an instant, as that date's 00:00 UTC. Read in the IANA zone when
 * Yahoo names one (daylight saving moves London midnight to 23:00 UTC, so a fixed offset would date
 * summer fx bars a day early); otherwise with the current offset `gmtoffset` (seconds).
 */
export function localDay(time: number, meta: Pick<ChartMeta, 'exchangeTimezoneName' | 'gmtoffset'>): number {
  const zone = meta.exchangeTimezoneName;
  const format = zone === null || zone === undefined ? null : dayFormat(zone);
  if (format !== null) {
    const parts = format.formatToParts(time);
    const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
    const [y, m, d] = [part('year'), part('month'), part('day')];
    if (Number.isFinite(y + m + d)) return Date.UTC(y, m - 1, d);
  }
  const offset = (meta.gmtoffset ?? 0) * 1000;
  return Math.floor((time + offset) / DAY_MS) * DAY_MS;
}

/**
 * True when Yahoo's weekly bars open on Mondays (of the exchange's calendar), as marketlens's weeks
 * do. The last bar is not judged: it may be the live row, stamped with the day of the last trade.
 */
export function weeksOnMonday(bars: readonly Bar[], meta: ChartMeta): boolean {
  return bars.slice(0, -1).every((b) => {
    const day = localDay(b.time, meta);
    return candleOpenTime('w1', day) === day;
  });
}

/** Where a bar of `interval` starts on Yahoo's own grid (the live row moves to the bar it belongs to). */
function slotOf(bars: readonly Bar[], interval: YahooInterval, meta: ChartMeta): (time: number) => number {
  const step = INTRADAY_MS[interval];
  if (step === undefined) return (time) => localDay(time, meta);
  // Intraday bars are laid from the session's open (09:30 for New York, 09:15 for Mumbai).
  const start = meta.currentTradingPeriod?.regular.start;
  const origin = start !== undefined ? start * 1000 : (bars[0]?.time ?? 0);
  const anchor = ((origin % step) + step) % step;
  return (time) => anchor + Math.floor((time - anchor) / step) * step;
}

/**
 * Places Yahoo bars on marketlens candles of `timeframe`: each bar goes to the candle it opens in
 * and bars of one candle are merged (first open, highest high, lowest low, last close, summed
 * volume). Two daily rows of one date are Yahoo repeating the live day; the later one is kept.
 * A bar that opens on the half hour goes to the hour before: an `h1` candle of a session opening at
 * 09:30 holds 09:30 to 10:30, so hourly history reaches back as far as Yahoo's `60m` bars do.
 */
export function toCandleBars(
  bars: readonly Bar[],
  interval: YahooInterval,
  timeframe: Timeframe,
  meta: ChartMeta,
): Bar[] {
  const slot = slotOf(bars, interval, meta);
  const slotted: Bar[] = [];
  for (const bar of bars) {
    const at = slot(bar.time);
    const previous = slotted.at(-1);
    // Yahoo repeats the live day as a second row of the same date, with the newer numbers.
    if (interval === '1d' && previous !== undefined && previous.time === at)
      slotted[slotted.length - 1] = { ...bar, time: at };
    else slotted.push({ ...bar, time: at });
  }
  const out: Bar[] = [];
  for (const bar of slotted) {
    const bucket = candleOpenTime(timeframe, bar.time);
    const previous = out.at(-1);
    if (previous !== undefined && previous.time === bucket) {
      previous.high = Math.max(previous.high, bar.high);
      previous.low = Math.min(previous.low, bar.low);
      previous.close = bar.close;
      previous.volume += bar.volume;
    } else out.push({ ...bar, time: bucket });
  }
  return out;
}

/** Bars as struct-of-arrays candles. */
export function toCandles(bars: readonly Bar[]): Candles {
  return candlesOf(bars);
}
