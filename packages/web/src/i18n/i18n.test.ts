import {
  CANDLE_PATTERNS,
  FEAR_GREED_ZONES,
  NOTIFICATION_KINDS,
  NOTIFICATION_STATUSES,
  REGIME_PHASES,
  SIGNAL_FACTORS,
  SIGNAL_SORTS,
  TIERS,
} from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { OVERVIEW_LOCALES } from '../../../core/src/overview/render.js';
import { SIGNAL_CONTROLS } from '../../../core/src/screeners/signal-list.js';
import { LOCALES } from '../locale.js';
import { CATALOGS, word } from './catalogs.js';
import { en } from './en.js';
import { SIGNAL_CONTROL_NAMES, WORDS, wordsIn } from './words.js';

type Entry = string | ((...args: never[]) => string) | { [key: string]: Entry };

/** Every leaf of a catalog with its dotted path. */
function leaves(node: Entry, path = ''): [string, string | ((...args: unknown[]) => string)][] {
  if (typeof node === 'string' || typeof node === 'function')
    return [[path, node as string | ((...args: unknown[]) => string)]];
  return Object.entries(node).flatMap(([k, v]) => leaves(v, path === '' ? k : `${path}.${k}`));
}

const ENGLISH = leaves(en as unknown as Entry);

describe('the page text catalogs', () => {
  it('exist for exactly the seven languages the narrative is written in (core)', () => {
    expect([...LOCALES].sort()).toEqual([...OVERVIEW_LOCALES].sort());
    expect(Object.keys(CATALOGS).sort()).toEqual([...LOCALES].sort());
    // The English catalog is not empty of its groups (a check that walks nothing passes anything).
    expect(ENGLISH.length).toBeGreaterThan(250);
  });

  for (const locale of LOCALES) {
    it(`${locale}: every key of English, no other, no empty text, every number and name it is given`, () => {
      const own = leaves(CATALOGS[locale] as unknown as Entry);
      expect(own.map(([p]) => p).sort()).toEqual(ENGLISH.map(([p]) => p).sort());
      for (const [path, value] of own) {
        const english = ENGLISH.find(([p]) => p === path)?.[1];
        if (typeof value === 'string') {
          expect(typeof english, path).toBe('string');
          expect(value.trim(), `${locale} ${path}`).not.toBe('');
          continue;
        }
        expect(typeof english, path).toBe('function');
        // Distinct arguments (numbers for counts): each must appear in the text.
        const args = Array.from({ length: value.length }, (_, i) => (path.endsWith('badAnswer') ? 500 + i : `‹${i}›`));
        const numeric = /(touchesShort|matches|freeList|screened|trackSummary|diagramDot|target)$/.test(path);
        const call = numeric ? args.map((a, i) => (typeof a === 'number' ? a : 900 + i)) : args;
        const text = value(...call);
        expect(text.trim(), `${locale} ${path}`).not.toBe('');
        for (const a of call) expect(text, `${locale} ${path} drops ${a}`).toContain(String(a));
      }
    });
  }

  it("reads each language's words out of the one table, a word in each of the seven for every value", () => {
    let values = 0;
    for (const [list, table] of Object.entries(WORDS)) {
      for (const [value, words] of Object.entries(table as Record<string, Record<string, string>>)) {
        values++;
        expect(Object.keys(words).sort(), `${list}.${value}`).toEqual([...LOCALES].sort());
        for (const locale of LOCALES) {
          const own = (CATALOGS[locale].words as Record<string, Record<string, string>>)[list][value];
          expect(own, `${locale} ${list}.${value}`).toBe(words[locale]);
        }
      }
    }
    // Every list and value walked (the 22 lists hold 113 values today).
    expect(Object.keys(WORDS).length).toBeGreaterThanOrEqual(22);
    expect(values).toBeGreaterThanOrEqual(113);
    expect(wordsIn('de').fearGreedZones.extreme_greed).toBe('extreme Gier');
  });

  it("has a word for every value of the contract's enums", () => {
    for (const t of Object.values(CATALOGS)) {
      expect(Object.keys(t.words.tiers).sort()).toEqual([...TIERS].sort());
      expect(Object.keys(t.words.factors).sort()).toEqual([...SIGNAL_FACTORS].sort());
      expect(Object.keys(t.words.fearGreedZones).sort()).toEqual([...FEAR_GREED_ZONES].sort());
      expect(Object.keys(t.words.phases).sort()).toEqual([...REGIME_PHASES].sort());
      expect(Object.keys(t.words.patterns).sort()).toEqual([...CANDLE_PATTERNS].sort());
      expect(Object.keys(t.words.alertKinds).sort()).toEqual([...NOTIFICATION_KINDS].sort());
      expect(Object.keys(t.words.alertStatuses).sort()).toEqual([...NOTIFICATION_STATUSES].sort());
      expect(Object.keys(t.words.sorts).sort()).toEqual([...SIGNAL_SORTS].sort());
    }
    expect([...SIGNAL_CONTROL_NAMES].sort()).toEqual(SIGNAL_CONTROLS.map((c) => c.name).sort());
  });

  it("uses a trader's words for the trading terms (core's overview glossary)", () => {
    const glossary = {
      en: ['long', 'short', 'Buy', 'Sell', 'Hold', 'support', 'resistance'],
      es: ['en largo', 'en corto', 'Comprar', 'Vender', 'Mantener', 'soporte', 'resistencia'],
      de: ['Long', 'Short', 'Kaufen', 'Verkaufen', 'Halten', 'Unterstützung', 'Widerstand'],
      fr: ['acheteur', 'vendeur', 'Acheter', 'Vendre', 'Conserver', 'support', 'résistance'],
      pt: ['comprado', 'vendido', 'Comprar', 'Vender', 'Manter', 'suporte', 'resistência'],
      ja: ['ロング', 'ショート', '買い', '売り', '様子見', 'サポート', 'レジスタンス'],
      zh: ['做多', '做空', '买入', '卖出', '持有', '支撑', '阻力'],
    } as const;
    for (const locale of LOCALES) {
      const w = CATALOGS[locale].words;
      expect(
        [
          w.directions.long,
          w.directions.short,
          w.actions.buy,
          w.actions.sell,
          w.actions.hold,
          w.zoneKinds.support,
          w.zoneKinds.resistance,
        ],
        locale,
      ).toEqual([...glossary[locale]]);
      // The entry label of the chart names the plan's side in those words.
      expect(CATALOGS[locale].chart.entry(w.directions.short)).toContain(glossary[locale][1]);
    }
  });

  it('shows a value the table does not know as the API spells it', () => {
    expect(word(en.words.fearGreedZones, 'extreme_greed')).toBe('extreme greed');
    expect(word(CATALOGS.es.words.fearGreedZones, 'extreme_greed')).toBe('codicia extrema');
    expect(word(CATALOGS.es.words.fearGreedZones, 'new_zone_name')).toBe('new zone name');
    expect(word(en.words.tiers, null)).toBe('–');
    // A newer server's control: its own (English) description as the hint.
    expect(word(en.words.signalControlHints, 'new_control', 'Only assets that...')).toBe('Only assets that...');
    expect(word(CATALOGS.ja.words.signalControlHints, 'trend', 'Only assets in this trend (...)')).toBe(
      'このトレンドの銘柄のみ。',
    );
    // Never a key of Object.prototype.
    expect(word(en.words.tiers, 'constructor')).toBe('constructor');
  });
});
