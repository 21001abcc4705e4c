/**
 * Candles as struct-of-arrays: one `Float64Array` column per field, all the same length,
 * oldest first. `time` is the candle's open time in milliseconds since the Unix epoch (UTC).
 */
export interface Candles {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** One candle, the unit a streaming indicator's `update` takes. */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The columns an indicator reads; any numeric array-like works (`Float64Array`, `number[]`). */
export interface CandleColumns {
  time?: ArrayLike<number>;
  open?: ArrayLike<number>;
  high?: ArrayLike<number>;
  low?: ArrayLike<number>;
  close?: ArrayLike<number>;
  volume?: ArrayLike<number>;
}

/** High, low and close columns. */
export interface HLC {
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
}

/** High and low columns. */
export interface HL {
  high: ArrayLike<number>;
  low: ArrayLike<number>;
}

/** High, low, close and volume columns. */
export interface HLCV extends HLC {
  volume: ArrayLike<number>;
}

/** Close and volume columns. */
export interface CV {
  close: ArrayLike<number>;
  volume: ArrayLike<number>;
}

/** The fields of a candle that a streaming candle indicator reads. */
export type CandleLike = Partial<Candle>;
