/** The candle store: candles of the real market sources, one row per series, bounded in bytes. */
import type { Candles } from '@marketlens/core';
import type { CandleStore, SeriesKey, StoredSeries } from '@marketlens/exchanges';
import { type Db, lockKey, type Sql } from './query.js';

const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** Six Float64 columns back to back: the stored form of a series. */
export function encodeCandles(c: Candles): Buffer {
  const n = c.time.length;
  const out = new Float64Array(n * 6);
  for (let k = 0; k < COLUMNS.length; k++) out.set(c[COLUMNS[k]], k * n);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** The inverse of {@link encodeCandles} (one copy: the driver's buffer need not be 8-byte aligned). */
export function decodeCandles(blob: Uint8Array, n: number): Candles {
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

/** How a candle store is bounded. */
export interface CandleStoreOptions {
  /** Bytes of candles kept at most (default 1 GiB); least recently used series go first. */
  maxBytes?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
}

/** The bytes a candle store holds, read when it opens. */
export async function storedCandleBytes(db: Db): Promise<number> {
  const { b } = await db
    .selectFrom('candle_series')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.val(0)).as('b'))
    .executeTakeFirstOrThrow();
  return Number(b);
}

const whereKey = (key: SeriesKey) => ({ source: key.source, instrument: key.instrument, timeframe: key.timeframe });

/**
 * The candle store: a restart keeps it. A read marks its series used (at most once a minute per
 * series, so that reads do not become writes); a write evicts the least recently used series while
 * the stored bytes exceed the bound. `initialBytes` is what the table holds when the store opens;
 * the count then follows this process's writes (several instances on one PostgreSQL database each
 * bound their own view, and every write re-reads the total there).
 */
export function sqlCandleStore(
  s: Sql,
  initialBytes: number,
  options: CandleStoreOptions = {},
): CandleStore & { bytes(): number } {
  const { db } = s;
  const maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  const now = options.now ?? Date.now;
  let bytes = initialBytes;
  const row = (q: Db, key: SeriesKey) => {
    const k = whereKey(key);
    return q
      .selectFrom('candle_series')
      .select(['venue', 'pair', 'market_type', 'rows', 'candles', 'complete', 'fetched_at', 'used_at'])
      .where('source', '=', k.source)
      .where('instrument', '=', k.instrument)
      .where('timeframe', '=', k.timeframe)
      .executeTakeFirst();
  };

  const write = (key: SeriesKey, series: StoredSeries, t: number) =>
    db.transaction().execute(async (trx) => {
      const k = whereKey(key);
      if (s.engine === 'postgres') {
        // Writers of one database take turns, so the total each reads is exact.
        await lockKey(s, trx, 'candle_series');
        bytes = await storedCandleBytes(trx);
      }
      const previous = await trx
        .selectFrom('candle_series')
        .select('bytes')
        .where('source', '=', k.source)
        .where('instrument', '=', k.instrument)
        .where('timeframe', '=', k.timeframe)
        .executeTakeFirst();
      const blob = encodeCandles(series.candles);
      const values = {
        venue: series.venue,
        pair: series.pair,
        market_type: series.market_type,
        rows: series.candles.time.length,
        candles: blob,
        bytes: blob.byteLength,
        complete: series.complete ? 1 : 0,
        fetched_at: series.fetched_at,
        used_at: t,
      };
      await trx
        .insertInto('candle_series')
        .values({ ...k, ...values })
        .onConflict((oc) => oc.columns(['source', 'instrument', 'timeframe']).doUpdateSet(values))
        .execute();
      let total = bytes + blob.byteLength - (previous === undefined ? 0 : Number(previous.bytes));
      while (total > maxBytes) {
        const victims = await trx
          .selectFrom('candle_series')
          .select(['source', 'instrument', 'timeframe', 'bytes'])
          .where((eb) =>
            eb.not(
              eb.and([
                eb('source', '=', k.source),
                eb('instrument', '=', k.instrument),
                eb('timeframe', '=', k.timeframe),
              ]),
            ),
          )
          .orderBy('used_at')
          .limit(64)
          .execute();
        if (victims.length === 0) break;
        for (const v of victims) {
          if (total <= maxBytes) break;
          await trx
            .deleteFrom('candle_series')
            .where('source', '=', v.source)
            .where('instrument', '=', v.instrument)
            .where('timeframe', '=', v.timeframe)
            .execute();
          total -= Number(v.bytes);
        }
      }
      bytes = total;
    });

  return {
    bytes: () => bytes,
    async get(key) {
      const r = await row(db, key);
      if (r === undefined) return null;
      const t = now();
      if (t - r.used_at > 60_000) {
        const k = whereKey(key);
        await db
          .updateTable('candle_series')
          .set({ used_at: t })
          .where('source', '=', k.source)
          .where('instrument', '=', k.instrument)
          .where('timeframe', '=', k.timeframe)
          .execute();
      }
      return {
        venue: r.venue,
        pair: r.pair,
        market_type: r.market_type,
        candles: decodeCandles(r.candles, r.rows),
        fetched_at: r.fetched_at,
        complete: r.complete === 1,
      };
    },
    async put(key, series) {
      await write(key, series, now());
    },
  };
}
