import { describe, expect, it } from 'vitest';
import type { Fact, FactValue } from './facts.js';
import { formatNeutral } from './format.js';
import { OVERVIEW_LOCALES, type OverviewLocale, renderOverview } from './render.js';

/** The trading terms of each locale, as traders of that language write them. */
const GLOSSARY: Record<OverviewLocale, Record<string, string>> = {
  en: {
    long: 'long',
    short: 'short',
    buy: 'Buy',
    sell: 'Sell',
    hold: 'Hold',
    support: 'support',
    resistance: 'resistance',
    stop: 'stop',
    target: 'target',
    overbought: 'overbought',
    oversold: 'oversold',
  },
  es: {
    long: 'en largo',
    short: 'en corto',
    buy: 'comprar',
    sell: 'vender',
    hold: 'mantener',
    support: 'soporte',
    resistance: 'resistencia',
    stop: 'stop',
    target: 'objetivo',
    overbought: 'sobrecompra',
    oversold: 'sobreventa',
  },
  de: {
    long: 'Long',
    short: 'Short',
    buy: 'Kaufen',
    sell: 'Verkaufen',
    hold: 'Halten',
    support: 'Unterstützung',
    resistance: 'Widerstand',
    stop: 'Stop',
    target: 'Ziel',
    overbought: 'überkauft',
    oversold: 'überverkauft',
  },
  fr: {
    long: 'acheteur',
    short: 'vendeur',
    buy: 'Acheter',
    sell: 'Vendre',
    hold: 'Conserver',
    support: 'support',
    resistance: 'résistance',
    stop: 'stop',
    target: 'objectif',
    overbought: 'surachat',
    oversold: 'survente',
  },
  pt: {
    long: 'operar comprado',
    short: 'operar vendido',
    buy: 'Comprar',
    sell: 'Vender',
    hold: 'Manter',
    support: 'suporte',
    resistance: 'resistência',
    stop: 'stop',
    target: 'alvo',
    overbought: 'sobrecomprado',
    oversold: 'sobrevendido',
  },
  ja: {
    long: 'ロング',
    short: 'ショート',
    buy: '買い',
    sell: '売り',
    hold: '様子見',
    support: 'サポート',
    resistance: 'レジスタンス',
    stop: 'ストップ',
    target: '目標',
    overbought: '買われ過ぎ',
    oversold: '売られ過ぎ',
  },
  zh: {
    long: '做多',
    short: '做空',
    buy: '买入',
    sell: '卖出',
    hold: '持有',
    support: '支撑',
    resistance: '阻力',
    stop: '止损',
    target: '目标',
    overbought: '超买',
    oversold: '超卖',
  },
};

/** Phrasings a trader of the language would not write (a literal translation, an empty count). */
const NOT_SAID: Partial<Record<OverviewLocale, readonly RegExp[]>> = {
  es: [/plan es (largo|corto)/, /\ben (largo|corto) (largo|corto)\b/],
  pt: [/plano é (comprado|vendido)/],
};

function word(value: string): FactValue {
  return { value, text: value };
}

function price(value: number): FactValue {
  return { value, text: formatNeutral(value, 'price'), format: 'price' };
}

function plan(direction: 'long' | 'short'): Fact {
  return {
    id: 'plan',
    values: {
      direction: word(direction),
      entry_low: price(100),
      entry_high: price(101),
      stop: price(direction === 'long' ? 95 : 106),
      target_1: price(direction === 'long' ? 110 : 90),
      risk_reward: { value: 2, text: '2.00', format: 'decimal_2' },
    },
  };
}

function facts(side: 'long' | 'short'): Fact[] {
  return [
    { id: 'signal', values: { action: word(side === 'long' ? 'buy' : 'sell'), confidence_pct: word('60%') } },
    { id: 'momentum', values: { rsi: price(75), rsi_state: word(side === 'long' ? 'overbought' : 'oversold') } },
    { id: 'support', values: { price: price(95), distance_pct: price(5) } },
    { id: 'resistance', values: { price: price(110), distance_pct: price(9) } },
    plan(side),
  ];
}

describe('glossary: the trading terms of each locale', () => {
  for (const locale of OVERVIEW_LOCALES) {
    it(`${locale} says long and short, buy, sell and hold, support, resistance, stop, target, overbought and oversold as traders do`, () => {
      const g = GLOSSARY[locale];
      const long = renderOverview(facts('long'), locale);
      const short = renderOverview(facts('short'), locale);
      const hold = renderOverview(
        [{ id: 'signal', values: { action: word('hold'), confidence_pct: word('50%') } }],
        locale,
      );
      for (const term of ['long', 'buy', 'support', 'resistance', 'stop', 'target', 'overbought']) {
        expect(long, `${locale} ${term}`).toContain(g[term]);
      }
      for (const term of ['short', 'sell', 'oversold']) expect(short, `${locale} ${term}`).toContain(g[term]);
      expect(hold).toContain(g.hold);
      // The side of the plan is said once, with the other side's word absent.
      expect(long).not.toContain(g.short);
      expect(short).not.toContain(g.long);
      for (const bad of NOT_SAID[locale] ?? []) {
        expect(long).not.toMatch(bad);
        expect(short).not.toMatch(bad);
      }
    });

    it(`${locale} says a phase entered on the last candle as just entered, never for 0 candles`, () => {
      const regime = (bars: number): Fact[] => [
        {
          id: 'regime',
          values: { phase: word('markup'), bars: { value: bars, text: String(bars), format: 'integer' } },
        },
      ];
      const entered = renderOverview(regime(0), locale);
      expect(entered).not.toMatch(/\d/);
      expect(entered.length).toBeGreaterThan(5);
      expect(renderOverview(regime(12), locale)).toMatch(/12/);
    });
  }
});
