import { asOfIndex, type ContextInput, contextOf, orNull } from './context.js';
import { volumeStats } from './signal.js';

/** The latest indicator values of a series (the `indicators` block of an analysis). */
export interface IndicatorSnapshot {
  close: number;
  /** Change of the as-of bar in percent (`100 * (close / previous close - 1)`). */
  change_pct: number | null;
  volume: number;
  /** Volume z-score against the previous 20 bars. */
  volume_z: number | null;
  /** Volume over the mean of the previous 20 bars. */
  volume_ratio: number | null;
  sma_20: number | null;
  sma_50: number | null;
  sma_200: number | null;
  ema_20: number | null;
  ema_50: number | null;
  ema_200: number | null;
  rsi_14: number | null;
  macd: number | null;
  macd_signal: number | null;
  macd_histogram: number | null;
  stoch_k: number | null;
  stoch_d: number | null;
  adx_14: number | null;
  plus_di_14: number | null;
  minus_di_14: number | null;
  atr_14: number | null;
  /** ATR(14) in percent of the close. */
  atr_pct: number | null;
  cci_20: number | null;
  williams_r_14: number | null;
}

/** Options of {@link indicatorSnapshot}. */
export interface SnapshotOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
}

/**
 * The latest values of the indicators the analysis reads, at bar `asOf`: SMA 20/50/200,
 * EMA 20/50/200, RSI(14), MACD(12, 26, 9), slow Stoch(14, 3, 3), ADX and DIs (14,
 * TradingView's DMI convention), ATR(14) and its percent of the close, CCI(20) of the close,
 * Williams %R(14), and the bar's change and volume statistics. Null during each warm-up.
 * @throws InputError on bad candles or `asOf`.
 */
export function indicatorSnapshot(input: ContextInput, options?: SnapshotOptions): IndicatorSnapshot {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const { close, volume } = ctx.candles;
  const c = close[i];
  const prev = i > 0 ? close[i - 1] : 0;
  const vs = volumeStats(ctx, i);
  const macd = ctx.macd();
  const st = ctx.stoch();
  const dmi = ctx.dmi(14);
  const atr = ctx.atr(14)[i];
  return {
    close: c,
    change_pct: prev !== 0 ? 100 * (c / prev - 1) : null,
    volume: volume[i],
    volume_z: vs.z,
    volume_ratio: vs.ratio,
    sma_20: orNull(ctx.sma(20)[i]),
    sma_50: orNull(ctx.sma(50)[i]),
    sma_200: orNull(ctx.sma(200)[i]),
    ema_20: orNull(ctx.ema(20)[i]),
    ema_50: orNull(ctx.ema(50)[i]),
    ema_200: orNull(ctx.ema(200)[i]),
    rsi_14: orNull(ctx.rsi(14)[i]),
    macd: orNull(macd.macd[i]),
    macd_signal: orNull(macd.signal[i]),
    macd_histogram: orNull(macd.histogram[i]),
    stoch_k: orNull(st.k[i]),
    stoch_d: orNull(st.d[i]),
    adx_14: orNull(dmi.adx[i]),
    plus_di_14: orNull(dmi.plusDI[i]),
    minus_di_14: orNull(dmi.minusDI[i]),
    atr_14: orNull(atr),
    atr_pct: c !== 0 ? orNull((100 * atr) / Math.abs(c)) : null,
    cci_20: orNull(ctx.cciClose(20)[i]),
    williams_r_14: orNull(ctx.willr(14)[i]),
  };
}
