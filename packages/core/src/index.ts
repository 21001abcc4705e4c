/**
 * @marketlens/core: exact, fast technical-analysis kernels (batch and streaming) and the
 * marketlens analysis engine. Pure and synchronous: candles in, numbers out.
 */

export { InputError, type InputErrorCode } from './errors.js';
export { EMA, type EmaOptions, ema } from './indicators/ema.js';
export type { WithLookback } from './indicators/internal/define.js';
export { RSI, type RsiOptions, rsi } from './indicators/rsi.js';
export { SMA, type SmaOptions, sma } from './indicators/sma.js';
export type { Stream } from './indicators/stream.js';
export type { Candle, CandleColumns, CandleLike, Candles, CV, HL, HLC, HLCV } from './types.js';
