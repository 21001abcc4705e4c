import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { type Fact, type OverviewInput, overviewFacts } from './facts.js';
import { formatInteger, formatNumber, formatPercent, formatPrice } from './format.js';
import { formatFactValue, OVERVIEW_LOCALES, overviewTemplates, renderOverview, resolveLocale } from './render.js';

/**
 * Every number of the rendered text, in every locale, is one of the facts' numbers written for
 * that locale: with those texts cut out (longest first), no digit is left.
 */
function expectNumbersFromFacts(facts: readonly Fact[]): void {
  for (const locale of OVERVIEW_LOCALES) {
    const text = renderOverview(facts, locale);
    const written = facts
      .flatMap((f) => Object.values(f.values))
      .filter((v) => typeof v.value === 'number')
      .map((v) => formatFactValue(v, locale))
      .sort((a, b) => b.length - a.length);
    let rest = text;
    for (const w of written) rest = rest.split(w).join(' ');
    expect(rest, `${locale}: a number not from the facts in: ${text}`).not.toMatch(/\d/);
  }
}

/** An analysis that produces every kind of fact. */
const FULL: OverviewInput = {
  indicators: {
    close: 64250.5,
    change_pct: -1.234,
    adx_14: 31.46,
    rsi_14: 72.04,
    macd_histogram: 12.5,
    atr_pct: 3.21,
    volume_ratio: 2.345,
  },
  signal: {
    action: 'buy',
    score: 0.42,
    confidence: 0.7351,
    raw_confidence: 0.8,
    base_rate: 0.24,
    threshold: 0.15,
    weights: { trend: 0.25, momentum: 0.2, sentiment: 0.1, breakout: 0.15, risk: 0.15, cycle_phase: 0.15 },
    factors: [{ name: 'trend', score: 0.8, weight: 0.25, base_weight: 0.25, contribution: 0.2, inputs: {} }],
    edge: null,
    declined_plan: null,
  },
  technical_rating: {
    value: 0.53,
    rating: 'strong_buy',
    moving_averages: { value: 0.8, rating: 'strong_buy', buy: 13, neutral: 1, sell: 1, votes: [] },
    oscillators: { value: 0.27, rating: 'buy', buy: 4, neutral: 6, sell: 1, votes: [] },
  },
  fear_greed: { score: 81, zone: 'extreme_greed', components: [], unavailable: [] },
  regime: {
    phase: 'markup',
    previous_phase: 'accumulation',
    since: 0,
    bars_in_phase: 17,
    strength: 0.4,
    transition: { from: 'accumulation', to: 'markup', time: 0, bars_ago: 17 },
    changed: false,
    structure: 'up',
    inputs: {
      ema_50: 1,
      atr_14: 1,
      efficiency_ratio: 0.4,
      move_atr: 3,
      channel_position: 0.9,
      sma_200: 1,
      ema_50_slope_atr: 0.5,
      sma_200_slope_atr: 0.8,
      swing_high: 2,
      previous_swing_high: 1.5,
      swing_low: 1,
      previous_swing_low: 0.8,
    },
  },
  levels: {
    nearest_support: {
      kind: 'support',
      low: 61000,
      high: 62000,
      mid: 61500,
      strength: 0.6,
      touches: 4,
      last_touch_index: 1,
      last_touch_time: 0,
      volume: 1,
      sources: ['swing'],
      timeframe: 'd1',
      distance_pct: -4.28,
      distance_atr: -1.5,
    },
    nearest_resistance: {
      kind: 'resistance',
      low: 66000,
      high: 67000,
      mid: 66500,
      strength: 0.6,
      touches: 3,
      last_touch_index: 1,
      last_touch_time: 0,
      volume: 1,
      sources: ['swing'],
      timeframe: 'd1',
      distance_pct: 3.5,
      distance_atr: 1.2,
    },
  },
  zone: {
    direction: 'long',
    bias: 'long',
    reason: null,
    published_index: 999,
    published_time: 0,
    mark: 64250.5,
    atr: 2000,
    entry_type: 'market',
    entry_zone: { low: 63000, high: 64250.5 },
    entry_price: 64250.5,
    invalidation: 61000,
    stop_loss: 60500,
    cost_pct: 0.2,
    take_profits: [
      { price: 66000, size_pct: 70, risk_reward: 0.4667, risk_reward_net: 0.43 },
      { price: 70000, size_pct: 30, risk_reward: 1.5333, risk_reward_net: 1.45 },
    ],
    risk_pct: 5.8,
    horizon_bars: 12,
    entry_window_bars: 5,
  },
  patterns: ['hammer', 'doji'],
};

describe('format', () => {
  it('formats numbers locale-neutrally', () => {
    expect(formatPrice(64250.5)).toBe('64250.50');
    expect(formatPrice(1.08345)).toBe('1.08345');
    expect(formatPrice(0.000123456789)).toBe('0.000123457');
    expect(formatPrice(12)).toBe('12.00');
    expect(formatPrice(0)).toBe('0.00');
    expect(formatPercent(1.234, true)).toBe('+1.23%');
    expect(formatPercent(-0.001, true)).toBe('0.00%');
    expect(formatPercent(-1.5)).toBe('-1.50%');
    expect(formatNumber(-0.0001, 2)).toBe('0.00');
    expect(formatInteger(41.6)).toBe('42');
  });
});

describe('overviewFacts', () => {
  it('lists every fact of a full analysis in a fixed order', () => {
    expect(overviewFacts(FULL).map((f) => f.id)).toEqual([
      'price',
      'signal',
      'trend',
      'momentum',
      'technical_rating',
      'fear_greed',
      'regime',
      'support',
      'resistance',
      'plan',
      'volatility',
      'volume',
      'patterns',
    ]);
    const changed = overviewFacts({
      ...FULL,
      regime: { ...(FULL.regime as NonNullable<OverviewInput['regime']>), changed: true },
    });
    expect(changed.find((f) => f.id === 'regime_change')?.values.to.text).toBe('markup');
    expect(overviewFacts({})).toEqual([]);
  });
});

describe('renderOverview', () => {
  it('renders a sentence per fact in every locale, every number taken from the facts', () => {
    const facts = overviewFacts(FULL);
    expectNumbersFromFacts(facts);
    const en = renderOverview(facts, 'en');
    expect(en).toContain('The price is 64,250.50, -1.23% on the last bar.');
    expect(en).toContain('targets 66,000.00 and 70,000.00');
    expect(renderOverview(facts, 'de')).toContain('Der Kurs liegt bei 64.250,50, -1,23\u00a0% in der letzten Kerze.');
    expect(en).toContain('The last candle shows: hammer, doji.');
    for (const locale of OVERVIEW_LOCALES) {
      const text = renderOverview(facts, locale);
      expect(text.length, locale).toBeGreaterThan(200);
      if (locale !== 'en') expect(text, locale).not.toBe(en);
      // every value of every fact appears
      for (const f of facts) {
        for (const [k, v] of Object.entries(f.values)) {
          if (typeof v.value === 'number') expect(text, `${locale} ${f.id}.${k}`).toContain(formatFactValue(v, locale));
        }
      }
    }
  });

  it('fills the same slots of a sentence in every locale as in English', () => {
    // The sentence code (`SAY`) is one for all locales: a slot another locale misspells, or one it
    // lacks, would be written as '' or lose a value. Plural nouns are each locale's own.
    const slots = (text: string) =>
      [...text.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .filter((name) => !name.endsWith('_noun'))
        .sort();
    const en = overviewTemplates('en');
    expect(Object.keys(en).length).toBeGreaterThan(30);
    expect(slots(en.plan)).toEqual(['direction', 'entry_high', 'entry_low', 'net', 'risk_reward', 'stop', 'targets']);
    for (const locale of OVERVIEW_LOCALES) {
      const text = overviewTemplates(locale);
      expect(Object.keys(text), locale).toEqual(Object.keys(en));
      for (const [id, template] of Object.entries(text))
        expect(slots(template), `${locale} ${id}`).toEqual(slots(en[id]));
    }
  });

  it('holds no number of its own: with every number blanked, no digit is left', () => {
    const blank = overviewFacts(FULL).map((f) => ({
      ...f,
      values: Object.fromEntries(
        Object.entries(f.values).map(([k, v]) => [k, typeof v.value === 'number' ? { value: v.value, text: 'N' } : v]),
      ),
    }));
    const changed = overviewFacts({
      ...FULL,
      regime: { ...(FULL.regime as NonNullable<OverviewInput['regime']>), changed: true },
    });
    for (const locale of OVERVIEW_LOCALES) {
      expect(renderOverview(blank, locale), locale).not.toMatch(/\d/);
      expect(
        renderOverview(
          changed.filter((f) => f.id === 'regime_change'),
          locale,
        ),
        locale,
      ).not.toMatch(/\d/);
    }
  });

  it('takes every number from the facts for generated analyses (most draws give a full narrative)', () => {
    let runs = 0;
    let full = 0;
    fc.assert(
      fc.property(candleSeries(260, 400), (rows) => {
        runs++;
        const facts = overviewFacts(analyze(toColumns(rows)));
        if (
          ['price', 'signal', 'momentum', 'technical_rating', 'volatility'].every((id) =>
            facts.some((f) => f.id === id),
          )
        )
          full++;
        expectNumbersFromFacts(facts);
        for (const locale of OVERVIEW_LOCALES)
          expect(renderOverview(facts, locale)).toBe(renderOverview(facts, locale));
      }),
      { numRuns: 40 },
    );
    expect(full / runs).toBeGreaterThanOrEqual(0.8);
  });

  it.skipIf(!sharedDataDir)(
    `takes every number from the facts on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { candles } of loadSharedSeries()) expectNumbersFromFacts(overviewFacts(analyze(candles)));
    },
  );

  it('falls back to English for an unknown locale and uses the language of a regional tag', () => {
    const facts = overviewFacts(FULL);
    expect(resolveLocale('pt-BR')).toBe('pt');
    expect(resolveLocale('ZH_cn')).toBe('zh');
    expect(resolveLocale('de')).toBe('de');
    expect(resolveLocale('xx-YY')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(renderOverview(facts, 'ko')).toBe(renderOverview(facts, 'en'));
    expect(renderOverview(facts, null)).toBe(renderOverview(facts, 'en'));
    expect(renderOverview(facts, 'fr-CA')).toBe(renderOverview(facts, 'fr'));
  });

  it('skips facts of an unknown id', () => {
    const facts = [...overviewFacts(FULL), { id: 'future' as Fact['id'], values: {} }];
    expect(renderOverview(facts, 'en')).toBe(renderOverview(overviewFacts(FULL), 'en'));
  });
});
