import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Analysis, analyze } from '../analyze.js';
import type { PlanReason } from '../plan/plan.js';
import { contextOf } from '../signal/context.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { type Fact, overviewFacts } from './facts.js';
import { formatFactValue, OVERVIEW_LOCALES, type OverviewLocale, renderOverview } from './render.js';

/** Every plan reason: the type makes this list complete (a new reason fails to compile here). */
const REASONS: Record<PlanReason, true> = {
  no_direction: true,
  no_trend: true,
  insufficient_data: true,
  atr_warmup: true,
  risk_below_cost: true,
  degenerate_geometry: true,
  target_blocked: true,
  poor_reward: true,
  session_close: true,
};

/** Words each locale uses to reconcile two facts, so a reader sees why both stand. */
const RATING_WHY: Record<OverviewLocale, string> = {
  en: 'tally of indicator votes',
  es: 'recuento de votos',
  de: 'Zählung von Indikatorstimmen',
  fr: 'décompte des votes',
  pt: 'contagem de votos',
  ja: '指標の票の集計',
  zh: '指标投票的统计',
};
const PHASE_WHY: Record<OverviewLocale, string> = {
  en: 'longer cycle',
  es: 'ciclo más largo',
  de: 'längeren Zyklus',
  fr: 'cycle long',
  pt: 'ciclo mais longo',
  ja: 'より長い周期',
  zh: '更长的周期',
};
const NO_PLAN: Record<OverviewLocale, string> = {
  en: 'no trade plan',
  es: 'No hay plan de operación',
  de: 'keinen Handelsplan',
  fr: 'pas de plan de trading',
  pt: 'Não há plano de operação',
  ja: 'トレードプランはありません',
  zh: '没有交易计划',
};
const INSIDE: Record<OverviewLocale, string> = {
  en: 'is inside a',
  es: 'dentro de una zona',
  de: 'innerhalb einer',
  fr: "à l'intérieur d'une zone",
  pt: 'dentro de uma zona',
  ja: 'の内側にあります',
  zh: '之内',
};
/** How the signal's action is named in each locale (as the renderer's tables say it). */
const ACTION: Record<OverviewLocale, Record<string, string>> = {
  en: { buy: 'Buy', sell: 'Sell', hold: 'Hold' },
  es: { buy: 'comprar', sell: 'vender', hold: 'mantener' },
  de: { buy: 'Kaufen', sell: 'Verkaufen', hold: 'Halten' },
  fr: { buy: 'Acheter', sell: 'Vendre', hold: 'Conserver' },
  pt: { buy: 'Comprar', sell: 'Vender', hold: 'Manter' },
  ja: { buy: '買い', sell: '売り', hold: '様子見' },
  zh: { buy: '买入', sell: '卖出', hold: '持有' },
};

function fact(facts: readonly Fact[], id: Fact['id']): Fact | undefined {
  return facts.find((f) => f.id === id);
}

function one(f: Fact, locale: OverviewLocale): string {
  return renderOverview([f], locale);
}

/** What the narrative checks met, to show the checks reach the code on the data. */
interface Reach {
  narratives: number;
  ratingDiffers: number;
  /** Of those, Holds whose factors lean the rating's way, held by the edge gate (no factor named). */
  ratingHeld: number;
  phaseDiffers: number;
  /** Holds that declined a call's plan: the text says why, never a confidence in holding. */
  declined: number;
  inside: number;
}

function newReach(): Reach {
  return { narratives: 0, ratingDiffers: 0, ratingHeld: 0, phaseDiffers: 0, declined: 0, inside: 0 };
}

/**
 * The narrative of an analysis holds no contradiction, in every locale: facts (structured) and
 * the rendered text.
 */
function checkNarrative(a: Analysis, reach: Reach): void {
  const facts = overviewFacts(a);
  reach.narratives++;
  const sig = fact(facts, 'signal');
  const rating = fact(facts, 'technical_rating');
  const trend = fact(facts, 'trend');
  const regime = fact(facts, 'regime') ?? fact(facts, 'regime_change');
  const plan = fact(facts, 'plan');
  const noPlan = fact(facts, 'no_plan');
  const inside = fact(facts, 'inside_zone');

  // rating vs signal: a rating leaning another way than the signal is marked and explained
  const ratingSide = (r: string): string => (r.endsWith('buy') ? 'buy' : r.endsWith('sell') ? 'sell' : 'hold');
  const ratingDiffers = rating !== undefined && ratingSide(String(rating.values.rating.value)) !== a.signal.action;
  if (rating) expect(rating.values.relation?.value).toBe(ratingDiffers ? 'differs' : 'agrees');
  if (ratingDiffers) {
    reach.ratingDiffers++;
    // the factor named is the one that pulled hardest from the rating's side to the signal's
    const side = { buy: 1, hold: 0, sell: -1 } as const;
    const d = Math.sign(side[a.signal.action] - side[ratingSide(String(rating?.values.rating.value)) as 'buy']);
    const pulls = a.signal.factors.map((f) => ({ name: f.name, pull: d * f.contribution }));
    const most = Math.max(0, ...pulls.map((x) => x.pull));
    const named = rating?.values.factor?.value;
    // ... unless the signal is a Hold whose own score leans the rating's way: then no factor made
    // the difference, its gate did, and the fact names the gate's reason instead (issue 40.4)
    const lean = a.signal.score > 0 ? 'buy' : a.signal.score < 0 ? 'sell' : 'hold';
    const held =
      a.signal.action === 'hold' &&
      a.signal.reason !== undefined &&
      a.signal.reason !== 'insufficient_data' &&
      lean !== 'hold' &&
      lean === ratingSide(String(rating?.values.rating.value));
    expect(rating?.values.gate?.value).toBe(held ? a.signal.reason : undefined);
    if (held) {
      reach.ratingHeld++;
      expect(named).toBeUndefined();
    } else if (most > 0) expect(pulls.find((x) => x.name === named)?.pull).toBe(most);
    else expect(named).toBeUndefined();
  }

  // trend vs regime: a phase pointing against the trend is marked and explained
  const t = trend?.values.direction.value;
  const phase = regime?.values.phase?.value ?? regime?.values.to?.value;
  const phaseDiffers =
    (t === 'up' && (phase === 'distribution' || phase === 'markdown')) ||
    (t === 'down' && (phase === 'accumulation' || phase === 'markup'));
  if (regime && trend) expect(regime.values.relation?.value).toBe(phaseDiffers ? 'differs' : 'agrees');
  if (phaseDiffers) reach.phaseDiffers++;

  // plan vs no plan: exactly one of them, and a missing plan says why
  expect(plan === undefined || noPlan === undefined).toBe(true);
  if (a.zone.direction === null) expect(noPlan?.values.reason.value).toBe(a.zone.reason);
  // a buy or sell is published with the plan it was judged by, never without one
  if (a.signal.action !== 'hold') expect(a.zone.direction).toBe(a.signal.action === 'buy' ? 'long' : 'short');
  // a hold states no confidence; one that declined a plan names it with its odds against its break-even
  // too short a history to rate: the narrative says so (history fact) and states no signal at all,
  // rather than a Hold that means nothing
  expect(fact(facts, 'history') !== undefined).toBe(
    a.signal.reason === 'insufficient_data' || a.technical_rating.reason === 'insufficient_data',
  );
  if (a.signal.reason === 'insufficient_data') expect(sig).toBeUndefined();
  else if (a.signal.action === 'hold') {
    expect(sig?.values.confidence_pct).toBeUndefined();
    expect(sig?.values.hold_reason?.value).toBe(a.signal.reason ?? 'conflicting');
    if (a.signal.declined_plan?.direction != null && a.signal.edge !== null) {
      expect(sig?.values.declined?.value).toBe(a.signal.declined_plan.direction === 'long' ? 'buy' : 'sell');
      reach.declined++;
    }
  }

  // a zone holding the price: said so, and never a support or resistance at distance 0
  expect(inside !== undefined).toBe(a.levels.inside !== null);
  if (inside) reach.inside++;
  for (const id of ['support', 'resistance'] as const) {
    const d = fact(facts, id)?.values.distance_pct.value;
    if (d !== undefined) expect(d).toBeGreaterThan(0);
  }

  for (const locale of OVERVIEW_LOCALES) {
    const text = renderOverview(facts, locale);
    if (rating) {
      const sentence = one(rating, locale);
      expect(sentence.includes(RATING_WHY[locale]), `${locale}: ${sentence}`).toBe(ratingDiffers);
      if (ratingDiffers) expect(sentence).toContain(ACTION[locale][a.signal.action]);
    }
    if (regime) expect(one(regime, locale).includes(PHASE_WHY[locale])).toBe(phaseDiffers);
    if (noPlan) {
      const sentence = one(noPlan, locale);
      expect(sentence).toContain(NO_PLAN[locale]);
      if (a.signal.action !== 'hold')
        expect(sentence, `${locale}: ${sentence}`).toContain(ACTION[locale][a.signal.action]);
    }
    if (sig) expect(text).toContain(one(sig, locale));
    expect(text.includes(INSIDE[locale])).toBe(inside !== undefined);
    // numbers are written for the locale: the close as the locale writes it, never the neutral text
    const price = fact(facts, 'price');
    if (price) {
      const close = price.values.close;
      expect(text).toContain(formatFactValue(close, locale));
      if (locale === 'de' || locale === 'es' || locale === 'fr' || locale === 'pt') {
        expect(text, `${locale}: ${text}`).not.toContain(close.text);
      }
    }
  }
}

/** Groups of `k` candles into one (a coarser timeframe). */
function resample(c: Candles, k: number): Candles {
  const n = Math.floor(c.close.length / k);
  const out: Candles = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let j = 0; j < n; j++) {
    const a = j * k;
    let hi = Number.NEGATIVE_INFINITY;
    let lo = Number.POSITIVE_INFINITY;
    let v = 0;
    for (let i = a; i < a + k; i++) {
      hi = Math.max(hi, c.high[i]);
      lo = Math.min(lo, c.low[i]);
      v += c.volume[i];
    }
    out.time[j] = c.time[a];
    out.open[j] = c.open[a];
    out.high[j] = hi;
    out.low[j] = lo;
    out.close[j] = c.close[a + k - 1];
    out.volume[j] = v;
  }
  return out;
}

describe('the narrative never contradicts itself', () => {
  it('says why there is no plan, for every plan reason in every locale', () => {
    for (const locale of OVERVIEW_LOCALES) {
      const seen = new Set<string>();
      for (const reason of Object.keys(REASONS)) {
        for (const action of ['buy', 'sell', 'hold'] as const) {
          const f: Fact = {
            id: 'no_plan',
            values: { reason: { value: reason, text: reason }, signal: { value: action, text: action } },
          };
          const s = one(f, locale);
          expect(s).toContain(NO_PLAN[locale]);
          expect(s, `${locale} ${reason}: a wire value leaked`).not.toContain(reason);
          if (action !== 'hold') expect(s).toContain(ACTION[locale][action]);
          seen.add(s);
        }
      }
      // each reason (and each action with a trade) reads differently
      expect(seen.size).toBe(Object.keys(REASONS).length * 3);
    }
  });

  it('says the price is inside a zone rather than at distance 0 from it', () => {
    const facts = overviewFacts({
      levels: {
        inside: {
          kind: 'support',
          low: 99,
          high: 101,
          mid: 100,
          strength: 0.5,
          touches: 3,
          last_touch_index: 1,
          last_touch_time: 0,
          volume: 1,
          sources: ['swing'],
          timeframe: 'd1',
        },
        nearest_support: null,
        nearest_resistance: null,
      },
    });
    expect(facts.map((f) => f.id)).toEqual(['inside_zone']);
    expect(renderOverview(facts, 'en')).toBe('The price is inside a support zone (99.00 to 101.00).');
    expect(renderOverview(facts, 'de')).toBe('Der Kurs liegt innerhalb einer Unterstützungszone (99,00 bis 101,00).');
  });

  it('writes numbers per locale with Intl.NumberFormat', () => {
    const facts = overviewFacts({ indicators: { close: 82580, change_pct: 1.234 } });
    expect(renderOverview(facts, 'en')).toBe('The price is 82,580.00, +1.23% on the last bar.');
    expect(renderOverview(facts, 'de')).toBe('Der Kurs liegt bei 82.580,00, +1,23\u00a0% in der letzten Kerze.');
    expect(renderOverview(facts, 'fr')).toContain('82\u202f580,00');
    // the fact keeps its locale-neutral text for machines
    expect(facts[0].values.close.text).toBe('82580.00');
  });

  it.skipIf(!sharedDataDir)(
    `holds on the real series, resampled to several timeframes, in every locale (skips when ${sharedDataSkipReason})`,
    () => {
      const reach = newReach();
      const steps: Record<string, number[]> = {
        'nvda-d1': [1, 5],
        'orcl-d1': [1, 5],
        'index-m5': [1, 6],
        'crypto-m1': [5, 15, 60],
        'xrp-perp-h1': [1],
      };
      for (const { name, candles } of loadSharedSeries()) {
        for (const k of steps[name] ?? [1]) {
          const c = k === 1 ? candles : resample(candles, k);
          const ctx = contextOf(c);
          const n = c.close.length;
          for (let q = 1; q <= 12; q++) {
            const asOf = Math.floor(((n - 1) * q) / 12);
            if (asOf < 30) continue;
            checkNarrative(analyze(ctx, { asOf }), reach);
          }
        }
      }
      expect(reach.narratives).toBeGreaterThan(100);
      // every kind of would-be contradiction occurs on the real data, so each check above ran
      expect(reach.ratingDiffers).toBeGreaterThan(0);
      expect(reach.ratingHeld).toBeGreaterThan(0);
      expect(reach.phaseDiffers).toBeGreaterThan(0);
      expect(reach.declined).toBeGreaterThan(0);
      expect(reach.inside).toBeGreaterThan(0);
    },
  );

  it('holds on long generated series (most draws produce a full narrative)', () => {
    const reach = newReach();
    let full = 0;
    fc.assert(
      fc.property(candleSeries(260, 400), (rows) => {
        const a = analyze(toColumns(rows));
        if (a.regime.phase !== null && a.technical_rating.rating !== null) full++;
        checkNarrative(a, reach);
      }),
      { numRuns: 40 },
    );
    expect(full / reach.narratives).toBeGreaterThanOrEqual(0.8);
  });
});
