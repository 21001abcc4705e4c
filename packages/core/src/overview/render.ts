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

/** The price with its quote currency when the facts name it: `0.00162 BTC`. */
function priceWithQuote(v: Values): string {
  return v.has('currency') ? `${v.t('close')} ${v.t('currency')}` : v.t('close');
}

/** A phase entered on the last candle: said as "has just entered", never "for 0 candles". */
function fresh(v: Values): boolean {
  const bars = v.n('bars');
  return bars !== null && bars < 1;
}

/** A noun after a count: its singular (a count of one) and its plural. */
type Noun = readonly [one: string, other: string];

/**
 * The sentences of a locale: a fact's sentence in each of its variants (`price_change`: with the
 * change on the last bar), the sentences that say why two facts both stand (`rating_differs`,
 * `rating_held`, `phase_differs`), and the fragments some of them are made of (`plan_target`,
 * `plan_targets`, `plan_net`; `signal_declined` and `rating_differs_factor` follow their sentence).
 */
type TextId =
  | 'price'
  | 'price_change'
  | 'history'
  | 'history_needed'
  | 'signal_hold'
  | 'signal_declined'
  | 'signal_expected'
  | 'signal'
  | 'trend'
  | 'trend_adx'
  | 'momentum'
  | 'momentum_macd'
  | 'technical_rating'
  | 'fear_greed'
  | 'regime_fresh'
  | 'regime'
  | 'regime_change'
  | 'support'
  | 'resistance'
  | 'inside_zone'
  | 'no_plan'
  | 'no_plan_signal'
  | 'plan'
  | 'plan_target'
  | 'plan_targets'
  | 'plan_net'
  | 'volatility'
  | 'volume'
  | 'patterns'
  | 'rating_differs'
  | 'rating_differs_factor'
  | 'rating_held'
  | 'phase_differs';

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
  /** Why a Hold's gate declined the plan its factors lean to, by the signal's reason. */
  gate: Record<string, string>;
  /** The noun after a count of candles (`history`), where the locale says one. */
  candles?: Noun;
  /** The noun after a count of bars (`regime`), where the locale says one. */
  bars?: Noun;
  /**
   * The sentences and the fragments they are made of. `{name}` is filled in by the sentence code
   * ({@link SAY}, one for every locale): a fact's value written for the locale, a word of the tables
   * above, or a fragment (`{targets}`, `{net}`, `{candles_noun}`, `{bars_noun}`).
   */
  text: Record<TextId, string>;
}

// No template below contains a digit: every number in the text comes from a fact.
// Every table is complete: a new sentence (`TextId`) or plan reason fails to compile until each
// locale says it, and a new fact id until {@link SAY} says how it reads.

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
  gate: {
    no_edge: 'the plan on that side has no edge after costs',
    poor_reward: 'the plan on that side offers too little reward for its risk after costs',
  },
  candles: ['candle', 'candles'],
  bars: ['bar', 'bars'],
  text: {
    price: 'The price is {price}.',
    price_change: 'The price is {price}, {change_pct} on the last bar.',
    history: 'There is not enough history to rate it yet.',
    history_needed: 'There is not enough history to rate it: {candles} {candles_noun}, the rating needs {needed}.',
    signal_hold: 'The signal reads {action}: {hold_reason}.',
    signal_declined:
      ' The {declined} plan it declined has a {probability_pct} chance of reaching the first target before the stop, against {break_even_pct} needed to break even.',
    signal_expected:
      'The signal reads {action}: a {confidence_pct} chance that its plan reaches the first target before the stop, against {break_even_pct} to break even after costs; expected {expected_r} R ({expected_r_low} to {expected_r_high}).',
    signal:
      'The signal reads {action}, a {confidence_pct} chance that its plan reaches the first target before the stop.',
    trend: 'The trend is {direction}.',
    trend_adx: 'The trend is {direction} (ADX {adx}).',
    momentum: 'RSI stands at {rsi}, {rsi_state}.',
    momentum_macd: 'RSI stands at {rsi}, {rsi_state}; MACD is {macd}.',
    technical_rating: 'The technical rating is {rating} ({value}).',
    fear_greed: 'Fear & Greed stands at {score} ({zone}).',
    regime_fresh: 'The market has just entered {phase}.',
    regime: 'The market has been in {phase} for {bars} {bars_noun}.',
    regime_change: 'The market has just moved from {from} to {to}.',
    support: 'The nearest support is at {price}, {distance_pct} away.',
    resistance: 'The nearest resistance is at {price}, {distance_pct} away.',
    inside_zone: 'The price is inside a {kind} ({low} to {high}).',
    no_plan: 'There is no trade plan: {reason}.',
    no_plan_signal: 'There is no trade plan for the {signal} signal: {reason}.',
    plan: 'The trade plan is {direction}: entry {entry_low} to {entry_high}, stop {stop}, {targets} (risk/reward {risk_reward}{net}).',
    plan_target: 'target {target_1}',
    plan_targets: 'targets {target_1} and {target_2}',
    plan_net: ', {risk_reward_net} after costs',
    volatility: 'Volatility (ATR) is {atr_pct} of the price.',
    volume: 'Volume is {ratio} times its recent average.',
    patterns: 'The last candle shows: {patterns}.',
    rating_differs:
      'The technical rating, a tally of indicator votes, is {rating} ({value}); the {signal} signal also weighs sentiment, risk and the market phase, which is why the two differ.',
    rating_differs_factor: " The factor that weighed most against the rating's side is {factor}.",
    rating_held:
      "The technical rating, a tally of indicator votes, is {rating} ({value}), and the signal's factors lean the same way; the signal is {signal} because {gate}.",
    phase_differs: 'This phase describes the longer cycle, so it can differ from the short-term {trend} trend.',
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
  gate: {
    no_edge: 'el plan de ese lado no tiene ventaja después de costes',
    poor_reward: 'el plan de ese lado ofrece muy poca recompensa para su riesgo después de costes',
  },
  candles: ['vela', 'velas'],
  bars: ['vela', 'velas'],
  text: {
    price: 'El precio está en {price}.',
    price_change: 'El precio está en {price}, {change_pct} en la última vela.',
    history: 'Todavía no hay historial suficiente para valorarlo.',
    history_needed:
      'No hay historial suficiente para valorarlo: {candles} {candles_noun}, la valoración necesita {needed}.',
    signal_hold: 'La señal es {action}: {hold_reason}.',
    signal_declined:
      ' El plan para {declined} que descartó tiene una probabilidad del {probability_pct} de alcanzar el primer objetivo antes del stop, frente al {break_even_pct} necesario para cubrir costes.',
    signal_expected:
      'La señal es {action}: una probabilidad del {confidence_pct} de que su plan alcance el primer objetivo antes del stop, frente al {break_even_pct} necesario para cubrir costes; R esperado {expected_r} (de {expected_r_low} a {expected_r_high}).',
    signal:
      'La señal es {action}, con una probabilidad del {confidence_pct} de que su plan alcance el primer objetivo antes del stop.',
    trend: 'La tendencia es {direction}.',
    trend_adx: 'La tendencia es {direction} (ADX {adx}).',
    momentum: 'El RSI está en {rsi}, {rsi_state}.',
    momentum_macd: 'El RSI está en {rsi}, {rsi_state}; el MACD es {macd}.',
    technical_rating: 'La calificación técnica es {rating} ({value}).',
    fear_greed: 'El índice de miedo y codicia marca {score} ({zone}).',
    regime_fresh: 'El mercado acaba de entrar en {phase}.',
    regime: 'El mercado está en {phase} desde hace {bars} {bars_noun}.',
    regime_change: 'El mercado acaba de pasar de {from} a {to}.',
    support: 'El soporte más cercano está en {price}, a {distance_pct}.',
    resistance: 'La resistencia más cercana está en {price}, a {distance_pct}.',
    inside_zone: 'El precio está dentro de una {kind} ({low} a {high}).',
    no_plan: 'No hay plan de operación: {reason}.',
    no_plan_signal: 'No hay plan de operación para la señal {signal}: {reason}.',
    plan: 'El plan es operar {direction}: entrada entre {entry_low} y {entry_high}, stop en {stop}, {targets} (riesgo/beneficio {risk_reward}{net}).',
    plan_target: 'objetivo {target_1}',
    plan_targets: 'objetivos {target_1} y {target_2}',
    plan_net: ', {risk_reward_net} tras costes',
    volatility: 'La volatilidad (ATR) es del {atr_pct} del precio.',
    volume: 'El volumen es {ratio} veces su media reciente.',
    patterns: 'La última vela muestra: {patterns}.',
    rating_differs:
      'La calificación técnica, un recuento de votos de indicadores, es {rating} ({value}); la señal {signal} pondera además el sentimiento, el riesgo y la fase del mercado, por eso difieren.',
    rating_differs_factor: ' El factor que más pesó en contra del lado de la calificación: {factor}.',
    rating_held:
      'La calificación técnica, un recuento de votos de indicadores, es {rating} ({value}), y los factores de la señal se inclinan hacia el mismo lado; la señal es {signal} porque {gate}.',
    phase_differs:
      'Esta fase describe el ciclo más largo, por eso puede diferir de la tendencia {trend} a corto plazo.',
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
  gate: {
    no_edge: 'der Plan auf dieser Seite nach Kosten keinen Vorteil hat',
    poor_reward: 'der Plan auf dieser Seite nach Kosten zu wenig Ertrag für sein Risiko bietet',
  },
  candles: ['Kerze', 'Kerzen'],
  bars: ['Kerze', 'Kerzen'],
  text: {
    price: 'Der Kurs liegt bei {price}.',
    price_change: 'Der Kurs liegt bei {price}, {change_pct} in der letzten Kerze.',
    history: 'Für eine Bewertung reicht die Historie noch nicht aus.',
    history_needed:
      'Für eine Bewertung reicht die Historie nicht aus: {candles} {candles_noun}, die Bewertung braucht {needed}.',
    signal_hold: 'Das Signal lautet {action}: {hold_reason}.',
    signal_declined:
      ' Der verworfene Plan ({declined}) erreicht das erste Ziel mit {probability_pct} Wahrscheinlichkeit vor dem Stopp; für den Break-even wären {break_even_pct} nötig.',
    signal_expected:
      'Das Signal lautet {action}: Mit {confidence_pct} Wahrscheinlichkeit erreicht der Plan das erste Ziel vor dem Stopp, der Break-even nach Kosten liegt bei {break_even_pct}; erwartetes R {expected_r} ({expected_r_low} bis {expected_r_high}).',
    signal:
      'Das Signal lautet {action}; mit {confidence_pct} Wahrscheinlichkeit erreicht der Plan das erste Ziel vor dem Stopp.',
    trend: 'Der Trend ist {direction}.',
    trend_adx: 'Der Trend ist {direction} (ADX {adx}).',
    momentum: 'Der RSI steht bei {rsi} ({rsi_state}).',
    momentum_macd: 'Der RSI steht bei {rsi} ({rsi_state}); der MACD ist {macd}.',
    technical_rating: 'Das technische Rating lautet {rating} ({value}).',
    fear_greed: 'Der Fear-&-Greed-Index steht bei {score} ({zone}).',
    regime_fresh: 'Der Markt ist soeben in die {phase} eingetreten.',
    regime: 'Der Markt befindet sich seit {bars} {bars_noun} in der {phase}.',
    regime_change: 'Der Markt ist soeben von der {from} in die {to} übergegangen.',
    support: 'Die nächste Unterstützung liegt bei {price}, {distance_pct} entfernt.',
    resistance: 'Der nächste Widerstand liegt bei {price}, {distance_pct} entfernt.',
    inside_zone: 'Der Kurs liegt innerhalb einer {kind} ({low} bis {high}).',
    no_plan: 'Es gibt keinen Handelsplan: {reason}.',
    no_plan_signal: 'Es gibt keinen Handelsplan für das Signal {signal}: {reason}.',
    plan: 'Der Handelsplan ist {direction}: Einstieg {entry_low} bis {entry_high}, Stop {stop}, {targets} (Chance/Risiko {risk_reward}{net}).',
    plan_target: 'Ziel {target_1}',
    plan_targets: 'Ziele {target_1} und {target_2}',
    plan_net: ', {risk_reward_net} nach Kosten',
    volatility: 'Die Volatilität (ATR) beträgt {atr_pct} des Kurses.',
    volume: 'Das Volumen liegt beim {ratio}-Fachen seines jüngsten Durchschnitts.',
    patterns: 'Die letzte Kerze zeigt: {patterns}.',
    rating_differs:
      'Das technische Rating, eine Zählung von Indikatorstimmen, lautet {rating} ({value}); das Signal {signal} gewichtet zusätzlich Stimmung, Risiko und Marktphase, daher weichen beide voneinander ab.',
    rating_differs_factor: ' Am stärksten gegen die Seite des Ratings wog der Faktor {factor}.',
    rating_held:
      'Das technische Rating, eine Zählung von Indikatorstimmen, lautet {rating} ({value}), und die Faktoren des Signals neigen zur selben Seite; das Signal lautet {signal}, weil {gate}.',
    phase_differs:
      'Diese Phase beschreibt den längeren Zyklus und kann daher vom kurzfristigen Trend ({trend}) abweichen.',
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
  gate: {
    no_edge: "le plan de ce côté n'a pas d'avantage après frais",
    poor_reward: 'le plan de ce côté offre trop peu de gain pour son risque après frais',
  },
  candles: ['bougie', 'bougies'],
  bars: ['bougie', 'bougies'],
  text: {
    price: 'Le cours est à {price}.',
    price_change: 'Le cours est à {price}, {change_pct} sur la dernière bougie.',
    history: "L'historique ne suffit pas encore pour l'évaluer.",
    history_needed:
      "L'historique ne suffit pas pour l'évaluer : {candles} {candles_noun}, l'évaluation en demande {needed}.",
    signal_hold: 'Le signal est {action} : {hold_reason}.',
    signal_declined:
      " Le plan écarté ({declined}) a {probability_pct} de chances d'atteindre le premier objectif avant le stop, contre {break_even_pct} nécessaires pour être à l'équilibre.",
    signal_expected:
      "Le signal est {action} : {confidence_pct} de chances que son plan atteigne le premier objectif avant le stop, contre {break_even_pct} pour être à l'équilibre après frais ; R attendu {expected_r} (de {expected_r_low} à {expected_r_high}).",
    signal:
      'Le signal est {action}, avec {confidence_pct} de chances que son plan atteigne le premier objectif avant le stop.',
    trend: 'La tendance est {direction}.',
    trend_adx: 'La tendance est {direction} (ADX {adx}).',
    momentum: 'Le RSI est à {rsi} ({rsi_state}).',
    momentum_macd: 'Le RSI est à {rsi} ({rsi_state}) ; le MACD est {macd}.',
    technical_rating: 'La note technique est {rating} ({value}).',
    fear_greed: "L'indice peur et avidité est à {score} ({zone}).",
    regime_fresh: "Le marché vient d'entrer en {phase}.",
    regime: 'Le marché est en {phase} depuis {bars} {bars_noun}.',
    regime_change: 'Le marché vient de passer de la {from} à la {to}.',
    support: 'Le support le plus proche est à {price}, soit à {distance_pct}.',
    resistance: 'La résistance la plus proche est à {price}, soit à {distance_pct}.',
    inside_zone: "Le cours est à l'intérieur d'une {kind} ({low} à {high}).",
    no_plan: "Il n'y a pas de plan de trading : {reason}.",
    no_plan_signal: "Il n'y a pas de plan de trading pour le signal {signal} : {reason}.",
    plan: 'Le plan est {direction} : entrée entre {entry_low} et {entry_high}, stop à {stop}, {targets} (rapport gain/risque {risk_reward}{net}).',
    plan_target: 'objectif {target_1}',
    plan_targets: 'objectifs {target_1} et {target_2}',
    plan_net: ', {risk_reward_net} après coûts',
    volatility: 'La volatilité (ATR) représente {atr_pct} du cours.',
    volume: 'Le volume atteint {ratio} fois sa moyenne récente.',
    patterns: 'La dernière bougie montre : {patterns}.',
    rating_differs:
      "La note technique, un décompte des votes des indicateurs, est {rating} ({value}) ; le signal {signal} pondère aussi le sentiment, le risque et la phase du marché, d'où l'écart.",
    rating_differs_factor: ' Le facteur qui a le plus pesé contre le côté de la note : {factor}.',
    rating_held:
      'La note technique, un décompte des votes des indicateurs, est {rating} ({value}), et les facteurs du signal penchent du même côté ; le signal est {signal} car {gate}.',
    phase_differs: 'Cette phase décrit le cycle long et peut donc différer de la tendance {trend} à court terme.',
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
  gate: {
    no_edge: 'o plano desse lado não tem vantagem depois dos custos',
    poor_reward: 'o plano desse lado oferece pouco retorno para o seu risco depois dos custos',
  },
  candles: ['candle', 'candles'],
  bars: ['candle', 'candles'],
  text: {
    price: 'O preço está em {price}.',
    price_change: 'O preço está em {price}, {change_pct} no último candle.',
    history: 'Ainda não há histórico suficiente para avaliá-lo.',
    history_needed:
      'Não há histórico suficiente para avaliá-lo: {candles} {candles_noun}, a avaliação precisa de {needed}.',
    signal_hold: 'O sinal é {action}: {hold_reason}.',
    signal_declined:
      ' O plano descartado ({declined}) tem {probability_pct} de probabilidade de atingir o primeiro alvo antes do stop, contra {break_even_pct} necessários para empatar.',
    signal_expected:
      'O sinal é {action}: {confidence_pct} de probabilidade de o plano atingir o primeiro alvo antes do stop, contra {break_even_pct} para empatar após custos; R esperado {expected_r} (de {expected_r_low} a {expected_r_high}).',
    signal:
      'O sinal é {action}, com {confidence_pct} de probabilidade de o plano atingir o primeiro alvo antes do stop.',
    trend: 'A tendência é {direction}.',
    trend_adx: 'A tendência é {direction} (ADX {adx}).',
    momentum: 'O RSI está em {rsi} ({rsi_state}).',
    momentum_macd: 'O RSI está em {rsi} ({rsi_state}); o MACD está {macd}.',
    technical_rating: 'A classificação técnica é {rating} ({value}).',
    fear_greed: 'O índice de medo e ganância está em {score} ({zone}).',
    regime_fresh: 'O mercado acaba de entrar em {phase}.',
    regime: 'O mercado está em {phase} há {bars} {bars_noun}.',
    regime_change: 'O mercado acabou de passar da {from} para a {to}.',
    support: 'O suporte mais próximo está em {price}, a {distance_pct} de distância.',
    resistance: 'A resistência mais próxima está em {price}, a {distance_pct} de distância.',
    inside_zone: 'O preço está dentro de uma {kind} ({low} a {high}).',
    no_plan: 'Não há plano de operação: {reason}.',
    no_plan_signal: 'Não há plano de operação para o sinal {signal}: {reason}.',
    plan: 'O plano é operar {direction}: entrada entre {entry_low} e {entry_high}, stop em {stop}, {targets} (risco/retorno {risk_reward}{net}).',
    plan_target: 'alvo {target_1}',
    plan_targets: 'alvos {target_1} e {target_2}',
    plan_net: ', {risk_reward_net} após custos',
    volatility: 'A volatilidade (ATR) é de {atr_pct} do preço.',
    volume: 'O volume está em {ratio} vezes a sua média recente.',
    patterns: 'O último candle mostra: {patterns}.',
    rating_differs:
      'A classificação técnica, uma contagem de votos de indicadores, é {rating} ({value}); o sinal {signal} também pondera sentimento, risco e fase do mercado, por isso os dois diferem.',
    rating_differs_factor: ' O fator que mais pesou contra o lado da classificação: {factor}.',
    rating_held:
      'A classificação técnica, uma contagem de votos de indicadores, é {rating} ({value}), e os fatores do sinal apontam para o mesmo lado; o sinal é {signal} porque {gate}.',
    phase_differs: 'Esta fase descreve o ciclo mais longo, por isso pode diferir da tendência {trend} de curto prazo.',
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
  gate: {
    no_edge: 'その方向のプランにはコスト控除後の優位性がない',
    poor_reward: 'その方向のプランはコスト控除後のリスクに対するリターンが小さすぎる',
  },
  text: {
    price: '価格は{price}です。',
    price_change: '価格は{price}、直近の足の騰落率は{change_pct}です。',
    history: '評価するにはまだ履歴が足りません。',
    history_needed: '評価するには履歴が足りません（ローソク足{candles}本、評価には{needed}本が必要）。',
    signal_hold: 'シグナルは「{action}」です：{hold_reason}。',
    signal_declined:
      '見送った「{declined}」の計画が損切りより先に第一目標に達する確率は{probability_pct}、損益分岐に必要な確率は{break_even_pct}です。',
    signal_expected:
      'シグナルは「{action}」です。計画が損切りより先に第一目標に達する確率は{confidence_pct}、コスト控除後の損益分岐は{break_even_pct}、期待値は{expected_r}R（{expected_r_low}〜{expected_r_high}）です。',
    signal: 'シグナルは「{action}」です。計画が損切りより先に第一目標に達する確率は{confidence_pct}です。',
    trend: 'トレンドは{direction}です。',
    trend_adx: 'トレンドは{direction}です（ADX {adx}）。',
    momentum: 'RSIは{rsi}で{rsi_state}です。',
    momentum_macd: 'RSIは{rsi}で{rsi_state}、MACDは{macd}です。',
    technical_rating: 'テクニカル評価は「{rating}」（{value}）です。',
    fear_greed: '恐怖・強欲指数は{score}（{zone}）です。',
    regime_fresh: '市場は{phase}局面に入ったところです。',
    regime: '市場は{bars}本前から{phase}局面にあります。',
    regime_change: '市場は{from}局面から{to}局面に移行したところです。',
    support: '最も近いサポートは{price}（{distance_pct}先）です。',
    resistance: '最も近いレジスタンスは{price}（{distance_pct}先）です。',
    inside_zone: '価格は{kind}（{low}〜{high}）の内側にあります。',
    no_plan: 'トレードプランはありません：{reason}。',
    no_plan_signal: '「{signal}」シグナルに対するトレードプランはありません：{reason}。',
    plan: 'トレードプランは{direction}：エントリー{entry_low}〜{entry_high}、ストップ{stop}、{targets}（リスクリワード{risk_reward}{net}）です。',
    plan_target: '目標{target_1}',
    plan_targets: '目標{target_1}と{target_2}',
    plan_net: '、コスト控除後{risk_reward_net}',
    volatility: 'ボラティリティ（ATR）は価格の{atr_pct}です。',
    volume: '出来高は直近平均の{ratio}倍です。',
    patterns: '直近の足のパターン：{patterns}。',
    rating_differs:
      'テクニカル評価（指標の票の集計）は「{rating}」（{value}）です。「{signal}」シグナルはセンチメント、リスク、市場局面も加味するため、両者は異なります。',
    rating_differs_factor: '評価の方向に最も強く逆らった要因は{factor}です。',
    rating_held:
      'テクニカル評価（指標の票の集計）は「{rating}」（{value}）で、シグナルの要因も同じ方向に傾いていますが、{gate}ため、シグナルは「{signal}」です。',
    phase_differs: 'この局面はより長い周期を表すため、短期の{trend}トレンドと異なることがあります。',
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
  gate: {
    no_edge: '该方向的计划扣除成本后没有优势',
    poor_reward: '该方向的计划扣除成本后回报相对风险过小',
  },
  text: {
    price: '价格为{price}。',
    price_change: '价格为{price}，最近一根K线涨跌幅为{change_pct}。',
    history: '历史数据尚不足，无法评级。',
    history_needed: '历史数据不足，无法评级：现有{candles}根K线，评级需要{needed}根。',
    signal_hold: '信号为「{action}」：{hold_reason}。',
    signal_declined:
      '被放弃的「{declined}」计划在止损前到达第一目标的概率为{probability_pct}，盈亏平衡所需概率为{break_even_pct}。',
    signal_expected:
      '信号为「{action}」：计划在止损前到达第一目标的概率为{confidence_pct}，扣除成本后的盈亏平衡概率为{break_even_pct}；预期收益{expected_r}R（{expected_r_low}至{expected_r_high}）。',
    signal: '信号为「{action}」，计划在止损前到达第一目标的概率为{confidence_pct}。',
    trend: '趋势{direction}。',
    trend_adx: '趋势{direction}（ADX {adx}）。',
    momentum: 'RSI为{rsi}，处于{rsi_state}区域。',
    momentum_macd: 'RSI为{rsi}，处于{rsi_state}区域；MACD{macd}。',
    technical_rating: '技术评级为「{rating}」（{value}）。',
    fear_greed: '恐惧与贪婪指数为{score}（{zone}）。',
    regime_fresh: '市场刚进入{phase}阶段。',
    regime: '市场处于{phase}阶段已有{bars}根K线。',
    regime_change: '市场刚从{from}阶段转入{to}阶段。',
    support: '最近的支撑位于{price}（距离{distance_pct}）。',
    resistance: '最近的阻力位于{price}（距离{distance_pct}）。',
    inside_zone: '价格位于{kind}（{low}至{high}）之内。',
    no_plan: '没有交易计划：{reason}。',
    no_plan_signal: '「{signal}」信号没有交易计划：{reason}。',
    plan: '交易计划为{direction}：入场{entry_low}至{entry_high}，止损{stop}，{targets}（盈亏比{risk_reward}{net}）。',
    plan_target: '目标{target_1}',
    plan_targets: '目标{target_1}和{target_2}',
    plan_net: '，扣除成本后{risk_reward_net}',
    volatility: '波动率（ATR）为价格的{atr_pct}。',
    volume: '成交量为近期均值的{ratio}倍。',
    patterns: '最近一根K线出现：{patterns}。',
    rating_differs:
      '技术评级（指标投票的统计）为「{rating}」（{value}）；「{signal}」信号还考虑情绪、风险和市场阶段，因此两者不同。',
    rating_differs_factor: '与评级方向相反、影响最大的因素是{factor}。',
    rating_held:
      '技术评级（指标投票的统计）为「{rating}」（{value}），信号的各因素也倾向同一方向，但{gate}，因此信号为「{signal}」。',
    phase_differs: '该阶段反映更长的周期，因此可能与短期{trend}趋势不同。',
  },
};

const PHRASES: Record<OverviewLocale, Phrases> = { en, es, de, fr, pt, ja, zh };

/** A word table by the name of the value it translates. */
type Words = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * A sentence with its `{name}` slots filled: from `given` when it names the slot, else the value
 * `name` translated by `words[name]` when `words` names it, else the value `name` as written for the
 * locale ('' when the fact has none).
 */
function fill(template: string, v: Values, words: Words = {}, given: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (Object.hasOwn(given, name)) return given[name];
    return Object.hasOwn(words, name) ? v.w(name, words[name]) : v.t(name);
  });
}

/** The singular or the plural of a noun after a count ('' where the locale says none). */
function noun(n: Noun | undefined, one: boolean): string {
  return n === undefined ? '' : one ? n[0] : n[1];
}

type Say = (v: Values, p: Phrases) => string;

/** Each fact's sentence, the same for every locale: which variant, and what fills its slots. */
const SAY: Record<FactId, Say> = {
  price: (v, p) => fill(p.text[v.has('change_pct') ? 'price_change' : 'price'], v, {}, { price: priceWithQuote(v) }),
  history: (v, p) =>
    v.has('needed')
      ? fill(p.text.history_needed, v, {}, { candles_noun: noun(p.candles, v.t('candles') === '1') })
      : p.text.history,
  signal: (v, p) =>
    v.t('action') === 'hold'
      ? fill(p.text.signal_hold, v, { action: p.action, hold_reason: p.holdReason }) +
        (v.has('declined') ? fill(p.text.signal_declined, v, { declined: p.action }) : '')
      : fill(p.text[v.has('expected_r') ? 'signal_expected' : 'signal'], v, { action: p.action }),
  trend: (v, p) => fill(p.text[v.has('adx') ? 'trend_adx' : 'trend'], v, { direction: p.trend }),
  momentum: (v, p) => fill(p.text[v.has('macd') ? 'momentum_macd' : 'momentum'], v, { rsi_state: p.rsi, macd: p.macd }),
  technical_rating: (v, p) => fill(p.text.technical_rating, v, { rating: p.rating }),
  fear_greed: (v, p) => fill(p.text.fear_greed, v, { zone: p.zone }),
  regime: (v, p) =>
    fresh(v)
      ? fill(p.text.regime_fresh, v, { phase: p.phase })
      : fill(p.text.regime, v, { phase: p.phase }, { bars_noun: noun(p.bars, v.n('bars') === 1) }),
  regime_change: (v, p) => fill(p.text.regime_change, v, { from: p.phase, to: p.phase }),
  support: (v, p) => fill(p.text.support, v),
  resistance: (v, p) => fill(p.text.resistance, v),
  inside_zone: (v, p) => fill(p.text.inside_zone, v, { kind: p.zoneKind }),
  no_plan: (v, p) =>
    fill(p.text[v.has('signal') && v.t('signal') !== 'hold' ? 'no_plan_signal' : 'no_plan'], v, {
      signal: p.action,
      reason: p.reason,
    }),
  plan: (v, p) =>
    fill(
      p.text.plan,
      v,
      { direction: p.direction },
      {
        targets: fill(p.text[v.has('target_2') ? 'plan_targets' : 'plan_target'], v),
        net: v.has('risk_reward_net') ? fill(p.text.plan_net, v) : '',
      },
    ),
  volatility: (v, p) => fill(p.text.volatility, v),
  volume: (v, p) => fill(p.text.volume, v),
  patterns: (v, p) => fill(p.text.patterns, v, {}, { patterns: v.list('patterns', p.pattern).join(p.comma) }),
};

/**
 * The technical rating when it leans to another side than the signal: both stand, and why, naming
 * the factor that pulled hardest from the rating's side when the fact has one; or, when the fact
 * names a `gate`, a Hold whose factors lean the rating's way, held by its gate.
 */
function ratingDiffers(v: Values, p: Phrases): string {
  if (v.has('gate')) return fill(p.text.rating_held, v, { rating: p.rating, signal: p.action, gate: p.gate });
  return (
    fill(p.text.rating_differs, v, { rating: p.rating, signal: p.action }) +
    (v.has('factor') ? fill(p.text.rating_differs_factor, v, { factor: p.factor }) : '')
  );
}

/**
 * The sentence templates of a locale (its `text`), for checking the catalogs: every locale fills
 * the same `{slots}` in a sentence as English does (the plural nouns aside).
 */
export function overviewTemplates(locale: OverviewLocale): Readonly<Record<string, string>> {
  return PHRASES[locale].text;
}

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
    if (!Object.hasOwn(SAY, fact.id)) continue;
    const v = valuesOf(fact, write);
    const differs = v.t('relation') === 'differs';
    if (fact.id === 'technical_rating' && differs) {
      out.push(ratingDiffers(v, p));
      continue;
    }
    out.push(SAY[fact.id](v, p));
    if ((fact.id === 'regime' || fact.id === 'regime_change') && differs) {
      out.push(fill(p.text.phase_differs, v, { trend: p.trend }));
    }
  }
  return out.join(p.sep);
}
