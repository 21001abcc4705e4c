import type { Candles } from '@marketlens/core';
import { candleOpenTime, TIMEFRAME_MS, type Timeframe } from '../ports.js';
import { candlesOf } from '../sources/repair.js';

/** ccxt's name of each marketlens timeframe. */
export const CCXT_TIMEFRAME: Readonly<Record<Timeframe, string>> = {
  m5: '5m',
  m15: '15m',
  m30: '30m',
  h1: '1h',
  h4: '4h',
  d1: '1d',
  w1: '1w',
};

/** The timeframe a missing or misaligned one is built from (`h4` from `h1`, `w1` from `d1`, ...). */
const BUILT_FROM: Readonly<Record<Timeframe, Timeframe | null>> = {
  m5: null,
  m15: 'm5',
  m30: 'm15',
  h1: 'm30',
  h4: 'h1',
  d1: 'h1',
  w1: 'd1',
};

/** One OHLCV row as ccxt returns it: `[time, open, high, low, close, volume]` (entries may be undefined). */
export type OhlcvRow = readonly (number | undefined)[];

/**
 * Fetches rows of a native ccxt timeframe opened in `[since, until]`, at most `limit` of them.
 * `until` is the last millisecond of the last candle wanted, so venues that answer with the newest
 * candles of a range (Bybit) and venues that read forward from `since` return the same rows.
 */
export type FetchRows = (
  ccxtTimeframe: string,
  since: number,
  limit: number,
  until: number,
) => Promise<readonly OhlcvRow[]>;

/** What {@link readCandles} needs. */
export interface CandleQuery {
  timeframe: Timeframe;
  limit: number;
  /** Exclusive upper bound on open times; undefined: up to and including the live candle at `now`. */
  end: number | undefined;
  now: number;
  /** ccxt timeframes the venue serves (`exchange.timeframes`). */
  supported: Readonly<Record<string, unknown>>;
  /** The most rows one venue call returns. */
  pageSize: number;
  /** Cap on venue calls for one read. */
  maxRequests?: number;
}

interface Row {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

function toRow(r: OhlcvRow): Row | null {
  const [time, open, high, low, close, volume] = r;
  if (time === undefined || open === undefined || high === undefined || low === undefined || close === undefined)
    return null;
  const row = { time, open, high, low, close, volume: volume ?? 0 };
  return Object.values(row).every(Number.isFinite) ? row : null;
}

/** Open time of the last candle served: the live one at `now`, or the last one opened before `end`. */
function lastOpen(timeframe: Timeframe, end: number | undefined, now: number): number {
  return candleOpenTime(timeframe, end === undefined ? now : end - 1);
}

/** Reads `[first, last]` open times of a native timeframe, paging forward. */
async function readNative(
  fetch: FetchRows,
  tf: Timeframe,
  first: number,
  last: number,
  q: CandleQuery,
): Promise<Row[]> {
  const step = TIMEFRAME_MS[tf];
  const byTime = new Map<number, Row>();
  let since = first;
  const maxRequests = q.maxRequests ?? 20;
  for (let i = 0; i < maxRequests && since <= last; i++) {
    const want = Math.min(q.pageSize, Math.floor((last - since) / step) + 1);
    const rows = await fetch(CCXT_TIMEFRAME[tf], since, want, since + want * step - 1);
    let newest = -Infinity;
    for (const raw of rows) {
      const row = toRow(raw);
      if (row === null) continue;
      newest = Math.max(newest, row.time);
      if (row.time >= first && row.time <= last) byTime.set(row.time, row);
    }
    // An empty page, or one that did not move forward, ends the read (the venue has no more).
    if (newest < since) break;
    since = newest + step;
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/** Folds candles of a shorter timeframe into `tf` buckets; a leading bucket missing its start is dropped. */
export function aggregate(rows: readonly Row[], tf: Timeframe): Row[] {
  const out: Row[] = [];
  let current: Row | null = null;
  let partial: number | null = null;
  for (const r of rows) {
    const bucket = candleOpenTime(tf, r.time);
    if (bucket === partial) continue;
    if (current !== null && current.time === bucket) {
      current.high = Math.max(current.high, r.high);
      current.low = Math.min(current.low, r.low);
      current.close = r.close;
      current.volume += r.volume;
      continue;
    }
    if (current !== null) out.push(current);
    if (current === null && partial === null && r === rows[0] && r.time !== bucket) {
      partial = bucket;
      continue;
    }
    current = { ...r, time: bucket };
  }
  if (current !== null) out.push(current);
  return out;
}

async function readTimeframe(fetch: FetchRows, tf: Timeframe, count: number, q: CandleQuery): Promise<Row[]> {
  const last = lastOpen(tf, q.end, q.now);
  const first = last - (count - 1) * TIMEFRAME_MS[tf];
  const base = BUILT_FROM[tf];
  if (CCXT_TIMEFRAME[tf] in q.supported) {
    const rows = await readNative(fetch, tf, first, last, q);
    // A venue whose buckets do not start where marketlens's do (weeks not on Monday, days not at
    // 00:00 UTC) is read one timeframe down and folded, so every venue's candles line up.
    if (base === null || rows.every((r) => candleOpenTime(tf, r.time) === r.time)) return rows;
  }
  if (base === null) return [];
  const ratio = Math.round(TIMEFRAME_MS[tf] / TIMEFRAME_MS[base]);
  const finer = await readTimeframe(fetch, base, (count + 1) * ratio, {
    ...q,
    end: q.end === undefined ? undefined : last + TIMEFRAME_MS[tf],
  });
  return aggregate(finer, tf).filter((r) => r.time >= first && r.time <= last);
}

/**
 * Reads the newest `limit` candles of a timeframe up to `end` (exclusive; default: including the
 * live candle). Pages forward through the venue; a timeframe the venue lacks (Coinbase has no `4h`
 * or `1w`) or buckets differently is built from the next shorter one. Oldest first.
 */
export async function readCandles(fetch: FetchRows, q: CandleQuery): Promise<Candles> {
  return candlesOf((await readTimeframe(fetch, q.timeframe, q.limit, q)).slice(-q.limit));
}
