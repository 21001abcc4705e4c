import { asOfIndex, type ContextInput, contextOf, type IndicatorContext, ok, orNull } from './context.js';

/**
 * Candles the technical rating needs, counting the as-of candle: its longest votes (SMA and EMA
 * 200) are cast from the 200th candle. Below it an analysis publishes no rating
 * (`insufficient_data`), so a rating never stands on a handful of short-period votes.
 */
export const TECHNICAL_RATING_HISTORY = 200;

/** The five states of TradingView's Technical Ratings. */
export type RatingLabel = 'strong_sell' | 'sell' | 'neutral' | 'buy' | 'strong_buy';

/** One indicator's vote: +1 buy, 0 neutral, -1 sell; null when the indicator is still warming up. */
export interface RatingVote {
  name: string;
  /** The indicator value the vote read at the as-of bar (null during warm-up). */
  value: number | null;
  vote: -1 | 0 | 1 | null;
}

/** A group of votes (moving averages or oscillators) and its mean. */
export interface RatingGroup {
  /** Mean of the votes cast, in -1..1; null when none could be cast. */
  value: number | null;
  rating: RatingLabel | null;
  buy: number;
  neutral: number;
  sell: number;
  votes: RatingVote[];
}

/** TradingView-style technical rating: the wire object. */
export interface TechnicalRating {
  /** Mean of the two group values (of the one present), in -1..1; null when neither is. */
  value: number | null;
  rating: RatingLabel | null;
  moving_averages: RatingGroup;
  oscillators: RatingGroup;
  reason?: 'insufficient_data';
}

/** Options of {@link technicalRating}. */
export interface TechnicalRatingOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
}

/**
 * The label of a rating value, with TradingView's bounds: `strong_sell` below -0.5, `sell`
 * below -0.1, `buy` above 0.1, `strong_buy` above 0.5, `neutral` otherwise (bounds inclusive
 * on the neutral side, as the built-in's strict comparisons).
 */
export function ratingLabel(value: number): RatingLabel {
  if (value > 0.5) return 'strong_buy';
  if (value > 0.1) return 'buy';
  if (value < -0.5) return 'strong_sell';
  if (value < -0.1) return 'sell';
  return 'neutral';
}

type Vote = -1 | 0 | 1;

function rate(buy: boolean, sell: boolean): Vote {
  return buy ? 1 : sell ? -1 : 0;
}

/** Pine's `calcRatingMA(ma, src)`: +1 when the MA is below the price, -1 above, 0 equal. */
function rateMa(ma: number, price: number): Vote {
  return ma === price ? 0 : ma < price ? 1 : -1;
}

function group(votes: RatingVote[]): RatingGroup {
  let buy = 0;
  let sell = 0;
  let neutral = 0;
  for (const v of votes) {
    if (v.vote === 1) buy++;
    else if (v.vote === -1) sell++;
    else if (v.vote === 0) neutral++;
  }
  const cast = buy + sell + neutral;
  const value = cast > 0 ? (buy - sell) / cast : null;
  return { value, rating: value === null ? null : ratingLabel(value), buy, neutral, sell, votes };
}

function all(...xs: number[]): boolean {
  for (const x of xs) if (!ok(x)) return false;
  return true;
}

function maVotes(ctx: IndicatorContext, i: number): RatingVote[] {
  const close = ctx.candles.close;
  const c = close[i];
  const votes: RatingVote[] = [];
  const ma = (name: string, v: number): void => {
    votes.push({ name, value: orNull(v), vote: ok(v) ? rateMa(v, c) : null });
  };
  for (const p of [10, 20, 30, 50, 100, 200]) ma(`sma_${p}`, ctx.sma(p)[i]);
  for (const p of [10, 20, 30, 50, 100, 200]) ma(`ema_${p}`, ctx.ema(p)[i]);
  ma('hma_9', ctx.hma(9)[i]);
  ma('vwma_20', ctx.vwma(20)[i]);
  // Ichimoku lines as the built-in computes them: not displaced.
  const conv = (ctx.highest(9, i) + ctx.lowest(9, i)) / 2;
  const base = (ctx.highest(26, i) + ctx.lowest(26, i)) / 2;
  const lead1 = (conv + base) / 2;
  const lead2 = (ctx.highest(52, i) + ctx.lowest(52, i)) / 2;
  const prev = i > 0 ? close[i - 1] : Number.NaN;
  votes.push({
    name: 'ichimoku',
    value: orNull(base),
    vote: all(lead1, lead2, prev, base, conv)
      ? rate(
          lead1 > lead2 && c > lead1 && c < base && prev < conv && c > conv,
          lead2 > lead1 && c < lead2 && c > base && prev > conv && c < conv,
        )
      : null,
  });
  return votes;
}

function oscillatorVotes(ctx: IndicatorContext, i: number): RatingVote[] {
  const j = i - 1;
  const at = (col: Float64Array, k: number): number => (k >= 0 ? col[k] : Number.NaN);
  const votes: RatingVote[] = [];
  const push = (name: string, value: number, defined: boolean, buy: () => boolean, sell: () => boolean): void => {
    votes.push({ name, value: orNull(value), vote: defined ? rate(buy(), sell()) : null });
  };

  const r = ctx.rsi(14);
  const r0 = r[i];
  const r1 = at(r, j);
  push(
    'rsi_14',
    r0,
    all(r0, r1),
    () => r0 < 30 && r1 < r0,
    () => r0 > 70 && r1 > r0,
  );

  const st = ctx.stoch();
  const k0 = st.k[i];
  const d0 = st.d[i];
  const k1 = at(st.k, j);
  const d1 = at(st.d, j);
  push(
    'stoch_14_3_3',
    k0,
    all(k0, d0, k1, d1),
    () => k0 < 20 && d0 < 20 && k0 > d0 && k1 < d1,
    () => k0 > 80 && d0 > 80 && k0 < d0 && k1 > d1,
  );

  const cc = ctx.cciClose(20);
  const c0 = cc[i];
  const c1 = at(cc, j);
  push(
    'cci_20',
    c0,
    all(c0, c1),
    () => c0 < -100 && c0 > c1,
    () => c0 > 100 && c0 < c1,
  );

  const dm = ctx.dmi(14);
  const a0 = dm.adx[i];
  const p0 = dm.plusDI[i];
  const m0 = dm.minusDI[i];
  const p1 = at(dm.plusDI, j);
  const m1 = at(dm.minusDI, j);
  push(
    'adx_14',
    a0,
    all(a0, p0, m0, p1, m1),
    () => a0 > 20 && p1 < m1 && p0 > m0,
    () => a0 > 20 && p1 > m1 && p0 < m0,
  );

  const aoc = ctx.ao();
  const o0 = aoc[i];
  const o1 = at(aoc, j);
  const o2 = at(aoc, i - 2);
  // Pine comparisons with na are false: a missing ao[2] disables the saucer, not the cross.
  push(
    'ao',
    o0,
    all(o0, o1),
    () => (o0 > 0 && o1 <= 0) || (o0 > 0 && o1 > 0 && o0 > o1 && o2 > o1),
    () => (o0 < 0 && o1 >= 0) || (o0 < 0 && o1 < 0 && o0 < o1 && o2 < o1),
  );

  const mo = ctx.mom(10);
  const mo0 = mo[i];
  const mo1 = at(mo, j);
  push(
    'mom_10',
    mo0,
    all(mo0, mo1),
    () => mo0 > mo1,
    () => mo0 < mo1,
  );

  const md = ctx.macd();
  const macd0 = md.macd[i];
  const sig0 = md.signal[i];
  push(
    'macd_12_26_9',
    macd0,
    all(macd0, sig0),
    () => macd0 > sig0,
    () => macd0 < sig0,
  );

  const close = ctx.candles.close;
  const trend = ctx.ema(50)[i];
  const up = close[i] > trend;
  const down = close[i] < trend;
  const sr = ctx.stochRsi();
  const sk0 = sr.k[i];
  const sd0 = sr.d[i];
  const sk1 = at(sr.k, j);
  const sd1 = at(sr.d, j);
  push(
    'stoch_rsi_3_3_14_14',
    sk0,
    all(trend, sk0, sd0, sk1, sd1),
    () => down && sk0 < 20 && sd0 < 20 && sk0 > sd0 && sk1 < sd1,
    () => up && sk0 > 80 && sd0 > 80 && sk0 < sd0 && sk1 > sd1,
  );

  const wr = ctx.willr(14);
  const w0 = wr[i];
  const w1 = at(wr, j);
  push(
    'williams_r_14',
    w0,
    all(w0, w1),
    () => w0 < -80 && w0 > w1,
    () => w0 > -20 && w0 < w1,
  );

  const e13 = ctx.ema(13);
  const { high, low } = ctx.candles;
  const bull0 = high[i] - e13[i];
  const bear0 = low[i] - e13[i];
  const bull1 = j >= 0 ? high[j] - e13[j] : Number.NaN;
  const bear1 = j >= 0 ? low[j] - e13[j] : Number.NaN;
  push(
    'bull_bear_power_13',
    bull0 + bear0,
    all(trend, bull0, bear0, bull1, bear1),
    () => up && bear0 < 0 && bear0 > bear1,
    () => down && bull0 > 0 && bull0 < bull1,
  );

  const uo = ctx.ultOsc()[i];
  push(
    'uo_7_14_28',
    uo,
    ok(uo),
    () => uo > 70,
    () => uo < 30,
  );
  return votes;
}

/**
 * TradingView's Technical Ratings: 15 moving-average votes and 11 oscillator votes, each
 * +1 (buy), 0 (neutral) or -1 (sell); each group's value is the mean of the votes it could
 * cast, the total the mean of the two group values; labels by {@link ratingLabel} (strong
 * sell < -0.5 <= sell < -0.1 <= neutral <= 0.1 < buy <= 0.5 < strong buy).
 *
 * Source: TradingView Help Center, "Technical Ratings"
 * (https://www.tradingview.com/support/solutions/43000614331-technical-ratings/), and the
 * open-source Pine code of the "Technical Ratings" built-in (v4, `calcRatingAll()`), whose
 * rules are reproduced here ("[1]" is the previous bar):
 * - MAs (SMA and EMA 10, 20, 30, 50, 100, 200; HMA 9; VWMA 20): buy when MA < close, sell
 *   when MA > close, neutral when equal.
 * - Ichimoku (lines not displaced: conversion = Donchian mid 9, base = mid 26,
 *   lead1 = (conversion + base) / 2, lead2 = mid 52): buy when lead1 > lead2, close > lead1,
 *   close < base, close[1] < conversion and close > conversion; sell when lead2 > lead1, close <
 *   lead2, close > base, close[1] > conversion and close < conversion (the cloud's edge is lead2
 *   for the sell, as in the built-in rating).
 * - RSI 14: buy < 30 and rising; sell > 70 and falling.
 * - Stochastic 14/3/3: buy when %K and %D < 20 and %K crosses above %D; sell the mirror over 80.
 * - CCI 20 (of the close): buy < -100 and rising; sell > 100 and falling.
 * - ADX 14: buy when ADX > 20 and +DI crosses above -DI; sell when it crosses below.
 * - AO: buy on a cross above 0 or a bullish saucer (ao > 0, ao[1] > 0, ao > ao[1] < ao[2]);
 *   sell the mirror.
 * - Momentum 10: buy when rising, sell when falling.
 * - MACD 12/26/9: buy when MACD > signal, sell when below.
 * - Stochastic RSI 3/3/14/14: buy in a downtrend (close < EMA50) with %K and %D < 20 and %K
 *   crossing above %D; sell in an uptrend with both > 80 and %K crossing below.
 * - Williams %R 14: buy < -80 and rising; sell > -20 and falling.
 * - Bull Bear Power (EMA 13): buy in an uptrend with bear power < 0 and rising; sell in a
 *   downtrend with bull power > 0 and falling.
 * - Ultimate Oscillator 7/14/28: buy > 70, sell < 30.
 * A vote whose inputs are still warming up is not cast (null), as in the built-in, and the
 * groups count the votes cast. An analysis withholds the rating below
 * {@link TECHNICAL_RATING_HISTORY} (200) candles, when the 200-period averages cannot vote
 * (`withholdRating`).
 * Deviations: indicators use core's kernels (TA-Lib seeding for EMA and MACD, TradingView's
 * convention for the DMI); seeds differ only during the first bars of a series. Where core
 * reads a flat window as neutral (Stochastic 50, Williams %R -50) Pine reads na; the vote is
 * neutral either way, but counted here.
 * Reads candles `0..asOf` only.
 * @throws InputError on bad candles or index.
 */
export function technicalRating(input: ContextInput, options?: TechnicalRatingOptions): TechnicalRating {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const ma = group(maVotes(ctx, i));
  const osc = group(oscillatorVotes(ctx, i));
  const values: number[] = [];
  if (ma.value !== null) values.push(ma.value);
  if (osc.value !== null) values.push(osc.value);
  const value = values.length === 0 ? null : values.length === 1 ? values[0] : (values[0] + values[1]) / 2;
  const out: TechnicalRating = {
    value,
    rating: value === null ? null : ratingLabel(value),
    moving_averages: ma,
    oscillators: osc,
  };
  if (value === null) out.reason = 'insufficient_data';
  return out;
}
