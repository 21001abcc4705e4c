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
  /** The market's tick size a price is written at (see `formatPrice`); absent: six significant digits. */
  tick?: number;
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

/** The market an analysis is of, as the overview quotes its prices. */
export interface OverviewMarket {
  /**
   * The market's tick size (`Market.tick_size` of its venue, else `defaultTickSize` of its class:
   * 0.01 for stocks); null or absent: prices keep six significant digits.
   */
  tick_size?: number | null;
  /** The quote currency (`USD`, `USDT`, `BTC`), said after the price; null or absent: not said. */
  quote?: string | null;
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

const SIDE = { buy: 1, hold: 0, sell: -1 } as const;

/**
 * The factor of the signal that pulled hardest from the rating's side towards the signal's: the
 * largest contribution in the direction from the rating's side to the signal's action (a Strong
 * Buy rating under a Hold: the most negative contribution). Null when none pulls that way.
 */
function factorAgainst(sig: Signal, ratingSide: 'buy' | 'hold' | 'sell'): string | null {
  const d = Math.sign(SIDE[sig.action] - SIDE[ratingSide]);
  let best: string | null = null;
  let most = 0;
  for (const f of sig.factors) {
    const pull = d * f.contribution;
    if (fin(pull) && pull > most) {
      most = pull;
      best = f.name;
    }
  }
  return best;
}

/**
 * Why a Hold differs from a rating on the side its own score leans to: no factor made the
 * difference (they lean the rating's way), the gate did; its reason (`no_edge`, `poor_reward`), or
 * null when the Hold is not such a one.
 */
function heldAtGate(sig: Signal, ratingSide: 'buy' | 'hold' | 'sell'): string | null {
  if (sig.action !== 'hold' || sig.reason === undefined || sig.reason === 'insufficient_data') return null;
  const lean = sig.score > 0 ? 'buy' : sig.score < 0 ? 'sell' : 'hold';
  return lean === ratingSide && lean !== 'hold' ? sig.reason : null;
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

/** Whole percent of a probability. */
function pctOf(p: number): FactValue {
  return num(Math.round(p * 100), 'whole_percent');
}

/**
 * The values of the signal fact. A buy or sell: its action and `confidence_pct` (the probability
 * that its plan reaches target 1 before the stop), with its edge when known (`break_even_pct`,
 * `expected_r` and its interval `expected_r_low`..`expected_r_high`). A hold: never a confidence,
 * but why there is no trade (`hold_reason`: `no_edge`, or another reason the signal gives,
 * `insufficient_data`; `conflicting` when the score called no side) and, for a declined plan with
 * a trade, its side (`declined`), its probability (`probability_pct`) and its break-even
 * (`break_even_pct`).
 */
function signalValues(sig: Signal): Record<string, FactValue> {
  const edge = sig.edge ?? null;
  if (sig.action !== 'hold') {
    const values: Record<string, FactValue> = {
      action: word(sig.action),
      confidence_pct: pctOf(sig.confidence),
    };
    if (edge !== null && fin(edge.break_even) && fin(edge.expected_r)) {
      values.break_even_pct = pctOf(edge.break_even);
      values.expected_r = num(edge.expected_r, 'decimal_2');
      values.expected_r_low = num(edge.expected_r_low, 'decimal_2');
      values.expected_r_high = num(edge.expected_r_high, 'decimal_2');
    }
    return values;
  }
  const values: Record<string, FactValue> = {
    action: word('hold'),
    hold_reason: word(sig.reason ?? 'conflicting'),
  };
  const declined = sig.declined_plan ?? null;
  if (declined !== null && declined.direction !== null && edge !== null && fin(edge.break_even)) {
    values.declined = word(declined.direction === 'long' ? 'buy' : 'sell');
    values.probability_pct = pctOf(edge.probability);
    values.break_even_pct = pctOf(edge.break_even);
  }
  return values;
}

/**
 * The facts of an analysis, in a fixed order: price (close, bar change), history (when the
 * signal or the technical rating is withheld for too short a history, `insufficient_data`: the
 * narrative says there is not enough history to rate it, with the candles read and the candles
 * needed when `history` is given; no signal fact then), signal (see `signalValues`: a call's
 * probability and expected R, a hold's reason, never a confidence in holding), trend (direction
 * from the signal's trend factor: above 0.25 up,
 * below -0.25 down; ADX), momentum (RSI with overbought >= 70 / oversold <= 30; MACD histogram
 * side), technical rating (with `relation` to the signal: `differs` when the rating leans to
 * another side than the signal's action, the narrative then says why both stand and names in
 * `factor` the signal's factor that pulled hardest from the rating's side, or, for a Hold whose
 * own score leans the rating's way, names in `gate` the reason its gate held: `no_edge`), Fear & Greed,
 * regime (or `regime_change` when the as-of bar confirmed a transition; with `relation` to the
 * trend: `differs` for an up trend in distribution or markdown, a down trend in accumulation or
 * markup), the zone holding the price (`inside_zone`: it is then neither support nor
 * resistance), nearest support and resistance (the zones entirely below and above the price, at
 * their near edge, with the unsigned distance to it), the trade plan (entry band, stop, targets,
 * risk-reward of target 1, gross and net of the round-trip cost) or, without a trade, `no_plan` with the plan's reason (and the
 * signal's action, so a Buy or Sell without a plan always says why), volatility (ATR % of
 * price), volume (when at least 1.5x its average) and candlestick patterns. A part that is
 * missing or null in the analysis gives no fact. Every number carries its locale-neutral text and
 * its format; the narrative writes it per locale (see `formatFactValue`). With the `market`'s tick
 * size every price is written at that tick (`tick` on its value), and with its quote currency the
 * price fact says it (`currency`: a BTC-quoted pair reads `0.00162 BTC`, never USD).
 */
export function overviewFacts(analysis: OverviewInput, market: OverviewMarket = {}): Fact[] {
  const facts: Fact[] = [];
  const tick = market.tick_size ?? null;
  const quote = market.quote ?? null;
  // Every price at the market's tick: the text a trader reads on the venue.
  const px = (value: number): FactValue =>
    tick === null ? num(value, 'price') : { value, text: formatNeutral(value, 'price', tick), format: 'price', tick };
  const ind = analysis.indicators ?? {};
  if (fin(ind.close)) {
    const values: Record<string, FactValue> = { close: px(ind.close) };
    if (quote !== null) values.currency = word(quote);
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
    facts.push({ id: 'signal', values: signalValues(sig) });
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
      const side = ratingSide(tr.rating);
      values.relation = word(side === sig.action ? 'agrees' : 'differs');
      const gate = side === sig.action ? null : heldAtGate(sig, side);
      if (gate !== null) values.gate = word(gate);
      const pulled = side === sig.action || gate !== null ? null : factorAgainst(sig, side);
      if (pulled !== null) values.factor = word(pulled);
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
      values: { kind: word(inside.kind), low: px(inside.low), high: px(inside.high) },
    });
  }
  for (const [id, level, edge] of [
    ['support', lv?.nearest_support, lv?.nearest_support?.high],
    ['resistance', lv?.nearest_resistance, lv?.nearest_resistance?.low],
  ] as const) {
    if (level && fin(edge) && fin(level.distance_pct)) {
      facts.push({
        id,
        values: { price: px(edge), distance_pct: num(Math.abs(level.distance_pct), 'percent') },
      });
    }
  }
  const plan = analysis.zone;
  if (plan && plan.direction !== null && plan.entry_zone && fin(plan.stop_loss) && plan.take_profits.length > 0) {
    const t1 = plan.take_profits[0];
    const values: Record<string, FactValue> = {
      direction: word(plan.direction),
      entry_low: px(plan.entry_zone.low),
      entry_high: px(plan.entry_zone.high),
      stop: px(plan.stop_loss),
      target_1: px(t1.price),
      risk_reward: num(t1.risk_reward, 'decimal_2'),
    };
    if (fin(t1.risk_reward_net)) values.risk_reward_net = num(t1.risk_reward_net, 'decimal_2');
    const t2 = plan.take_profits[1];
    if (t2) values.target_2 = px(t2.price);
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
