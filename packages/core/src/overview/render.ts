import type { PlanReason } from '../plan/plan.js';
import type { Fact, FactId, FactValue } from './facts.js';
import { formatLocalized, type NumberWriter, numberWriter } from './format.js';

/** Locales the overview is written in. */
export const OVERVIEW_LOCALES = ['en', 'es', 'de', 'fr', 'pt', 'ja', 'zh'] as const;

/** A locale of the overview. */
export type OverviewLocale = (typeof OVERVIEW_LOCALES)[number];

/** Reads one fact's values inside a sentence. */
interface Values {
  /** The text of a value written for the locale ('' when absent). */
  t(name: string): string;
  /** The number of a numeric value (null when absent or not a number). */
  n(name: string): number | null;
  has(name: string): boolean;
  /** The text of an enumerated value, translated by `table` (the wire value when unknown). */
  w(name: string, table: Readonly<Record<string, string>>): string;
  /** The items of a list value, each translated by `table`. */
  list(name: string, table: Readonly<Record<string, string>>): string[];
}

type Sentence = (v: Values) => string;

/** The price with its quote currency when the facts name it: `0.00162 BTC`. */
function priceWithQuote(v: Values): string {
  return v.has('currency') ? `${v.t('close')} ${v.t('currency')}` : v.t('close');
}

/** A phase entered on the last candle: said as "has just entered", never "for 0 candles". */
function fresh(v: Values): boolean {
  const bars = v.n('bars');
  return bars !== null && bars < 1;
}

interface Phrases {
  /** Between sentences. */
  sep: string;
  /** Between list items. */
  comma: string;
  action: Record<string, string>;
  /**
   * Why a hold has no trade, by the signal's reason (`conflicting`: the score called no side).
   * Never a confidence in holding.
   */
  holdReason: Record<string, string>;
  trend: Record<string, string>;
  rsi: Record<string, string>;
  macd: Record<string, string>;
  rating: Record<string, string>;
  zone: Record<string, string>;
  phase: Record<string, string>;
  direction: Record<string, string>;
  pattern: Record<string, string>;
  /** A zone holding the price, by its kind. */
  zoneKind: Record<string, string>;
  /** Why there is no trade plan, for every reason a plan gives. */
  reason: Record<PlanReason, string>;
  /** The signal's factors, by name. */
  factor: Record<string, string>;
  /**
   * The technical rating when it leans to another side than the signal: both stand, and why,
   * naming the factor that pulled hardest from the rating's side when the fact has one.
   */
  ratingDiffers: Sentence;
  /**
   * A Hold whose factors lean the rating's way, held by its gate: `gate` is the reason
   * (`no_edge`, `poor_reward`), said in {@link Phrases.gate}'s words.
   */
  ratingHeld: Sentence;
  /** Why a Hold's gate declined the plan its factors lean to, by the signal's reason. */
  gate: Record<string, string>;
  /** After the regime when its phase points against the trend: why both stand. */
  phaseDiffers: Sentence;
  say: Record<FactId, Sentence>;
}

// No template below contains a digit: every number in the text comes from a fact.
// Every table is complete: a new fact id or plan reason fails to compile until each locale says it.

const en: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Buy', hold: 'Hold', sell: 'Sell' },
  holdReason: {
    no_edge: "no edge: the chance of the call's plan does not clear its break-even after costs",
    conflicting: 'the factors do not point clearly to one side',
    insufficient_data: 'there is not enough history to compute the factors',
    poor_reward: 'the reward at the first target is too small for the risk after costs',
  },
  trend: { up: 'up', down: 'down', sideways: 'sideways' },
  rsi: { overbought: 'overbought', oversold: 'oversold', neutral: 'in neutral territory' },
  macd: { bullish: 'bullish', bearish: 'bearish' },
  rating: { strong_buy: 'Strong Buy', buy: 'Buy', neutral: 'Neutral', sell: 'Sell', strong_sell: 'Strong Sell' },
  zone: {
    extreme_fear: 'extreme fear',
    fear: 'fear',
    neutral: 'neutral',
    greed: 'greed',
    extreme_greed: 'extreme greed',
  },
  phase: {
    accumulation: 'accumulation',
    markup: 'markup',
    distribution: 'distribution',
    markdown: 'markdown',
    range: 'a trading range',
  },
  direction: { long: 'long', short: 'short' },
  pattern: {
    bullish_engulfing: 'bullish engulfing',
    bearish_engulfing: 'bearish engulfing',
    hammer: 'hammer',
    shooting_star: 'shooting star',
    doji: 'doji',
  },
  zoneKind: { support: 'support zone', resistance: 'resistance zone' },
  reason: {
    no_direction: 'the signal calls for no trade',
    no_trend: 'the trend is flat, so no side can be chosen',
    insufficient_data: 'there are too few candles to read the trend',
    atr_warmup: 'volatility (ATR) is not measurable yet, so no stop or target can be sized',
    risk_below_cost: 'the stop would be so tight that trading costs would eat too much of the risk',
    degenerate_geometry: 'the levels give no valid prices for one',
    target_blocked: 'a strong opposing zone is too close to leave room for a target',
    poor_reward: 'the first target would pay too little for the risk after costs',
    session_close: 'the session closes before an entry could be taken',
  },
  factor: {
    trend: 'trend',
    momentum: 'momentum',
    sentiment: 'sentiment',
    breakout: 'breakout',
    risk: 'risk (stretch)',
    cycle_phase: 'market phase',
  },
  ratingDiffers: (v) =>
    `The technical rating, a tally of indicator votes, is ${v.w('rating', en.rating)} (${v.t('value')}); the ${v.w('signal', en.action)} signal also weighs sentiment, risk and the market phase, which is why the two differ.` +
    (v.has('factor') ? ` The factor that weighed most against the rating's side is ${v.w('factor', en.factor)}.` : ''),
  ratingHeld: (v) =>
    `The technical rating, a tally of indicator votes, is ${v.w('rating', en.rating)} (${v.t('value')}), and the signal's factors lean the same way; the signal is ${v.w('signal', en.action)} because ${v.w('gate', en.gate)}.`,
  gate: {
    no_edge: 'the plan on that side has no edge after costs',
    poor_reward: 'the plan on that side offers too little reward for its risk after costs',
  },
  phaseDiffers: (v) =>
    `This phase describes the longer cycle, so it can differ from the short-term ${v.w('trend', en.trend)} trend.`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `The price is ${priceWithQuote(v)}, ${v.t('change_pct')} on the last bar.`
        : `The price is ${priceWithQuote(v)}.`,
    history: (v) =>
      v.has('needed')
        ? `There is not enough history to rate it: ${v.t('candles')} ${v.t('candles') === '1' ? 'candle' : 'candles'}, the rating needs ${v.t('needed')}.`
        : 'There is not enough history to rate it yet.',
    signal: (v) =>
      v.t('action') === 'hold'
        ? `The signal reads ${v.w('action', en.action)}: ${v.w('hold_reason', en.holdReason)}.` +
          (v.has('declined')
            ? ` The ${v.w('declined', en.action)} plan it declined has a ${v.t('probability_pct')} chance of reaching the first target before the stop, against ${v.t('break_even_pct')} needed to break even.`
            : '')
        : v.has('expected_r')
          ? `The signal reads ${v.w('action', en.action)}: a ${v.t('confidence_pct')} chance that its plan reaches the first target before the stop, against ${v.t('break_even_pct')} to break even after costs; expected ${v.t('expected_r')} R (${v.t('expected_r_low')} to ${v.t('expected_r_high')}).`
          : `The signal reads ${v.w('action', en.action)}, a ${v.t('confidence_pct')} chance that its plan reaches the first target before the stop.`,
    trend: (v) =>
      v.has('adx')
        ? `The trend is ${v.w('direction', en.trend)} (ADX ${v.t('adx')}).`
        : `The trend is ${v.w('direction', en.trend)}.`,
    momentum: (v) =>
      `RSI stands at ${v.t('rsi')}, ${v.w('rsi_state', en.rsi)}${v.has('macd') ? `; MACD is ${v.w('macd', en.macd)}` : ''}.`,
    technical_rating: (v) => `The technical rating is ${v.w('rating', en.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `Fear & Greed stands at ${v.t('score')} (${v.w('zone', en.zone)}).`,
    regime: (v) =>
      fresh(v)
        ? `The market has just entered ${v.w('phase', en.phase)}.`
        : `The market has been in ${v.w('phase', en.phase)} for ${v.t('bars')} ${v.n('bars') === 1 ? 'bar' : 'bars'}.`,
    regime_change: (v) => `The market has just moved from ${v.w('from', en.phase)} to ${v.w('to', en.phase)}.`,
    support: (v) => `The nearest support is at ${v.t('price')}, ${v.t('distance_pct')} away.`,
    resistance: (v) => `The nearest resistance is at ${v.t('price')}, ${v.t('distance_pct')} away.`,
    inside_zone: (v) => `The price is inside a ${v.w('kind', en.zoneKind)} (${v.t('low')} to ${v.t('high')}).`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `There is no trade plan for the ${v.w('signal', en.action)} signal: ${v.w('reason', en.reason)}.`
        : `There is no trade plan: ${v.w('reason', en.reason)}.`,
    plan: (v) =>
      `The trade plan is ${v.w('direction', en.direction)}: entry ${v.t('entry_low')} to ${v.t('entry_high')}, stop ${v.t('stop')}, ${
        v.has('target_2') ? `targets ${v.t('target_1')} and ${v.t('target_2')}` : `target ${v.t('target_1')}`
      } (risk/reward ${v.t('risk_reward')}${v.has('risk_reward_net') ? `, ${v.t('risk_reward_net')} after costs` : ''}).`,
    volatility: (v) => `Volatility (ATR) is ${v.t('atr_pct')} of the price.`,
    volume: (v) => `Volume is ${v.t('ratio')} times its recent average.`,
    patterns: (v) => `The last candle shows: ${v.list('patterns', en.pattern).join(en.comma)}.`,
  },
};

const es: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'comprar', hold: 'mantener', sell: 'vender' },
  holdReason: {
    no_edge: 'sin ventaja: la probabilidad de la operación no supera su punto de equilibrio tras costes',
    conflicting: 'los factores no apuntan claramente a un lado',
    insufficient_data: 'no hay historial suficiente para calcular los factores',
    poor_reward: 'la ganancia en el primer objetivo es demasiado pequeña para el riesgo tras costes',
  },
  trend: { up: 'alcista', down: 'bajista', sideways: 'lateral' },
  rsi: { overbought: 'en sobrecompra', oversold: 'en sobreventa', neutral: 'en zona neutral' },
  macd: { bullish: 'alcista', bearish: 'bajista' },
  rating: {
    strong_buy: 'compra fuerte',
    buy: 'compra',
    neutral: 'neutral',
    sell: 'venta',
    strong_sell: 'venta fuerte',
  },
  zone: {
    extreme_fear: 'miedo extremo',
    fear: 'miedo',
    neutral: 'neutral',
    greed: 'codicia',
    extreme_greed: 'codicia extrema',
  },
  phase: {
    accumulation: 'fase de acumulación',
    markup: 'fase alcista',
    distribution: 'fase de distribución',
    markdown: 'fase bajista',
    range: 'fase lateral',
  },
  // As Spanish traders write it: "operar en largo", "ponerse en corto".
  direction: { long: 'en largo', short: 'en corto' },
  pattern: {
    bullish_engulfing: 'envolvente alcista',
    bearish_engulfing: 'envolvente bajista',
    hammer: 'martillo',
    shooting_star: 'estrella fugaz',
    doji: 'doji',
  },
  zoneKind: { support: 'zona de soporte', resistance: 'zona de resistencia' },
  reason: {
    no_direction: 'la señal no pide operar',
    no_trend: 'la tendencia es plana, así que no hay lado que elegir',
    insufficient_data: 'hay muy pocas velas para leer la tendencia',
    atr_warmup: 'la volatilidad (ATR) aún no se puede medir, así que no se pueden fijar stop ni objetivos',
    risk_below_cost: 'el stop quedaría tan ajustado que los costes se comerían demasiado del riesgo',
    degenerate_geometry: 'los niveles no dan precios válidos para uno',
    target_blocked: 'una zona contraria fuerte está demasiado cerca para dejar sitio a un objetivo',
    poor_reward: 'el primer objetivo pagaría demasiado poco para el riesgo tras costes',
    session_close: 'la sesión cierra antes de poder entrar',
  },
  factor: {
    trend: 'tendencia',
    momentum: 'impulso',
    sentiment: 'sentimiento',
    breakout: 'ruptura',
    risk: 'riesgo',
    cycle_phase: 'fase del mercado',
  },
  ratingDiffers: (v) =>
    `La calificación técnica, un recuento de votos de indicadores, es ${v.w('rating', es.rating)} (${v.t('value')}); la señal ${v.w('signal', es.action)} pondera además el sentimiento, el riesgo y la fase del mercado, por eso difieren.` +
    (v.has('factor')
      ? ` El factor que más pesó en contra del lado de la calificación: ${v.w('factor', es.factor)}.`
      : ''),
  ratingHeld: (v) =>
    `La calificación técnica, un recuento de votos de indicadores, es ${v.w('rating', es.rating)} (${v.t('value')}), y los factores de la señal se inclinan hacia el mismo lado; la señal es ${v.w('signal', es.action)} porque ${v.w('gate', es.gate)}.`,
  gate: {
    no_edge: 'el plan de ese lado no tiene ventaja después de costes',
    poor_reward: 'el plan de ese lado ofrece muy poca recompensa para su riesgo después de costes',
  },
  phaseDiffers: (v) =>
    `Esta fase describe el ciclo más largo, por eso puede diferir de la tendencia ${v.w('trend', es.trend)} a corto plazo.`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `El precio está en ${priceWithQuote(v)}, ${v.t('change_pct')} en la última vela.`
        : `El precio está en ${priceWithQuote(v)}.`,
    history: (v) =>
      v.has('needed')
        ? `No hay historial suficiente para valorarlo: ${v.t('candles')} ${v.t('candles') === '1' ? 'vela' : 'velas'}, la valoración necesita ${v.t('needed')}.`
        : 'Todavía no hay historial suficiente para valorarlo.',
    signal: (v) =>
      v.t('action') === 'hold'
        ? `La señal es ${v.w('action', es.action)}: ${v.w('hold_reason', es.holdReason)}.` +
          (v.has('declined')
            ? ` El plan para ${v.w('declined', es.action)} que descartó tiene una probabilidad del ${v.t('probability_pct')} de alcanzar el primer objetivo antes del stop, frente al ${v.t('break_even_pct')} necesario para cubrir costes.`
            : '')
        : v.has('expected_r')
          ? `La señal es ${v.w('action', es.action)}: una probabilidad del ${v.t('confidence_pct')} de que su plan alcance el primer objetivo antes del stop, frente al ${v.t('break_even_pct')} necesario para cubrir costes; R esperado ${v.t('expected_r')} (de ${v.t('expected_r_low')} a ${v.t('expected_r_high')}).`
          : `La señal es ${v.w('action', es.action)}, con una probabilidad del ${v.t('confidence_pct')} de que su plan alcance el primer objetivo antes del stop.`,
    trend: (v) =>
      v.has('adx')
        ? `La tendencia es ${v.w('direction', es.trend)} (ADX ${v.t('adx')}).`
        : `La tendencia es ${v.w('direction', es.trend)}.`,
    momentum: (v) =>
      `El RSI está en ${v.t('rsi')}, ${v.w('rsi_state', es.rsi)}${v.has('macd') ? `; el MACD es ${v.w('macd', es.macd)}` : ''}.`,
    technical_rating: (v) => `La calificación técnica es ${v.w('rating', es.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `El índice de miedo y codicia marca ${v.t('score')} (${v.w('zone', es.zone)}).`,
    regime: (v) =>
      fresh(v)
        ? `El mercado acaba de entrar en ${v.w('phase', es.phase)}.`
        : `El mercado está en ${v.w('phase', es.phase)} desde hace ${v.t('bars')} ${v.n('bars') === 1 ? 'vela' : 'velas'}.`,
    regime_change: (v) => `El mercado acaba de pasar de ${v.w('from', es.phase)} a ${v.w('to', es.phase)}.`,
    support: (v) => `El soporte más cercano está en ${v.t('price')}, a ${v.t('distance_pct')}.`,
    resistance: (v) => `La resistencia más cercana está en ${v.t('price')}, a ${v.t('distance_pct')}.`,
    inside_zone: (v) => `El precio está dentro de una ${v.w('kind', es.zoneKind)} (${v.t('low')} a ${v.t('high')}).`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `No hay plan de operación para la señal ${v.w('signal', es.action)}: ${v.w('reason', es.reason)}.`
        : `No hay plan de operación: ${v.w('reason', es.reason)}.`,
    plan: (v) =>
      `El plan es operar ${v.w('direction', es.direction)}: entrada entre ${v.t('entry_low')} y ${v.t('entry_high')}, stop en ${v.t('stop')}, ${
        v.has('target_2') ? `objetivos ${v.t('target_1')} y ${v.t('target_2')}` : `objetivo ${v.t('target_1')}`
      } (riesgo/beneficio ${v.t('risk_reward')}${v.has('risk_reward_net') ? `, ${v.t('risk_reward_net')} tras costes` : ''}).`,
    volatility: (v) => `La volatilidad (ATR) es del ${v.t('atr_pct')} del precio.`,
    volume: (v) => `El volumen es ${v.t('ratio')} veces su media reciente.`,
    patterns: (v) => `La última vela muestra: ${v.list('patterns', es.pattern).join(es.comma)}.`,
  },
};

const de: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Kaufen', hold: 'Halten', sell: 'Verkaufen' },
  holdReason: {
    no_edge: 'kein Vorteil: die Trefferwahrscheinlichkeit liegt nicht über dem Break-even nach Kosten',
    conflicting: 'die Faktoren zeigen in keine klare Richtung',
    insufficient_data: 'die Historie reicht nicht aus, um die Faktoren zu berechnen',
    poor_reward: 'der Gewinn am ersten Ziel ist nach Kosten zu klein für das Risiko',
  },
  trend: { up: 'steigend', down: 'fallend', sideways: 'seitwärts' },
  rsi: { overbought: 'überkauft', oversold: 'überverkauft', neutral: 'neutral' },
  macd: { bullish: 'bullisch', bearish: 'bärisch' },
  rating: {
    strong_buy: 'starker Kauf',
    buy: 'Kauf',
    neutral: 'neutral',
    sell: 'Verkauf',
    strong_sell: 'starker Verkauf',
  },
  zone: {
    extreme_fear: 'extreme Angst',
    fear: 'Angst',
    neutral: 'neutral',
    greed: 'Gier',
    extreme_greed: 'extreme Gier',
  },
  phase: {
    accumulation: 'Akkumulationsphase',
    markup: 'Aufwärtsphase',
    distribution: 'Distributionsphase',
    markdown: 'Abwärtsphase',
    range: 'Seitwärtsphase',
  },
  direction: { long: 'Long', short: 'Short' },
  pattern: {
    bullish_engulfing: 'bullisches Engulfing',
    bearish_engulfing: 'bärisches Engulfing',
    hammer: 'Hammer',
    shooting_star: 'Sternschnuppe',
    doji: 'Doji',
  },
  zoneKind: { support: 'Unterstützungszone', resistance: 'Widerstandszone' },
  reason: {
    no_direction: 'das Signal verlangt keinen Trade',
    no_trend: 'der Trend ist flach, daher lässt sich keine Seite wählen',
    insufficient_data: 'es gibt zu wenige Kerzen, um den Trend zu lesen',
    atr_warmup: 'die Volatilität (ATR) ist noch nicht messbar, daher lassen sich Stop und Ziele nicht bemessen',
    risk_below_cost: 'der Stop läge so eng, dass die Handelskosten zu viel vom Risiko aufzehren würden',
    degenerate_geometry: 'die Niveaus ergeben dafür keine gültigen Preise',
    target_blocked: 'eine starke Gegenzone liegt zu nah, um Platz für ein Ziel zu lassen',
    poor_reward: 'das erste Ziel brächte nach Kosten zu wenig für das Risiko',
    session_close: 'die Sitzung schließt, bevor ein Einstieg möglich wäre',
  },
  factor: {
    trend: 'Trend',
    momentum: 'Momentum',
    sentiment: 'Stimmung',
    breakout: 'Ausbruch',
    risk: 'Risiko',
    cycle_phase: 'Marktphase',
  },
  ratingDiffers: (v) =>
    `Das technische Rating, eine Zählung von Indikatorstimmen, lautet ${v.w('rating', de.rating)} (${v.t('value')}); das Signal ${v.w('signal', de.action)} gewichtet zusätzlich Stimmung, Risiko und Marktphase, daher weichen beide voneinander ab.` +
    (v.has('factor') ? ` Am stärksten gegen die Seite des Ratings wog der Faktor ${v.w('factor', de.factor)}.` : ''),
  ratingHeld: (v) =>
    `Das technische Rating, eine Zählung von Indikatorstimmen, lautet ${v.w('rating', de.rating)} (${v.t('value')}), und die Faktoren des Signals neigen zur selben Seite; das Signal lautet ${v.w('signal', de.action)}, weil ${v.w('gate', de.gate)}.`,
  gate: {
    no_edge: 'der Plan auf dieser Seite nach Kosten keinen Vorteil hat',
    poor_reward: 'der Plan auf dieser Seite nach Kosten zu wenig Ertrag für sein Risiko bietet',
  },
  phaseDiffers: (v) =>
    `Diese Phase beschreibt den längeren Zyklus und kann daher vom kurzfristigen Trend (${v.w('trend', de.trend)}) abweichen.`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `Der Kurs liegt bei ${priceWithQuote(v)}, ${v.t('change_pct')} in der letzten Kerze.`
        : `Der Kurs liegt bei ${priceWithQuote(v)}.`,
    history: (v) =>
      v.has('needed')
        ? `Für eine Bewertung reicht die Historie nicht aus: ${v.t('candles')} ${v.t('candles') === '1' ? 'Kerze' : 'Kerzen'}, die Bewertung braucht ${v.t('needed')}.`
        : 'Für eine Bewertung reicht die Historie noch nicht aus.',
    signal: (v) =>
      v.t('action') === 'hold'
        ? `Das Signal lautet ${v.w('action', de.action)}: ${v.w('hold_reason', de.holdReason)}.` +
          (v.has('declined')
            ? ` Der verworfene Plan (${v.w('declined', de.action)}) erreicht das erste Ziel mit ${v.t('probability_pct')} Wahrscheinlichkeit vor dem Stopp; für den Break-even wären ${v.t('break_even_pct')} nötig.`
            : '')
        : v.has('expected_r')
          ? `Das Signal lautet ${v.w('action', de.action)}: Mit ${v.t('confidence_pct')} Wahrscheinlichkeit erreicht der Plan das erste Ziel vor dem Stopp, der Break-even nach Kosten liegt bei ${v.t('break_even_pct')}; erwartetes R ${v.t('expected_r')} (${v.t('expected_r_low')} bis ${v.t('expected_r_high')}).`
          : `Das Signal lautet ${v.w('action', de.action)}; mit ${v.t('confidence_pct')} Wahrscheinlichkeit erreicht der Plan das erste Ziel vor dem Stopp.`,
    trend: (v) =>
      v.has('adx')
        ? `Der Trend ist ${v.w('direction', de.trend)} (ADX ${v.t('adx')}).`
        : `Der Trend ist ${v.w('direction', de.trend)}.`,
    momentum: (v) =>
      `Der RSI steht bei ${v.t('rsi')} (${v.w('rsi_state', de.rsi)})${v.has('macd') ? `; der MACD ist ${v.w('macd', de.macd)}` : ''}.`,
    technical_rating: (v) => `Das technische Rating lautet ${v.w('rating', de.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `Der Fear-&-Greed-Index steht bei ${v.t('score')} (${v.w('zone', de.zone)}).`,
    regime: (v) =>
      fresh(v)
        ? `Der Markt ist soeben in die ${v.w('phase', de.phase)} eingetreten.`
        : `Der Markt befindet sich seit ${v.t('bars')} ${v.n('bars') === 1 ? 'Kerze' : 'Kerzen'} in der ${v.w('phase', de.phase)}.`,
    regime_change: (v) =>
      `Der Markt ist soeben von der ${v.w('from', de.phase)} in die ${v.w('to', de.phase)} übergegangen.`,
    support: (v) => `Die nächste Unterstützung liegt bei ${v.t('price')}, ${v.t('distance_pct')} entfernt.`,
    resistance: (v) => `Der nächste Widerstand liegt bei ${v.t('price')}, ${v.t('distance_pct')} entfernt.`,
    inside_zone: (v) =>
      `Der Kurs liegt innerhalb einer ${v.w('kind', de.zoneKind)} (${v.t('low')} bis ${v.t('high')}).`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `Es gibt keinen Handelsplan für das Signal ${v.w('signal', de.action)}: ${v.w('reason', de.reason)}.`
        : `Es gibt keinen Handelsplan: ${v.w('reason', de.reason)}.`,
    plan: (v) =>
      `Der Handelsplan ist ${v.w('direction', de.direction)}: Einstieg ${v.t('entry_low')} bis ${v.t('entry_high')}, Stop ${v.t('stop')}, ${
        v.has('target_2') ? `Ziele ${v.t('target_1')} und ${v.t('target_2')}` : `Ziel ${v.t('target_1')}`
      } (Chance/Risiko ${v.t('risk_reward')}${v.has('risk_reward_net') ? `, ${v.t('risk_reward_net')} nach Kosten` : ''}).`,
    volatility: (v) => `Die Volatilität (ATR) beträgt ${v.t('atr_pct')} des Kurses.`,
    volume: (v) => `Das Volumen liegt beim ${v.t('ratio')}-Fachen seines jüngsten Durchschnitts.`,
    patterns: (v) => `Die letzte Kerze zeigt: ${v.list('patterns', de.pattern).join(de.comma)}.`,
  },
};

const fr: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Acheter', hold: 'Conserver', sell: 'Vendre' },
  holdReason: {
    no_edge: "pas d'avantage : la probabilité du plan ne dépasse pas son seuil de rentabilité après frais",
    conflicting: 'les facteurs ne désignent clairement aucun côté',
    insufficient_data: "l'historique est trop court pour calculer les facteurs",
    poor_reward: 'le gain au premier objectif est trop faible pour le risque après frais',
  },
  trend: { up: 'haussière', down: 'baissière', sideways: 'latérale' },
  rsi: { overbought: 'en surachat', oversold: 'en survente', neutral: 'neutre' },
  macd: { bullish: 'haussier', bearish: 'baissier' },
  rating: {
    strong_buy: 'achat fort',
    buy: 'achat',
    neutral: 'neutre',
    sell: 'vente',
    strong_sell: 'vente forte',
  },
  zone: {
    extreme_fear: 'peur extrême',
    fear: 'peur',
    neutral: 'neutre',
    greed: 'avidité',
    extreme_greed: 'avidité extrême',
  },
  phase: {
    accumulation: "phase d'accumulation",
    markup: 'phase de hausse',
    distribution: 'phase de distribution',
    markdown: 'phase de baisse',
    range: 'phase latérale',
  },
  direction: { long: 'acheteur', short: 'vendeur' },
  pattern: {
    bullish_engulfing: 'avalement haussier',
    bearish_engulfing: 'avalement baissier',
    hammer: 'marteau',
    shooting_star: 'étoile filante',
    doji: 'doji',
  },
  zoneKind: { support: 'zone de support', resistance: 'zone de résistance' },
  reason: {
    no_direction: 'le signal ne demande aucune position',
    no_trend: 'la tendance est plate, aucun sens ne peut être choisi',
    insufficient_data: 'il y a trop peu de bougies pour lire la tendance',
    atr_warmup:
      "la volatilité (ATR) n'est pas encore mesurable, le stop et les objectifs ne peuvent pas être dimensionnés",
    risk_below_cost:
      'le stop serait si serré que les coûts de transaction absorberaient une trop grande part du risque',
    degenerate_geometry: 'les niveaux ne donnent pas de prix valides',
    target_blocked: 'une zone opposée forte est trop proche pour laisser la place à un objectif',
    poor_reward: 'le premier objectif rapporterait trop peu pour le risque après frais',
    session_close: 'la séance se termine avant qu’une entrée soit possible',
  },
  factor: {
    trend: 'tendance',
    momentum: 'momentum',
    sentiment: 'sentiment',
    breakout: 'cassure',
    risk: 'risque',
    cycle_phase: 'phase du marché',
  },
  ratingDiffers: (v) =>
    `La note technique, un décompte des votes des indicateurs, est ${v.w('rating', fr.rating)} (${v.t('value')}) ; le signal ${v.w('signal', fr.action)} pondère aussi le sentiment, le risque et la phase du marché, d'où l'écart.` +
    (v.has('factor') ? ` Le facteur qui a le plus pesé contre le côté de la note : ${v.w('factor', fr.factor)}.` : ''),
  ratingHeld: (v) =>
    `La note technique, un décompte des votes des indicateurs, est ${v.w('rating', fr.rating)} (${v.t('value')}), et les facteurs du signal penchent du même côté ; le signal est ${v.w('signal', fr.action)} car ${v.w('gate', fr.gate)}.`,
  gate: {
    no_edge: "le plan de ce côté n'a pas d'avantage après frais",
    poor_reward: 'le plan de ce côté offre trop peu de gain pour son risque après frais',
  },
  phaseDiffers: (v) =>
    `Cette phase décrit le cycle long et peut donc différer de la tendance ${v.w('trend', fr.trend)} à court terme.`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `Le cours est à ${priceWithQuote(v)}, ${v.t('change_pct')} sur la dernière bougie.`
        : `Le cours est à ${priceWithQuote(v)}.`,
    history: (v) =>
      v.has('needed')
        ? `L'historique ne suffit pas pour l'évaluer : ${v.t('candles')} ${v.t('candles') === '1' ? 'bougie' : 'bougies'}, l'évaluation en demande ${v.t('needed')}.`
        : "L'historique ne suffit pas encore pour l'évaluer.",
    signal: (v) =>
      v.t('action') === 'hold'
        ? `Le signal est ${v.w('action', fr.action)} : ${v.w('hold_reason', fr.holdReason)}.` +
          (v.has('declined')
            ? ` Le plan écarté (${v.w('declined', fr.action)}) a ${v.t('probability_pct')} de chances d'atteindre le premier objectif avant le stop, contre ${v.t('break_even_pct')} nécessaires pour être à l'équilibre.`
            : '')
        : v.has('expected_r')
          ? `Le signal est ${v.w('action', fr.action)} : ${v.t('confidence_pct')} de chances que son plan atteigne le premier objectif avant le stop, contre ${v.t('break_even_pct')} pour être à l'équilibre après frais ; R attendu ${v.t('expected_r')} (de ${v.t('expected_r_low')} à ${v.t('expected_r_high')}).`
          : `Le signal est ${v.w('action', fr.action)}, avec ${v.t('confidence_pct')} de chances que son plan atteigne le premier objectif avant le stop.`,
    trend: (v) =>
      v.has('adx')
        ? `La tendance est ${v.w('direction', fr.trend)} (ADX ${v.t('adx')}).`
        : `La tendance est ${v.w('direction', fr.trend)}.`,
    momentum: (v) =>
      `Le RSI est à ${v.t('rsi')} (${v.w('rsi_state', fr.rsi)})${v.has('macd') ? ` ; le MACD est ${v.w('macd', fr.macd)}` : ''}.`,
    technical_rating: (v) => `La note technique est ${v.w('rating', fr.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `L'indice peur et avidité est à ${v.t('score')} (${v.w('zone', fr.zone)}).`,
    regime: (v) =>
      fresh(v)
        ? `Le marché vient d'entrer en ${v.w('phase', fr.phase)}.`
        : `Le marché est en ${v.w('phase', fr.phase)} depuis ${v.t('bars')} ${v.n('bars') === 1 ? 'bougie' : 'bougies'}.`,
    regime_change: (v) => `Le marché vient de passer de la ${v.w('from', fr.phase)} à la ${v.w('to', fr.phase)}.`,
    support: (v) => `Le support le plus proche est à ${v.t('price')}, soit à ${v.t('distance_pct')}.`,
    resistance: (v) => `La résistance la plus proche est à ${v.t('price')}, soit à ${v.t('distance_pct')}.`,
    inside_zone: (v) =>
      `Le cours est à l'intérieur d'une ${v.w('kind', fr.zoneKind)} (${v.t('low')} à ${v.t('high')}).`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `Il n'y a pas de plan de trading pour le signal ${v.w('signal', fr.action)} : ${v.w('reason', fr.reason)}.`
        : `Il n'y a pas de plan de trading : ${v.w('reason', fr.reason)}.`,
    plan: (v) =>
      `Le plan est ${v.w('direction', fr.direction)} : entrée entre ${v.t('entry_low')} et ${v.t('entry_high')}, stop à ${v.t('stop')}, ${
        v.has('target_2') ? `objectifs ${v.t('target_1')} et ${v.t('target_2')}` : `objectif ${v.t('target_1')}`
      } (rapport gain/risque ${v.t('risk_reward')}${v.has('risk_reward_net') ? `, ${v.t('risk_reward_net')} après coûts` : ''}).`,
    volatility: (v) => `La volatilité (ATR) représente ${v.t('atr_pct')} du cours.`,
    volume: (v) => `Le volume atteint ${v.t('ratio')} fois sa moyenne récente.`,
    patterns: (v) => `La dernière bougie montre : ${v.list('patterns', fr.pattern).join(fr.comma)}.`,
  },
};

const pt: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Comprar', hold: 'Manter', sell: 'Vender' },
  holdReason: {
    no_edge: 'sem vantagem: a probabilidade do plano não supera o seu ponto de equilíbrio após custos',
    conflicting: 'os fatores não apontam claramente para um lado',
    insufficient_data: 'não há histórico suficiente para calcular os fatores',
    poor_reward: 'o ganho no primeiro alvo é pequeno demais para o risco após custos',
  },
  trend: { up: 'de alta', down: 'de baixa', sideways: 'lateral' },
  rsi: { overbought: 'sobrecomprado', oversold: 'sobrevendido', neutral: 'neutro' },
  macd: { bullish: 'positivo', bearish: 'negativo' },
  rating: {
    strong_buy: 'compra forte',
    buy: 'compra',
    neutral: 'neutra',
    sell: 'venda',
    strong_sell: 'venda forte',
  },
  zone: {
    extreme_fear: 'medo extremo',
    fear: 'medo',
    neutral: 'neutro',
    greed: 'ganância',
    extreme_greed: 'ganância extrema',
  },
  phase: {
    accumulation: 'fase de acumulação',
    markup: 'fase de alta',
    distribution: 'fase de distribuição',
    markdown: 'fase de baixa',
    range: 'fase lateral',
  },
  direction: { long: 'comprado', short: 'vendido' },
  pattern: {
    bullish_engulfing: 'engolfo de alta',
    bearish_engulfing: 'engolfo de baixa',
    hammer: 'martelo',
    shooting_star: 'estrela cadente',
    doji: 'doji',
  },
  zoneKind: { support: 'zona de suporte', resistance: 'zona de resistência' },
  reason: {
    no_direction: 'o sinal não pede uma operação',
    no_trend: 'a tendência está plana, então nenhum lado pode ser escolhido',
    insufficient_data: 'há poucos candles para ler a tendência',
    atr_warmup: 'a volatilidade (ATR) ainda não é mensurável, então stop e alvos não podem ser dimensionados',
    risk_below_cost: 'o stop ficaria tão curto que os custos consumiriam parte demais do risco',
    degenerate_geometry: 'os níveis não dão preços válidos para um plano',
    target_blocked: 'uma zona contrária forte está perto demais para deixar espaço a um alvo',
    poor_reward: 'o primeiro alvo pagaria pouco demais para o risco após os custos',
    session_close: 'a sessão fecha antes de ser possível entrar',
  },
  factor: {
    trend: 'tendência',
    momentum: 'momento',
    sentiment: 'sentimento',
    breakout: 'rompimento',
    risk: 'risco',
    cycle_phase: 'fase do mercado',
  },
  ratingDiffers: (v) =>
    `A classificação técnica, uma contagem de votos de indicadores, é ${v.w('rating', pt.rating)} (${v.t('value')}); o sinal ${v.w('signal', pt.action)} também pondera sentimento, risco e fase do mercado, por isso os dois diferem.` +
    (v.has('factor') ? ` O fator que mais pesou contra o lado da classificação: ${v.w('factor', pt.factor)}.` : ''),
  ratingHeld: (v) =>
    `A classificação técnica, uma contagem de votos de indicadores, é ${v.w('rating', pt.rating)} (${v.t('value')}), e os fatores do sinal apontam para o mesmo lado; o sinal é ${v.w('signal', pt.action)} porque ${v.w('gate', pt.gate)}.`,
  gate: {
    no_edge: 'o plano desse lado não tem vantagem depois dos custos',
    poor_reward: 'o plano desse lado oferece pouco retorno para o seu risco depois dos custos',
  },
  phaseDiffers: (v) =>
    `Esta fase descreve o ciclo mais longo, por isso pode diferir da tendência ${v.w('trend', pt.trend)} de curto prazo.`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `O preço está em ${priceWithQuote(v)}, ${v.t('change_pct')} no último candle.`
        : `O preço está em ${priceWithQuote(v)}.`,
    history: (v) =>
      v.has('needed')
        ? `Não há histórico suficiente para avaliá-lo: ${v.t('candles')} ${v.t('candles') === '1' ? 'candle' : 'candles'}, a avaliação precisa de ${v.t('needed')}.`
        : 'Ainda não há histórico suficiente para avaliá-lo.',
    signal: (v) =>
      v.t('action') === 'hold'
        ? `O sinal é ${v.w('action', pt.action)}: ${v.w('hold_reason', pt.holdReason)}.` +
          (v.has('declined')
            ? ` O plano descartado (${v.w('declined', pt.action)}) tem ${v.t('probability_pct')} de probabilidade de atingir o primeiro alvo antes do stop, contra ${v.t('break_even_pct')} necessários para empatar.`
            : '')
        : v.has('expected_r')
          ? `O sinal é ${v.w('action', pt.action)}: ${v.t('confidence_pct')} de probabilidade de o plano atingir o primeiro alvo antes do stop, contra ${v.t('break_even_pct')} para empatar após custos; R esperado ${v.t('expected_r')} (de ${v.t('expected_r_low')} a ${v.t('expected_r_high')}).`
          : `O sinal é ${v.w('action', pt.action)}, com ${v.t('confidence_pct')} de probabilidade de o plano atingir o primeiro alvo antes do stop.`,
    trend: (v) =>
      v.has('adx')
        ? `A tendência é ${v.w('direction', pt.trend)} (ADX ${v.t('adx')}).`
        : `A tendência é ${v.w('direction', pt.trend)}.`,
    momentum: (v) =>
      `O RSI está em ${v.t('rsi')} (${v.w('rsi_state', pt.rsi)})${v.has('macd') ? `; o MACD está ${v.w('macd', pt.macd)}` : ''}.`,
    technical_rating: (v) => `A classificação técnica é ${v.w('rating', pt.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `O índice de medo e ganância está em ${v.t('score')} (${v.w('zone', pt.zone)}).`,
    regime: (v) =>
      fresh(v)
        ? `O mercado acaba de entrar em ${v.w('phase', pt.phase)}.`
        : `O mercado está em ${v.w('phase', pt.phase)} há ${v.t('bars')} ${v.n('bars') === 1 ? 'candle' : 'candles'}.`,
    regime_change: (v) => `O mercado acabou de passar da ${v.w('from', pt.phase)} para a ${v.w('to', pt.phase)}.`,
    support: (v) => `O suporte mais próximo está em ${v.t('price')}, a ${v.t('distance_pct')} de distância.`,
    resistance: (v) => `A resistência mais próxima está em ${v.t('price')}, a ${v.t('distance_pct')} de distância.`,
    inside_zone: (v) => `O preço está dentro de uma ${v.w('kind', pt.zoneKind)} (${v.t('low')} a ${v.t('high')}).`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `Não há plano de operação para o sinal ${v.w('signal', pt.action)}: ${v.w('reason', pt.reason)}.`
        : `Não há plano de operação: ${v.w('reason', pt.reason)}.`,
    plan: (v) =>
      `O plano é operar ${v.w('direction', pt.direction)}: entrada entre ${v.t('entry_low')} e ${v.t('entry_high')}, stop em ${v.t('stop')}, ${
        v.has('target_2') ? `alvos ${v.t('target_1')} e ${v.t('target_2')}` : `alvo ${v.t('target_1')}`
      } (risco/retorno ${v.t('risk_reward')}${v.has('risk_reward_net') ? `, ${v.t('risk_reward_net')} após custos` : ''}).`,
    volatility: (v) => `A volatilidade (ATR) é de ${v.t('atr_pct')} do preço.`,
    volume: (v) => `O volume está em ${v.t('ratio')} vezes a sua média recente.`,
    patterns: (v) => `O último candle mostra: ${v.list('patterns', pt.pattern).join(pt.comma)}.`,
  },
};

const ja: Phrases = {
  sep: '',
  comma: '、',
  action: { buy: '買い', hold: '様子見', sell: '売り' },
  holdReason: {
    no_edge: '優位性なし（確率がコスト控除後の損益分岐を上回らない）',
    conflicting: '要因が一方向を明確に示していない',
    insufficient_data: '要因を計算するための履歴が不足している',
    poor_reward: 'コスト控除後、第一目標までの利益がリスクに対して小さすぎる',
  },
  trend: { up: '上昇', down: '下降', sideways: '横ばい' },
  rsi: { overbought: '買われ過ぎ', oversold: '売られ過ぎ', neutral: '中立圏' },
  macd: { bullish: '強気', bearish: '弱気' },
  rating: { strong_buy: '強い買い', buy: '買い', neutral: '中立', sell: '売り', strong_sell: '強い売り' },
  zone: {
    extreme_fear: '極度の恐怖',
    fear: '恐怖',
    neutral: '中立',
    greed: '強欲',
    extreme_greed: '極度の強欲',
  },
  phase: { accumulation: '集積', markup: '上昇', distribution: '分配', markdown: '下落', range: '保ち合い' },
  direction: { long: 'ロング', short: 'ショート' },
  pattern: {
    bullish_engulfing: '強気の包み足',
    bearish_engulfing: '弱気の包み足',
    hammer: 'ハンマー',
    shooting_star: 'シューティングスター',
    doji: '十字線',
  },
  zoneKind: { support: 'サポートゾーン', resistance: 'レジスタンスゾーン' },
  reason: {
    no_direction: 'シグナルが取引を求めていないため',
    no_trend: 'トレンドが横ばいで方向を選べないため',
    insufficient_data: 'トレンドを読むにはローソク足が少なすぎるため',
    atr_warmup: 'ボラティリティ（ATR）がまだ測れず、ストップと目標を設定できないため',
    risk_below_cost: 'ストップが狭すぎて取引コストがリスクの多くを占めるため',
    degenerate_geometry: '水準から有効な価格が得られないため',
    target_blocked: '強い逆方向のゾーンが近すぎて目標を置く余地がないため',
    poor_reward: 'コスト控除後、第一目標の利益がリスクに対して小さすぎるため',
    session_close: 'エントリーできる前にセッションが終わるため',
  },
  factor: {
    trend: 'トレンド',
    momentum: 'モメンタム',
    sentiment: 'センチメント',
    breakout: 'ブレイクアウト',
    risk: 'リスク',
    cycle_phase: '市場局面',
  },
  ratingDiffers: (v) =>
    `テクニカル評価（指標の票の集計）は「${v.w('rating', ja.rating)}」（${v.t('value')}）です。「${v.w('signal', ja.action)}」シグナルはセンチメント、リスク、市場局面も加味するため、両者は異なります。` +
    (v.has('factor') ? `評価の方向に最も強く逆らった要因は${v.w('factor', ja.factor)}です。` : ''),
  ratingHeld: (v) =>
    `テクニカル評価（指標の票の集計）は「${v.w('rating', ja.rating)}」（${v.t('value')}）で、シグナルの要因も同じ方向に傾いていますが、${v.w('gate', ja.gate)}ため、シグナルは「${v.w('signal', ja.action)}」です。`,
  gate: {
    no_edge: 'その方向のプランにはコスト控除後の優位性がない',
    poor_reward: 'その方向のプランはコスト控除後のリスクに対するリターンが小さすぎる',
  },
  phaseDiffers: (v) =>
    `この局面はより長い周期を表すため、短期の${v.w('trend', ja.trend)}トレンドと異なることがあります。`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `価格は${priceWithQuote(v)}、直近の足の騰落率は${v.t('change_pct')}です。`
        : `価格は${priceWithQuote(v)}です。`,
    history: (v) =>
      v.has('needed')
        ? `評価するには履歴が足りません（ローソク足${v.t('candles')}本、評価には${v.t('needed')}本が必要）。`
        : '評価するにはまだ履歴が足りません。',
    signal: (v) =>
      v.t('action') === 'hold'
        ? `シグナルは「${v.w('action', ja.action)}」です：${v.w('hold_reason', ja.holdReason)}。` +
          (v.has('declined')
            ? `見送った「${v.w('declined', ja.action)}」の計画が損切りより先に第一目標に達する確率は${v.t('probability_pct')}、損益分岐に必要な確率は${v.t('break_even_pct')}です。`
            : '')
        : v.has('expected_r')
          ? `シグナルは「${v.w('action', ja.action)}」です。計画が損切りより先に第一目標に達する確率は${v.t('confidence_pct')}、コスト控除後の損益分岐は${v.t('break_even_pct')}、期待値は${v.t('expected_r')}R（${v.t('expected_r_low')}〜${v.t('expected_r_high')}）です。`
          : `シグナルは「${v.w('action', ja.action)}」です。計画が損切りより先に第一目標に達する確率は${v.t('confidence_pct')}です。`,
    trend: (v) =>
      v.has('adx')
        ? `トレンドは${v.w('direction', ja.trend)}です（ADX ${v.t('adx')}）。`
        : `トレンドは${v.w('direction', ja.trend)}です。`,
    momentum: (v) =>
      `RSIは${v.t('rsi')}で${v.w('rsi_state', ja.rsi)}${v.has('macd') ? `、MACDは${v.w('macd', ja.macd)}` : ''}です。`,
    technical_rating: (v) => `テクニカル評価は「${v.w('rating', ja.rating)}」（${v.t('value')}）です。`,
    fear_greed: (v) => `恐怖・強欲指数は${v.t('score')}（${v.w('zone', ja.zone)}）です。`,
    regime: (v) =>
      fresh(v)
        ? `市場は${v.w('phase', ja.phase)}局面に入ったところです。`
        : `市場は${v.t('bars')}本前から${v.w('phase', ja.phase)}局面にあります。`,
    regime_change: (v) => `市場は${v.w('from', ja.phase)}局面から${v.w('to', ja.phase)}局面に移行したところです。`,
    support: (v) => `最も近いサポートは${v.t('price')}（${v.t('distance_pct')}先）です。`,
    resistance: (v) => `最も近いレジスタンスは${v.t('price')}（${v.t('distance_pct')}先）です。`,
    inside_zone: (v) => `価格は${v.w('kind', ja.zoneKind)}（${v.t('low')}〜${v.t('high')}）の内側にあります。`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `「${v.w('signal', ja.action)}」シグナルに対するトレードプランはありません：${v.w('reason', ja.reason)}。`
        : `トレードプランはありません：${v.w('reason', ja.reason)}。`,
    plan: (v) =>
      `トレードプランは${v.w('direction', ja.direction)}：エントリー${v.t('entry_low')}〜${v.t('entry_high')}、ストップ${v.t('stop')}、${
        v.has('target_2') ? `目標${v.t('target_1')}と${v.t('target_2')}` : `目標${v.t('target_1')}`
      }（リスクリワード${v.t('risk_reward')}${v.has('risk_reward_net') ? `、コスト控除後${v.t('risk_reward_net')}` : ''}）です。`,
    volatility: (v) => `ボラティリティ（ATR）は価格の${v.t('atr_pct')}です。`,
    volume: (v) => `出来高は直近平均の${v.t('ratio')}倍です。`,
    patterns: (v) => `直近の足のパターン：${v.list('patterns', ja.pattern).join(ja.comma)}。`,
  },
};

const zh: Phrases = {
  sep: '',
  comma: '、',
  action: { buy: '买入', hold: '持有', sell: '卖出' },
  holdReason: {
    no_edge: '没有优势：概率未超过扣除成本后的盈亏平衡点',
    conflicting: '各因素没有明确指向一方',
    insufficient_data: '历史数据不足，无法计算各因素',
    poor_reward: '扣除成本后，第一目标的收益相对风险过小',
  },
  trend: { up: '向上', down: '向下', sideways: '横盘' },
  rsi: { overbought: '超买', oversold: '超卖', neutral: '中性' },
  macd: { bullish: '看涨', bearish: '看跌' },
  rating: { strong_buy: '强力买入', buy: '买入', neutral: '中性', sell: '卖出', strong_sell: '强力卖出' },
  zone: {
    extreme_fear: '极度恐惧',
    fear: '恐惧',
    neutral: '中性',
    greed: '贪婪',
    extreme_greed: '极度贪婪',
  },
  phase: { accumulation: '吸筹', markup: '拉升', distribution: '派发', markdown: '下跌', range: '震荡' },
  direction: { long: '做多', short: '做空' },
  pattern: {
    bullish_engulfing: '看涨吞没',
    bearish_engulfing: '看跌吞没',
    hammer: '锤子线',
    shooting_star: '射击之星',
    doji: '十字星',
  },
  zoneKind: { support: '支撑区', resistance: '阻力区' },
  reason: {
    no_direction: '信号不要求交易',
    no_trend: '趋势平坦，无法选择方向',
    insufficient_data: 'K线太少，无法判断趋势',
    atr_warmup: '波动率（ATR）尚无法测量，无法设定止损和目标',
    risk_below_cost: '止损过窄，交易成本会占去过多风险',
    degenerate_geometry: '各价位无法构成有效价格',
    target_blocked: '强劲的反向区域过近，没有设置目标的空间',
    poor_reward: '扣除成本后，第一目标的收益相对风险过小',
    session_close: '交易时段在可以入场之前收盘',
  },
  factor: {
    trend: '趋势',
    momentum: '动量',
    sentiment: '情绪',
    breakout: '突破',
    risk: '风险',
    cycle_phase: '市场阶段',
  },
  ratingDiffers: (v) =>
    `技术评级（指标投票的统计）为「${v.w('rating', zh.rating)}」（${v.t('value')}）；「${v.w('signal', zh.action)}」信号还考虑情绪、风险和市场阶段，因此两者不同。` +
    (v.has('factor') ? `与评级方向相反、影响最大的因素是${v.w('factor', zh.factor)}。` : ''),
  ratingHeld: (v) =>
    `技术评级（指标投票的统计）为「${v.w('rating', zh.rating)}」（${v.t('value')}），信号的各因素也倾向同一方向，但${v.w('gate', zh.gate)}，因此信号为「${v.w('signal', zh.action)}」。`,
  gate: {
    no_edge: '该方向的计划扣除成本后没有优势',
    poor_reward: '该方向的计划扣除成本后回报相对风险过小',
  },
  phaseDiffers: (v) => `该阶段反映更长的周期，因此可能与短期${v.w('trend', zh.trend)}趋势不同。`,
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `价格为${priceWithQuote(v)}，最近一根K线涨跌幅为${v.t('change_pct')}。`
        : `价格为${priceWithQuote(v)}。`,
    history: (v) =>
      v.has('needed')
        ? `历史数据不足，无法评级：现有${v.t('candles')}根K线，评级需要${v.t('needed')}根。`
        : '历史数据尚不足，无法评级。',
    signal: (v) =>
      v.t('action') === 'hold'
        ? `信号为「${v.w('action', zh.action)}」：${v.w('hold_reason', zh.holdReason)}。` +
          (v.has('declined')
            ? `被放弃的「${v.w('declined', zh.action)}」计划在止损前到达第一目标的概率为${v.t('probability_pct')}，盈亏平衡所需概率为${v.t('break_even_pct')}。`
            : '')
        : v.has('expected_r')
          ? `信号为「${v.w('action', zh.action)}」：计划在止损前到达第一目标的概率为${v.t('confidence_pct')}，扣除成本后的盈亏平衡概率为${v.t('break_even_pct')}；预期收益${v.t('expected_r')}R（${v.t('expected_r_low')}至${v.t('expected_r_high')}）。`
          : `信号为「${v.w('action', zh.action)}」，计划在止损前到达第一目标的概率为${v.t('confidence_pct')}。`,
    trend: (v) =>
      v.has('adx') ? `趋势${v.w('direction', zh.trend)}（ADX ${v.t('adx')}）。` : `趋势${v.w('direction', zh.trend)}。`,
    momentum: (v) =>
      `RSI为${v.t('rsi')}，处于${v.w('rsi_state', zh.rsi)}区域${v.has('macd') ? `；MACD${v.w('macd', zh.macd)}` : ''}。`,
    technical_rating: (v) => `技术评级为「${v.w('rating', zh.rating)}」（${v.t('value')}）。`,
    fear_greed: (v) => `恐惧与贪婪指数为${v.t('score')}（${v.w('zone', zh.zone)}）。`,
    regime: (v) =>
      fresh(v)
        ? `市场刚进入${v.w('phase', zh.phase)}阶段。`
        : `市场处于${v.w('phase', zh.phase)}阶段已有${v.t('bars')}根K线。`,
    regime_change: (v) => `市场刚从${v.w('from', zh.phase)}阶段转入${v.w('to', zh.phase)}阶段。`,
    support: (v) => `最近的支撑位于${v.t('price')}（距离${v.t('distance_pct')}）。`,
    resistance: (v) => `最近的阻力位于${v.t('price')}（距离${v.t('distance_pct')}）。`,
    inside_zone: (v) => `价格位于${v.w('kind', zh.zoneKind)}（${v.t('low')}至${v.t('high')}）之内。`,
    no_plan: (v) =>
      v.has('signal') && v.t('signal') !== 'hold'
        ? `「${v.w('signal', zh.action)}」信号没有交易计划：${v.w('reason', zh.reason)}。`
        : `没有交易计划：${v.w('reason', zh.reason)}。`,
    plan: (v) =>
      `交易计划为${v.w('direction', zh.direction)}：入场${v.t('entry_low')}至${v.t('entry_high')}，止损${v.t('stop')}，${
        v.has('target_2') ? `目标${v.t('target_1')}和${v.t('target_2')}` : `目标${v.t('target_1')}`
      }（盈亏比${v.t('risk_reward')}${v.has('risk_reward_net') ? `，扣除成本后${v.t('risk_reward_net')}` : ''}）。`,
    volatility: (v) => `波动率（ATR）为价格的${v.t('atr_pct')}。`,
    volume: (v) => `成交量为近期均值的${v.t('ratio')}倍。`,
    patterns: (v) => `最近一根K线出现：${v.list('patterns', zh.pattern).join(zh.comma)}。`,
  },
};

const PHRASES: Record<OverviewLocale, Phrases> = { en, es, de, fr, pt, ja, zh };

/**
 * The overview locale for a requested locale tag: its primary subtag when supported
 * (`pt-BR` -> `pt`, `zh_Hans_CN` -> `zh`, case-insensitive), else `en`.
 */
export function resolveLocale(locale: string | null | undefined): OverviewLocale {
  if (typeof locale !== 'string') return 'en';
  const primary = locale.trim().toLowerCase().split(/[-_]/)[0];
  return (OVERVIEW_LOCALES as readonly string[]).includes(primary) ? (primary as OverviewLocale) : 'en';
}

/**
 * The text of a fact's value in a locale: a number with a `format` written by
 * `Intl.NumberFormat` for the locale's language (`82.580,00` in German, `82,580.00` in English),
 * anything else its `text`. The narrative writes every number this way.
 */
export function formatFactValue(value: FactValue, locale?: string | null): string {
  if (typeof value.value !== 'number' || value.format === undefined) return value.text;
  return formatLocalized(value.value, value.format, resolveLocale(locale), value.tick);
}

function valuesOf(fact: Fact, write: NumberWriter): Values {
  const vals = fact.values;
  const has = (name: string): boolean => Object.hasOwn(vals, name);
  const text = (v: FactValue): string =>
    typeof v.value === 'number' && v.format !== undefined ? write(v.value, v.format, v.tick) : v.text;
  return {
    has,
    t: (name) => (has(name) ? text(vals[name]) : ''),
    n: (name) => {
      const v = has(name) ? vals[name].value : null;
      return typeof v === 'number' ? v : null;
    },
    w: (name, table) => {
      if (!has(name)) return '';
      const raw = String(vals[name].value);
      return Object.hasOwn(table, raw) ? table[raw] : vals[name].text;
    },
    list: (name, table) => {
      if (!has(name)) return [];
      const v = vals[name].value;
      const items = Array.isArray(v) ? (v as readonly string[]) : [String(v)];
      return items.map((x) => (Object.hasOwn(table, x) ? table[x] : x));
    },
  };
}

/**
 * Renders facts (from `overviewFacts`) as a short narrative: one sentence per fact, in the
 * facts' order, in `locale` (`en`, `es`, `de`, `fr`, `pt`, `ja`, `zh`; a regional tag uses its
 * language; any other locale falls back to English, see {@link resolveLocale}). Deterministic:
 * the same facts and locale give the same text. No template holds a number: every number in the
 * text is a fact's value written for the locale ({@link formatFactValue}). Where two facts could
 * read as a contradiction the text says why both stand: a technical rating whose `relation` to
 * the signal is `differs` is called the tally of indicator votes that the signal weighs with
 * more (or, when the fact names a `gate`, a Hold whose factors lean the rating's way and why its
 * gate held); a regime whose `relation` to the trend is `differs` is followed by a sentence saying the
 * phase reads the longer cycle. Facts of an unknown id are skipped.
 */
export function renderOverview(facts: readonly Fact[], locale?: string | null): string {
  const loc = resolveLocale(locale);
  const p = PHRASES[loc];
  const write = numberWriter(loc);
  const out: string[] = [];
  for (const fact of facts) {
    if (!Object.hasOwn(p.say, fact.id)) continue;
    const v = valuesOf(fact, write);
    const differs = v.t('relation') === 'differs';
    if (fact.id === 'technical_rating' && differs) {
      out.push(v.has('gate') ? p.ratingHeld(v) : p.ratingDiffers(v));
      continue;
    }
    out.push(p.say[fact.id](v));
    if ((fact.id === 'regime' || fact.id === 'regime_change') && differs) out.push(p.phaseDiffers(v));
  }
  return out.join(p.sep);
}
