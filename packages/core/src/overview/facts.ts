import type { FearGreed } from '../feargreed/fear-greed.js';
import type { AnalysisHistory } from '../history/history.js';
import type { SupportResistance } from '../levels/zones.js';
import type { TradePlan } from '../plan/plan.js';
import type { Regime } from '../regime/regime.js';
import type { CandlePattern } from '../screeners/patterns.js';
import type { Signal } from '../signal/signal.js';
import type { IndicatorSnapshot } from '../signal/snapshot.js';
import type { TechnicalRating } from '../signal/technical-rating.js';
import { type FactFormat, formatNeutral } from './format.js';

/** The kinds of facts, in the order {@link overviewFacts} lists them. */
export type FactId =
  | 'price'
  | 'history'
  | 'signal'
  | 'trend'
  | 'momentum'
  | 'technical_rating'
  | 'fear_greed'
  | 'regime'
  | 'regime_change'
  | 'inside_zone'
  | 'support'
  | 'resistance'
  | 'plan'
  | 'no_plan'
  | 'volatility'
  | 'volume'
  | 'patterns';

/**
 * One value of a fact: the raw value and its text. A number's text is locale-neutral (`.`
 * decimals, no digit groups; see `overview/format.ts`) and its `format` says how the narrative
 * writes it in each locale (`formatFactValue`); enumerations keep their wire value (the renderer
 * translates them); lists are joined by `, `.
 */
export interface FactValue {
  value: number | string | readonly string[];
  text: string;
  /** How a number is written (see {@link FactFormat}); absent for words and lists. */
  format?: FactFormat;
}

/** A fact of the analysis: what the overview may say, with every number pre-formatted. */
export interface Fact {
  id: FactId;
  values: Record<string, FactValue>;
}

/** The parts of an analysis the overview reads; each is optional (a missing part gives no fact). */
export interface OverviewInput {
  indicators?: Partial<IndicatorSnapshot> | null;
  signal?: Signal | null;
  technical_rating?: TechnicalRating | null;
  fear_greed?: FearGreed | null;
  regime?: Regime | null;
  /** `inside` may be absent (an older analysis): then no `inside_zone` fact. */
  levels?:
    | (Pick<SupportResistance, 'nearest_support' | 'nearest_resistance'> & Partial<Pick<SupportResistance, 'inside'>>)
    | null;
  zone?: TradePlan | null;
  patterns?: readonly CandlePattern[] | null;
  /** The history block: with it the `history` fact says how many candles the rating needs. */
  history?: Pick<AnalysisHistory, 'candles' | 'min_candles'> | null;
}

function num(value: number, format: FactFormat): FactValue {
  return { value, text: formatNeutral(value, format), format };
}

function word(value: string): FactValue {
  return { value, text: value };
}

function fin(x: number | null | undefined): x is number {
  return typeof x === 'number' && x - x === 0;
}

/** The side a technical rating leans to, in the signal's words. */
function ratingSide(rating: string): 'buy' | 'hold' | 'sell' {
  return rating === 'buy' || rating === 'strong_buy'
    ? 'buy'
    : rating === 'sell' || rating === 'strong_sell'
      ? 'sell'
      : 'hold';
}

/**
 * A regime phase against the trend's direction: `differs` when the phase points the other way
 * (markup or accumulation, the phases after or before a rise, against a down trend; markdown or
 * distribution against an up trend).
 */
function phaseVsTrend(phase: string, trend: string): 'agrees' | 'differs' {
  if (trend === 'up' && (phase === 'distribution' || phase === 'markdown')) return 'differs';
  if (trend === 'down' && (phase === 'accumulation' || phase === 'markup')) return 'differs';
  return 'agrees';
}

/**
 * The facts of an analysis, in a fixed order: price (close, bar change), history (when the
 * signal or the technical rating is withheld for too short a history, `insufficient_data`: the
 * narrative says there is not enough history to rate it, with the candles read and the candles
 * needed when `history` is given; no signal fact then), signal (action, confidence in whole percent), trend (direction from the signal's trend factor: above 0.25 up,
 * below -0.25 down; ADX), momentum (RSI with overbought >= 70 / oversold <= 30; MACD histogram
 * side), technical rating (with `relation` to the signal: `differs` when the rating leans to
 * another side than the signal's action, the narrative then says why both stand), Fear & Greed,
 * regime (or `regime_change` when the as-of bar confirmed a transition; with `relation` to the
 * trend: `differs` for an up trend in distribution or markdown, a down trend in accumulation or
 * markup), the zone holding the price (`inside_zone`: it is then neither support nor
 * resistance), nearest support and resistance (the zones entirely below and above the price, at
 * their near edge, with the unsigned distance to it), the trade plan (entry band, stop, targets,
 * risk-reward of target 1, gross and net of the round-trip cost) or, without a trade, `no_plan` with the plan's reason (and the
 * signal's action, so a Buy or Sell without a plan always says why), volatility (ATR % of
 * price), volume (when at least 1.5x its average) and candlestick patterns. A part that is
 * missing or null in the analysis gives no fact. Every number carries its locale-neutral text and
 * its format; the narrative writes it per locale (see `formatFactValue`).
 */
export function overviewFacts(analysis: OverviewInput): Fact[] {
  const facts: Fact[] = [];
  const ind = analysis.indicators ?? {};
  if (fin(ind.close)) {
    const values: Record<string, FactValue> = { close: num(ind.close, 'price') };
    if (fin(ind.change_pct)) values.change_pct = num(ind.change_pct, 'signed_percent');
    facts.push({ id: 'price', values });
  }
  const sig = analysis.signal;
  let trend: string | null = null;
  const tr = analysis.technical_rating;
  // Too short a history to rate: say so instead of a rating (and of a Hold that means nothing).
  const unrated = sig?.reason === 'insufficient_data' || tr?.reason === 'insufficient_data';
  if (unrated) {
    const h = analysis.history;
    const values: Record<string, FactValue> = {};
    if (h && fin(h.candles)) {
      const needs = [h.min_candles.signal, h.min_candles.technical_rating].filter((x) => fin(x) && x > h.candles);
      if (needs.length > 0) {
        values.candles = num(h.candles, 'integer');
        values.needed = num(Math.max(...needs), 'integer');
      }
    }
    facts.push({ id: 'history', values });
  }
  if (sig && sig.reason !== 'insufficient_data') {
    const pct = Math.round(sig.confidence * 100);
    facts.push({
      id: 'signal',
      values: { action: word(sig.action), confidence_pct: num(pct, 'whole_percent') },
    });
    const t = sig.factors.find((f) => f.name === 'trend')?.score;
    if (fin(t)) {
      trend = t > 0.25 ? 'up' : t < -0.25 ? 'down' : 'sideways';
      const values: Record<string, FactValue> = { direction: word(trend) };
      if (fin(ind.adx_14)) values.adx = num(ind.adx_14, 'decimal_1');
      facts.push({ id: 'trend', values });
    }
  }
  if (fin(ind.rsi_14)) {
    const r = ind.rsi_14;
    const values: Record<string, FactValue> = {
      rsi: num(r, 'decimal_1'),
      rsi_state: word(r >= 70 ? 'overbought' : r <= 30 ? 'oversold' : 'neutral'),
    };
    if (fin(ind.macd_histogram) && ind.macd_histogram !== 0) {
      values.macd = word(ind.macd_histogram > 0 ? 'bullish' : 'bearish');
    }
    facts.push({ id: 'momentum', values });
  }
  if (tr && tr.value !== null && tr.rating !== null) {
    const values: Record<string, FactValue> = { rating: word(tr.rating), value: num(tr.value, 'decimal_2') };
    if (sig) {
      values.signal = word(sig.action);
      values.relation = word(ratingSide(tr.rating) === sig.action ? 'agrees' : 'differs');
    }
    facts.push({ id: 'technical_rating', values });
  }
  const fg = analysis.fear_greed;
  if (fg && fg.score !== null && fg.zone !== null) {
    facts.push({ id: 'fear_greed', values: { score: num(fg.score, 'integer'), zone: word(fg.zone) } });
  }
  const rg = analysis.regime;
  if (rg && rg.phase !== null) {
    const relation: Record<string, FactValue> =
      trend === null ? {} : { trend: word(trend), relation: word(phaseVsTrend(rg.phase, trend)) };
    if (rg.changed && rg.transition) {
      facts.push({
        id: 'regime_change',
        values: { from: word(rg.transition.from), to: word(rg.transition.to), ...relation },
      });
    } else if (fin(rg.bars_in_phase)) {
      facts.push({
        id: 'regime',
        values: { phase: word(rg.phase), bars: num(rg.bars_in_phase, 'integer'), ...relation },
      });
    }
  }
  const lv = analysis.levels;
  const inside = lv?.inside;
  if (inside && fin(inside.low) && fin(inside.high)) {
    facts.push({
      id: 'inside_zone',
      values: { kind: word(inside.kind), low: num(inside.low, 'price'), high: num(inside.high, 'price') },
    });
  }
  for (const [id, level, edge] of [
    ['support', lv?.nearest_support, lv?.nearest_support?.high],
    ['resistance', lv?.nearest_resistance, lv?.nearest_resistance?.low],
  ] as const) {
    if (level && fin(edge) && fin(level.distance_pct)) {
      facts.push({
        id,
        values: { price: num(edge, 'price'), distance_pct: num(Math.abs(level.distance_pct), 'percent') },
      });
    }
  }
  const plan = analysis.zone;
  if (plan && plan.direction !== null && plan.entry_zone && fin(plan.stop_loss) && plan.take_profits.length > 0) {
    const t1 = plan.take_profits[0];
    const values: Record<string, FactValue> = {
      direction: word(plan.direction),
      entry_low: num(plan.entry_zone.low, 'price'),
      entry_high: num(plan.entry_zone.high, 'price'),
      stop: num(plan.stop_loss, 'price'),
      target_1: num(t1.price, 'price'),
      risk_reward: num(t1.risk_reward, 'decimal_2'),
    };
    if (fin(t1.risk_reward_net)) values.risk_reward_net = num(t1.risk_reward_net, 'decimal_2');
    const t2 = plan.take_profits[1];
    if (t2) values.target_2 = num(t2.price, 'price');
    facts.push({ id: 'plan', values });
  } else if (plan && plan.direction === null && plan.reason !== null) {
    const values: Record<string, FactValue> = { reason: word(plan.reason) };
    if (sig) values.signal = word(sig.action);
    facts.push({ id: 'no_plan', values });
  }
  if (fin(ind.atr_pct)) {
    facts.push({ id: 'volatility', values: { atr_pct: num(ind.atr_pct, 'percent') } });
  }
  if (fin(ind.volume_ratio) && ind.volume_ratio >= 1.5) {
    facts.push({ id: 'volume', values: { ratio: num(ind.volume_ratio, 'decimal_1') } });
  }
  const pats = analysis.patterns;
  if (pats && pats.length > 0) {
    facts.push({ id: 'patterns', values: { patterns: { value: [...pats], text: pats.join(', ') } } });
  }
  return facts;
}
