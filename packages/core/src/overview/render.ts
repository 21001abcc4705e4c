import type { Fact, FactId } from './facts.js';

/** Locales the overview is written in. */
export const OVERVIEW_LOCALES = ['en', 'es', 'de', 'fr', 'pt', 'ja', 'zh'] as const;

/** A locale of the overview. */
export type OverviewLocale = (typeof OVERVIEW_LOCALES)[number];

/** Reads one fact's values inside a sentence. */
interface Values {
  /** The formatted text of a value ('' when absent). */
  t(name: string): string;
  has(name: string): boolean;
  /** The text of an enumerated value, translated by `table` (the wire value when unknown). */
  w(name: string, table: Readonly<Record<string, string>>): string;
  /** The items of a list value, each translated by `table`. */
  list(name: string, table: Readonly<Record<string, string>>): string[];
}

type Sentence = (v: Values) => string;

interface Phrases {
  /** Between sentences. */
  sep: string;
  /** Between list items. */
  comma: string;
  action: Record<string, string>;
  trend: Record<string, string>;
  rsi: Record<string, string>;
  macd: Record<string, string>;
  rating: Record<string, string>;
  zone: Record<string, string>;
  phase: Record<string, string>;
  direction: Record<string, string>;
  pattern: Record<string, string>;
  say: Record<FactId, Sentence>;
}

// No template below contains a digit: every number in the text comes from a fact.

const en: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Buy', hold: 'Hold', sell: 'Sell' },
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
  phase: { accumulation: 'accumulation', markup: 'markup', distribution: 'distribution', markdown: 'markdown' },
  direction: { long: 'long', short: 'short' },
  pattern: {
    bullish_engulfing: 'bullish engulfing',
    bearish_engulfing: 'bearish engulfing',
    hammer: 'hammer',
    shooting_star: 'shooting star',
    doji: 'doji',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `The price is ${v.t('close')}, ${v.t('change_pct')} on the last bar.`
        : `The price is ${v.t('close')}.`,
    signal: (v) => `The signal reads ${v.w('action', en.action)} with ${v.t('confidence_pct')} confidence.`,
    trend: (v) =>
      v.has('adx')
        ? `The trend is ${v.w('direction', en.trend)} (ADX ${v.t('adx')}).`
        : `The trend is ${v.w('direction', en.trend)}.`,
    momentum: (v) =>
      `RSI stands at ${v.t('rsi')}, ${v.w('rsi_state', en.rsi)}${v.has('macd') ? `; MACD is ${v.w('macd', en.macd)}` : ''}.`,
    technical_rating: (v) => `The technical rating is ${v.w('rating', en.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `Fear & Greed stands at ${v.t('score')} (${v.w('zone', en.zone)}).`,
    regime: (v) =>
      `The market has been in ${v.w('phase', en.phase)} for ${v.t('bars')} ${v.t('bars') === '1' ? 'bar' : 'bars'}.`,
    regime_change: (v) => `The market has just moved from ${v.w('from', en.phase)} to ${v.w('to', en.phase)}.`,
    support: (v) => `The nearest support is at ${v.t('price')}, ${v.t('distance_pct')} away.`,
    resistance: (v) => `The nearest resistance is at ${v.t('price')}, ${v.t('distance_pct')} away.`,
    plan: (v) =>
      `The trade plan is ${v.w('direction', en.direction)}: entry ${v.t('entry_low')} to ${v.t('entry_high')}, stop ${v.t('stop')}, ${
        v.has('target_2') ? `targets ${v.t('target_1')} and ${v.t('target_2')}` : `target ${v.t('target_1')}`
      } (risk/reward ${v.t('risk_reward')}).`,
    volatility: (v) => `Volatility (ATR) is ${v.t('atr_pct')} of the price.`,
    volume: (v) => `Volume is ${v.t('ratio')} times its recent average.`,
    patterns: (v) => `The last candle shows: ${v.list('patterns', en.pattern).join(en.comma)}.`,
  },
};

const es: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'comprar', hold: 'mantener', sell: 'vender' },
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
  },
  direction: { long: 'largo', short: 'corto' },
  pattern: {
    bullish_engulfing: 'envolvente alcista',
    bearish_engulfing: 'envolvente bajista',
    hammer: 'martillo',
    shooting_star: 'estrella fugaz',
    doji: 'doji',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `El precio está en ${v.t('close')}, ${v.t('change_pct')} en la última vela.`
        : `El precio está en ${v.t('close')}.`,
    signal: (v) => `La señal es ${v.w('action', es.action)} con una confianza del ${v.t('confidence_pct')}.`,
    trend: (v) =>
      v.has('adx')
        ? `La tendencia es ${v.w('direction', es.trend)} (ADX ${v.t('adx')}).`
        : `La tendencia es ${v.w('direction', es.trend)}.`,
    momentum: (v) =>
      `El RSI está en ${v.t('rsi')}, ${v.w('rsi_state', es.rsi)}${v.has('macd') ? `; el MACD es ${v.w('macd', es.macd)}` : ''}.`,
    technical_rating: (v) => `La calificación técnica es ${v.w('rating', es.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `El índice de miedo y codicia marca ${v.t('score')} (${v.w('zone', es.zone)}).`,
    regime: (v) =>
      `El mercado está en ${v.w('phase', es.phase)} desde hace ${v.t('bars')} ${v.t('bars') === '1' ? 'vela' : 'velas'}.`,
    regime_change: (v) => `El mercado acaba de pasar de ${v.w('from', es.phase)} a ${v.w('to', es.phase)}.`,
    support: (v) => `El soporte más cercano está en ${v.t('price')}, a ${v.t('distance_pct')}.`,
    resistance: (v) => `La resistencia más cercana está en ${v.t('price')}, a ${v.t('distance_pct')}.`,
    plan: (v) =>
      `El plan es ${v.w('direction', es.direction)}: entrada entre ${v.t('entry_low')} y ${v.t('entry_high')}, stop en ${v.t('stop')}, ${
        v.has('target_2') ? `objetivos ${v.t('target_1')} y ${v.t('target_2')}` : `objetivo ${v.t('target_1')}`
      } (riesgo/beneficio ${v.t('risk_reward')}).`,
    volatility: (v) => `La volatilidad (ATR) es del ${v.t('atr_pct')} del precio.`,
    volume: (v) => `El volumen es ${v.t('ratio')} veces su media reciente.`,
    patterns: (v) => `La última vela muestra: ${v.list('patterns', es.pattern).join(es.comma)}.`,
  },
};

const de: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Kaufen', hold: 'Halten', sell: 'Verkaufen' },
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
  },
  direction: { long: 'Long', short: 'Short' },
  pattern: {
    bullish_engulfing: 'bullisches Engulfing',
    bearish_engulfing: 'bärisches Engulfing',
    hammer: 'Hammer',
    shooting_star: 'Sternschnuppe',
    doji: 'Doji',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `Der Kurs liegt bei ${v.t('close')}, ${v.t('change_pct')} in der letzten Kerze.`
        : `Der Kurs liegt bei ${v.t('close')}.`,
    signal: (v) => `Das Signal lautet ${v.w('action', de.action)} mit einer Konfidenz von ${v.t('confidence_pct')}.`,
    trend: (v) =>
      v.has('adx')
        ? `Der Trend ist ${v.w('direction', de.trend)} (ADX ${v.t('adx')}).`
        : `Der Trend ist ${v.w('direction', de.trend)}.`,
    momentum: (v) =>
      `Der RSI steht bei ${v.t('rsi')} (${v.w('rsi_state', de.rsi)})${v.has('macd') ? `; der MACD ist ${v.w('macd', de.macd)}` : ''}.`,
    technical_rating: (v) => `Das technische Rating lautet ${v.w('rating', de.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `Der Fear-&-Greed-Index steht bei ${v.t('score')} (${v.w('zone', de.zone)}).`,
    regime: (v) =>
      `Der Markt befindet sich seit ${v.t('bars')} ${v.t('bars') === '1' ? 'Kerze' : 'Kerzen'} in der ${v.w('phase', de.phase)}.`,
    regime_change: (v) =>
      `Der Markt ist soeben von der ${v.w('from', de.phase)} in die ${v.w('to', de.phase)} übergegangen.`,
    support: (v) => `Die nächste Unterstützung liegt bei ${v.t('price')}, ${v.t('distance_pct')} entfernt.`,
    resistance: (v) => `Der nächste Widerstand liegt bei ${v.t('price')}, ${v.t('distance_pct')} entfernt.`,
    plan: (v) =>
      `Der Handelsplan ist ${v.w('direction', de.direction)}: Einstieg ${v.t('entry_low')} bis ${v.t('entry_high')}, Stop ${v.t('stop')}, ${
        v.has('target_2') ? `Ziele ${v.t('target_1')} und ${v.t('target_2')}` : `Ziel ${v.t('target_1')}`
      } (Chance/Risiko ${v.t('risk_reward')}).`,
    volatility: (v) => `Die Volatilität (ATR) beträgt ${v.t('atr_pct')} des Kurses.`,
    volume: (v) => `Das Volumen liegt beim ${v.t('ratio')}-Fachen seines jüngsten Durchschnitts.`,
    patterns: (v) => `Die letzte Kerze zeigt: ${v.list('patterns', de.pattern).join(de.comma)}.`,
  },
};

const fr: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Acheter', hold: 'Conserver', sell: 'Vendre' },
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
  },
  direction: { long: 'acheteur', short: 'vendeur' },
  pattern: {
    bullish_engulfing: 'avalement haussier',
    bearish_engulfing: 'avalement baissier',
    hammer: 'marteau',
    shooting_star: 'étoile filante',
    doji: 'doji',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `Le cours est à ${v.t('close')}, ${v.t('change_pct')} sur la dernière bougie.`
        : `Le cours est à ${v.t('close')}.`,
    signal: (v) => `Le signal est ${v.w('action', fr.action)} avec une confiance de ${v.t('confidence_pct')}.`,
    trend: (v) =>
      v.has('adx')
        ? `La tendance est ${v.w('direction', fr.trend)} (ADX ${v.t('adx')}).`
        : `La tendance est ${v.w('direction', fr.trend)}.`,
    momentum: (v) =>
      `Le RSI est à ${v.t('rsi')} (${v.w('rsi_state', fr.rsi)})${v.has('macd') ? ` ; le MACD est ${v.w('macd', fr.macd)}` : ''}.`,
    technical_rating: (v) => `La note technique est ${v.w('rating', fr.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `L'indice peur et avidité est à ${v.t('score')} (${v.w('zone', fr.zone)}).`,
    regime: (v) =>
      `Le marché est en ${v.w('phase', fr.phase)} depuis ${v.t('bars')} ${v.t('bars') === '1' ? 'bougie' : 'bougies'}.`,
    regime_change: (v) => `Le marché vient de passer de la ${v.w('from', fr.phase)} à la ${v.w('to', fr.phase)}.`,
    support: (v) => `Le support le plus proche est à ${v.t('price')}, soit à ${v.t('distance_pct')}.`,
    resistance: (v) => `La résistance la plus proche est à ${v.t('price')}, soit à ${v.t('distance_pct')}.`,
    plan: (v) =>
      `Le plan est ${v.w('direction', fr.direction)} : entrée entre ${v.t('entry_low')} et ${v.t('entry_high')}, stop à ${v.t('stop')}, ${
        v.has('target_2') ? `objectifs ${v.t('target_1')} et ${v.t('target_2')}` : `objectif ${v.t('target_1')}`
      } (rapport gain/risque ${v.t('risk_reward')}).`,
    volatility: (v) => `La volatilité (ATR) représente ${v.t('atr_pct')} du cours.`,
    volume: (v) => `Le volume atteint ${v.t('ratio')} fois sa moyenne récente.`,
    patterns: (v) => `La dernière bougie montre : ${v.list('patterns', fr.pattern).join(fr.comma)}.`,
  },
};

const pt: Phrases = {
  sep: ' ',
  comma: ', ',
  action: { buy: 'Comprar', hold: 'Manter', sell: 'Vender' },
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
  },
  direction: { long: 'comprado', short: 'vendido' },
  pattern: {
    bullish_engulfing: 'engolfo de alta',
    bearish_engulfing: 'engolfo de baixa',
    hammer: 'martelo',
    shooting_star: 'estrela cadente',
    doji: 'doji',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `O preço está em ${v.t('close')}, ${v.t('change_pct')} no último candle.`
        : `O preço está em ${v.t('close')}.`,
    signal: (v) => `O sinal é ${v.w('action', pt.action)} com confiança de ${v.t('confidence_pct')}.`,
    trend: (v) =>
      v.has('adx')
        ? `A tendência é ${v.w('direction', pt.trend)} (ADX ${v.t('adx')}).`
        : `A tendência é ${v.w('direction', pt.trend)}.`,
    momentum: (v) =>
      `O RSI está em ${v.t('rsi')} (${v.w('rsi_state', pt.rsi)})${v.has('macd') ? `; o MACD está ${v.w('macd', pt.macd)}` : ''}.`,
    technical_rating: (v) => `A classificação técnica é ${v.w('rating', pt.rating)} (${v.t('value')}).`,
    fear_greed: (v) => `O índice de medo e ganância está em ${v.t('score')} (${v.w('zone', pt.zone)}).`,
    regime: (v) =>
      `O mercado está em ${v.w('phase', pt.phase)} há ${v.t('bars')} ${v.t('bars') === '1' ? 'candle' : 'candles'}.`,
    regime_change: (v) => `O mercado acabou de passar da ${v.w('from', pt.phase)} para a ${v.w('to', pt.phase)}.`,
    support: (v) => `O suporte mais próximo está em ${v.t('price')}, a ${v.t('distance_pct')} de distância.`,
    resistance: (v) => `A resistência mais próxima está em ${v.t('price')}, a ${v.t('distance_pct')} de distância.`,
    plan: (v) =>
      `O plano é ${v.w('direction', pt.direction)}: entrada entre ${v.t('entry_low')} e ${v.t('entry_high')}, stop em ${v.t('stop')}, ${
        v.has('target_2') ? `alvos ${v.t('target_1')} e ${v.t('target_2')}` : `alvo ${v.t('target_1')}`
      } (risco/retorno ${v.t('risk_reward')}).`,
    volatility: (v) => `A volatilidade (ATR) é de ${v.t('atr_pct')} do preço.`,
    volume: (v) => `O volume está em ${v.t('ratio')} vezes a sua média recente.`,
    patterns: (v) => `O último candle mostra: ${v.list('patterns', pt.pattern).join(pt.comma)}.`,
  },
};

const ja: Phrases = {
  sep: '',
  comma: '、',
  action: { buy: '買い', hold: '様子見', sell: '売り' },
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
  phase: { accumulation: '集積', markup: '上昇', distribution: '分配', markdown: '下落' },
  direction: { long: 'ロング', short: 'ショート' },
  pattern: {
    bullish_engulfing: '強気の包み足',
    bearish_engulfing: '弱気の包み足',
    hammer: 'ハンマー',
    shooting_star: 'シューティングスター',
    doji: '十字線',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `価格は${v.t('close')}、直近の足の騰落率は${v.t('change_pct')}です。`
        : `価格は${v.t('close')}です。`,
    signal: (v) => `シグナルは「${v.w('action', ja.action)}」、信頼度は${v.t('confidence_pct')}です。`,
    trend: (v) =>
      v.has('adx')
        ? `トレンドは${v.w('direction', ja.trend)}です（ADX ${v.t('adx')}）。`
        : `トレンドは${v.w('direction', ja.trend)}です。`,
    momentum: (v) =>
      `RSIは${v.t('rsi')}で${v.w('rsi_state', ja.rsi)}${v.has('macd') ? `、MACDは${v.w('macd', ja.macd)}` : ''}です。`,
    technical_rating: (v) => `テクニカル評価は「${v.w('rating', ja.rating)}」（${v.t('value')}）です。`,
    fear_greed: (v) => `恐怖・強欲指数は${v.t('score')}（${v.w('zone', ja.zone)}）です。`,
    regime: (v) => `市場は${v.t('bars')}本前から${v.w('phase', ja.phase)}局面にあります。`,
    regime_change: (v) => `市場は${v.w('from', ja.phase)}局面から${v.w('to', ja.phase)}局面に移行したところです。`,
    support: (v) => `最も近いサポートは${v.t('price')}（${v.t('distance_pct')}先）です。`,
    resistance: (v) => `最も近いレジスタンスは${v.t('price')}（${v.t('distance_pct')}先）です。`,
    plan: (v) =>
      `トレードプランは${v.w('direction', ja.direction)}：エントリー${v.t('entry_low')}〜${v.t('entry_high')}、ストップ${v.t('stop')}、${
        v.has('target_2') ? `目標${v.t('target_1')}と${v.t('target_2')}` : `目標${v.t('target_1')}`
      }（リスクリワード${v.t('risk_reward')}）です。`,
    volatility: (v) => `ボラティリティ（ATR）は価格の${v.t('atr_pct')}です。`,
    volume: (v) => `出来高は直近平均の${v.t('ratio')}倍です。`,
    patterns: (v) => `直近の足のパターン：${v.list('patterns', ja.pattern).join(ja.comma)}。`,
  },
};

const zh: Phrases = {
  sep: '',
  comma: '、',
  action: { buy: '买入', hold: '持有', sell: '卖出' },
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
  phase: { accumulation: '吸筹', markup: '拉升', distribution: '派发', markdown: '下跌' },
  direction: { long: '做多', short: '做空' },
  pattern: {
    bullish_engulfing: '看涨吞没',
    bearish_engulfing: '看跌吞没',
    hammer: '锤子线',
    shooting_star: '射击之星',
    doji: '十字星',
  },
  say: {
    price: (v) =>
      v.has('change_pct')
        ? `价格为${v.t('close')}，最近一根K线涨跌幅为${v.t('change_pct')}。`
        : `价格为${v.t('close')}。`,
    signal: (v) => `信号为「${v.w('action', zh.action)}」，置信度为${v.t('confidence_pct')}。`,
    trend: (v) =>
      v.has('adx') ? `趋势${v.w('direction', zh.trend)}（ADX ${v.t('adx')}）。` : `趋势${v.w('direction', zh.trend)}。`,
    momentum: (v) =>
      `RSI为${v.t('rsi')}，处于${v.w('rsi_state', zh.rsi)}区域${v.has('macd') ? `；MACD${v.w('macd', zh.macd)}` : ''}。`,
    technical_rating: (v) => `技术评级为「${v.w('rating', zh.rating)}」（${v.t('value')}）。`,
    fear_greed: (v) => `恐惧与贪婪指数为${v.t('score')}（${v.w('zone', zh.zone)}）。`,
    regime: (v) => `市场处于${v.w('phase', zh.phase)}阶段已有${v.t('bars')}根K线。`,
    regime_change: (v) => `市场刚从${v.w('from', zh.phase)}阶段转入${v.w('to', zh.phase)}阶段。`,
    support: (v) => `最近的支撑位于${v.t('price')}（距离${v.t('distance_pct')}）。`,
    resistance: (v) => `最近的阻力位于${v.t('price')}（距离${v.t('distance_pct')}）。`,
    plan: (v) =>
      `交易计划为${v.w('direction', zh.direction)}：入场${v.t('entry_low')}至${v.t('entry_high')}，止损${v.t('stop')}，${
        v.has('target_2') ? `目标${v.t('target_1')}和${v.t('target_2')}` : `目标${v.t('target_1')}`
      }（盈亏比${v.t('risk_reward')}）。`,
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

function valuesOf(fact: Fact): Values {
  const vals = fact.values;
  const has = (name: string): boolean => Object.hasOwn(vals, name);
  return {
    has,
    t: (name) => (has(name) ? vals[name].text : ''),
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
 * text is a fact's formatted value, copied verbatim (locale-neutral: `.` decimals in every
 * language). Facts of an unknown id are skipped.
 */
export function renderOverview(facts: readonly Fact[], locale?: string | null): string {
  const p = PHRASES[resolveLocale(locale)];
  const out: string[] = [];
  for (const fact of facts) {
    if (!Object.hasOwn(p.say, fact.id)) continue;
    out.push(p.say[fact.id](valuesOf(fact)));
  }
  return out.join(p.sep);
}
