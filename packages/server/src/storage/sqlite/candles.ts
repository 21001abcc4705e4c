import type { Candles } from '@marketlens/core';
import type { CandleStore, MarketType, SeriesKey, StoredSeries } from '@marketlens/exchanges';
import type Database from 'better-sqlite3';

type DB = Database.Database;

const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** Six Float64 columns back to back: the stored form of a series. */
export function encodeCandles(c: Candles): Buffer {
  const n = c.time.length;
  const out = new Float64Array(n * 6);
  for (let k = 0; k < COLUMNS.length; k++) out.set(c[COLUMNS[k]], k * n);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** The inverse of {@link encodeCandles} (one copy: SQLite's buffer need not be 8-byte aligned). */
export function decodeCandles(blob: Buffer, n: number): Candles {
  const all = new Float64Array(n * 6);
  new Uint8Array(all.buffer).set(blob.subarray(0, n * 48));
  return {
    time: all.subarray(0, n),
    open: all.subarray(n, 2 * n),
    high: all.subarray(2 * n, 3 * n),
    low: all.subarray(3 * n, 4 * n),
    close: all.subarray(4 * n, 5 * n),
    volume: all.subarray(5 * n, 6 * n),
  };
}

interface Row {
  venue: string;
  pair: string;
  market_type: MarketType;
  rows: number;
  candles: Buffer;
  complete: number;
  fetched_at: number;
  used_at: number;
}

/** How a {@link sqliteCandleStore} is bounded. */
export interface CandleStoreOptions {
  /** Bytes of candles kept at most (default 1 GiB); least recently used series go first. */
  maxBytes?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
}

/**
 * The candle store in SQLite: a restart keeps it. A read marks its series used (at most once a
 * minute per series, so that reads do not become writes); a write evicts the least recently used
 * series while the stored bytes exceed the bound.
 */
export function sqliteCandleStore(db: DB, options: CandleStoreOptions = {}): CandleStore & { bytes(): number } {
  const maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const get = db.prepare(
    'SELECT venue, pair, market_type, rows, candles, complete, fetched_at, used_at FROM candle_series WHERE source = ? AND instrument = ? AND timeframe = ?',
  );
  const touch = db.prepare(
    'UPDATE candle_series SET used_at = ? WHERE source = ? AND instrument = ? AND timeframe = ?',
  );
  const put = db.prepare(`
    INSERT INTO candle_series (source, instrument, timeframe, venue, pair, market_type, rows, candles, bytes, complete, fetched_at, used_at)
    VALUES (@source, @instrument, @timeframe, @venue, @pair, @market_type, @rows, @candles, @bytes, @complete, @fetched_at, @used_at)
    ON CONFLICT (source, instrument, timeframe) DO UPDATE SET
      venue = excluded.venue, pair = excluded.pair, market_type = excluded.market_type, rows = excluded.rows,
      candles = excluded.candles, bytes = excluded.bytes, complete = excluded.complete,
      fetched_at = excluded.fetched_at, used_at = excluded.used_at`);
  const total = db.prepare('SELECT COALESCE(SUM(bytes), 0) AS b FROM candle_series');
  const oldest = db.prepare(
    'SELECT source, instrument, timeframe, bytes FROM candle_series WHERE NOT (source = ? AND instrument = ? AND timeframe = ?) ORDER BY used_at LIMIT 64',
  );
  const remove = db.prepare('DELETE FROM candle_series WHERE source = ? AND instrument = ? AND timeframe = ?');
  let bytes = (total.get() as { b: number }).b;

  const write = db.transaction((key: SeriesKey, series: StoredSeries, t: number) => {
    const previous = get.get(key.source, key.instrument, key.timeframe) as Row | undefined;
    const blob = encodeCandles(series.candles);
    put.run({
      source: key.source,
      instrument: key.instrument,
      timeframe: key.timeframe,
      venue: series.venue,
      pair: series.pair,
      market_type: series.market_type,
      rows: series.candles.time.length,
      candles: blob,
      bytes: blob.byteLength,
      complete: series.complete ? 1 : 0,
      fetched_at: series.fetched_at,
      used_at: t,
    });
    bytes += blob.byteLength - (previous === undefined ? 0 : previous.rows * 48);
    while (bytes > maxBytes) {
      const victims = oldest.all(key.source, key.instrument, key.timeframe) as (SeriesKey & { bytes: number })[];
      if (victims.length === 0) break;
      for (const v of victims) {
        if (bytes <= maxBytes) break;
        remove.run(v.source, v.instrument, v.timeframe);
        bytes -= v.bytes;
      }
    }
  });

  return {
    bytes: () => bytes,
    async get(key) {
      const row = get.get(key.source, key.instrument, key.timeframe) as Row | undefined;
      if (row === undefined) return null;
      const t = now();
      if (t - row.used_at > 60_000) touch.run(t, key.source, key.instrument, key.timeframe);
      return {
        venue: row.venue,
        pair: row.pair,
        market_type: row.market_type,
        candles: decodeCandles(row.candles, row.rows),
        fetched_at: row.fetched_at,
        complete: row.complete === 1,
      };
    },
    async put(key, series) {
      write(key, series, now());
    },
  };
}
