import type { FearGreed } from '../feargreed/fear-greed.js';
import type { SupportResistance } from '../levels/zones.js';
import type { TradePlan } from '../plan/plan.js';
import type { Regime } from '../regime/regime.js';
import type { CandlePattern } from '../screeners/patterns.js';
import type { Signal } from '../signal/signal.js';
import type { IndicatorSnapshot } from '../signal/snapshot.js';
import type { TechnicalRating } from '../signal/technical-rating.js';
import { formatInteger, formatNumber, formatPercent, formatPrice } from './format.js';

/** The kinds of facts, in the order {@link overviewFacts} lists them. */
export type FactId =
  | 'price'
  | 'signal'
  | 'trend'
  | 'momentum'
  | 'technical_rating'
  | 'fear_greed'
  | 'regime'
  | 'regime_change'
  | 'support'
  | 'resistance'
  | 'plan'
  | 'volatility'
  | 'volume'
  | 'patterns';

/**
 * One value of a fact: the raw value and the exact text the narrative shows. Numbers are
 * formatted locale-neutrally (see `overview/format.ts`); enumerations keep their wire value
 * (the renderer translates them); lists are joined by `, `.
 */
export interface FactValue {
  value: number | string | readonly string[];
  text: string;
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
  levels?: Pick<SupportResistance, 'nearest_support' | 'nearest_resistance'> | null;
  zone?: TradePlan | null;
  patterns?: readonly CandlePattern[] | null;
}

function num(value: number, text: string): FactValue {
  return { value, text };
}

function word(value: string): FactValue {
  return { value, text: value };
}

function fin(x: number | null | undefined): x is number {
  return typeof x === 'number' && x - x === 0;
}

/**
 * The facts of an analysis, in a fixed order: price (close, bar change), signal (action,
 * confidence in whole percent), trend (direction from the signal's trend factor: above 0.25 up,
 * below -0.25 down; ADX), momentum (RSI with overbought >= 70 / oversold <= 30; MACD histogram
 * side), technical rating, Fear & Greed, regime (or `regime_change` when the as-of bar confirmed
 * a transition), nearest support and resistance (zone middle, unsigned distance), the trade plan
 * (entry band, stop, targets, risk-reward of target 1), volatility (ATR % of price), volume
 * (when at least 1.5x its average) and candlestick patterns. A part that is missing or null in
 * the analysis gives no fact. Every number is formatted once here; the narrative only copies
 * these strings.
 */
export function overviewFacts(analysis: OverviewInput): Fact[] {
  const facts: Fact[] = [];
  const ind = analysis.indicators ?? {};
  if (fin(ind.close)) {
    const values: Record<string, FactValue> = { close: num(ind.close, formatPrice(ind.close)) };
    if (fin(ind.change_pct)) values.change_pct = num(ind.change_pct, formatPercent(ind.change_pct, true));
    facts.push({ id: 'price', values });
  }
  const sig = analysis.signal;
  if (sig) {
    const pct = Math.round(sig.confidence * 100);
    facts.push({
      id: 'signal',
      values: { action: word(sig.action), confidence_pct: num(pct, `${formatInteger(pct)}%`) },
    });
    const t = sig.factors.find((f) => f.name === 'trend')?.score;
    if (fin(t)) {
      const values: Record<string, FactValue> = {
        direction: word(t > 0.25 ? 'up' : t < -0.25 ? 'down' : 'sideways'),
      };
      if (fin(ind.adx_14)) values.adx = num(ind.adx_14, formatNumber(ind.adx_14, 1));
      facts.push({ id: 'trend', values });
    }
  }
  if (fin(ind.rsi_14)) {
    const r = ind.rsi_14;
    const values: Record<string, FactValue> = {
      rsi: num(r, formatNumber(r, 1)),
      rsi_state: word(r >= 70 ? 'overbought' : r <= 30 ? 'oversold' : 'neutral'),
    };
    if (fin(ind.macd_histogram) && ind.macd_histogram !== 0) {
      values.macd = word(ind.macd_histogram > 0 ? 'bullish' : 'bearish');
    }
    facts.push({ id: 'momentum', values });
  }
  const tr = analysis.technical_rating;
  if (tr && tr.value !== null && tr.rating !== null) {
    facts.push({
      id: 'technical_rating',
      values: { rating: word(tr.rating), value: num(tr.value, formatNumber(tr.value, 2)) },
    });
  }
  const fg = analysis.fear_greed;
  if (fg && fg.score !== null && fg.zone !== null) {
    facts.push({ id: 'fear_greed', values: { score: num(fg.score, formatInteger(fg.score)), zone: word(fg.zone) } });
  }
  const rg = analysis.regime;
  if (rg && rg.phase !== null) {
    if (rg.changed && rg.transition) {
      facts.push({ id: 'regime_change', values: { from: word(rg.transition.from), to: word(rg.transition.to) } });
    } else if (fin(rg.bars_in_phase)) {
      facts.push({
        id: 'regime',
        values: { phase: word(rg.phase), bars: num(rg.bars_in_phase, formatInteger(rg.bars_in_phase)) },
      });
    }
  }
  const lv = analysis.levels;
  for (const [id, level] of [
    ['support', lv?.nearest_support],
    ['resistance', lv?.nearest_resistance],
  ] as const) {
    if (level && fin(level.mid) && fin(level.distance_pct)) {
      const d = Math.abs(level.distance_pct);
      facts.push({
        id,
        values: { price: num(level.mid, formatPrice(level.mid)), distance_pct: num(d, formatPercent(d)) },
      });
    }
  }
  const plan = analysis.zone;
  if (plan && plan.direction !== null && plan.entry_zone && fin(plan.stop_loss) && plan.take_profits.length > 0) {
    const values: Record<string, FactValue> = {
      direction: word(plan.direction),
      entry_low: num(plan.entry_zone.low, formatPrice(plan.entry_zone.low)),
      entry_high: num(plan.entry_zone.high, formatPrice(plan.entry_zone.high)),
      stop: num(plan.stop_loss, formatPrice(plan.stop_loss)),
      target_1: num(plan.take_profits[0].price, formatPrice(plan.take_profits[0].price)),
      risk_reward: num(plan.take_profits[0].risk_reward, formatNumber(plan.take_profits[0].risk_reward, 2)),
    };
    const t2 = plan.take_profits[1];
    if (t2) values.target_2 = num(t2.price, formatPrice(t2.price));
    facts.push({ id: 'plan', values });
  }
  if (fin(ind.atr_pct)) {
    facts.push({ id: 'volatility', values: { atr_pct: num(ind.atr_pct, formatPercent(ind.atr_pct)) } });
  }
  if (fin(ind.volume_ratio) && ind.volume_ratio >= 1.5) {
    facts.push({ id: 'volume', values: { ratio: num(ind.volume_ratio, formatNumber(ind.volume_ratio, 1)) } });
  }
  const pats = analysis.patterns;
  if (pats && pats.length > 0) {
    facts.push({ id: 'patterns', values: { patterns: { value: [...pats], text: pats.join(', ') } } });
  }
  return facts;
}
