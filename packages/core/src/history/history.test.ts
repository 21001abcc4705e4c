import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Analysis, analyze } from '../analyze.js';
import { overviewFacts } from '../overview/facts.js';
import { OVERVIEW_LOCALES, renderOverview } from '../overview/render.js';
import { computeContext } from '../signal/context.js';
import { toColumns, trendingCandleSeries } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { ANALYSIS_HISTORY, analysisHistory, type HistoryOutput } from './history.js';

/** Whether an analysis published `output`, read from the output itself (not from `history`). */
function published(a: Analysis, output: HistoryOutput): boolean {
  switch (output) {
    case 'technical_rating':
      return a.technical_rating.value !== null && a.technical_rating.reason === undefined;
    case 'fear_greed':
      return a.fear_greed.score !== null && a.fear_greed.reason === undefined;
    case 'patterns':
      return a.patterns !== null;
    case 'levels':
      return a.levels.reason === undefined;
    case 'signal':
      return a.signal.reason !== 'insufficient_data';
    case 'regime':
      return a.regime.phase !== null && a.regime.reason === undefined;
  }
}

/** Whether `output` was withheld the documented way: null or empty, with `insufficient_data`. */
function withheld(a: Analysis, output: HistoryOutput): boolean {
  switch (output) {
    case 'technical_rating': {
      const t = a.technical_rating;
      return (
        t.value === null &&
        t.rating === null &&
        t.moving_averages.rating === null &&
        t.oscillators.rating === null &&
        t.reason === 'insufficient_data'
      );
    }
    case 'fear_greed':
      return a.fear_greed.score === null && a.fear_greed.zone === null && a.fear_greed.reason === 'insufficient_data';
    case 'patterns':
      return a.patterns === null;
    case 'levels':
      return (
        a.levels.zones.length === 0 &&
        a.levels.nearest_support === null &&
        a.levels.nearest_resistance === null &&
        a.levels.reason === 'insufficient_data'
      );
    case 'signal':
      return (
        a.signal.action === 'hold' &&
        a.signal.score === 0 &&
        a.signal.confidence === 0 &&
        a.signal.reason === 'insufficient_data' &&
        a.signal.factors.every((f) => f.score === null && f.reason === 'insufficient_data')
      );
    case 'regime':
      return a.regime.phase === null && a.regime.reason === 'insufficient_data';
  }
}

const OUTPUTS = Object.keys(ANALYSIS_HISTORY) as HistoryOutput[];

function slice(c: Candles, n: number): Candles {
  return {
    time: c.time.slice(0, n),
    open: c.open.slice(0, n),
    high: c.high.slice(0, n),
    low: c.low.slice(0, n),
    close: c.close.slice(0, n),
    volume: c.volume.slice(0, n),
  };
}

/** Buckets of `k` consecutive candles merged into one (open of the first, close of the last). */
function merge(c: Candles, k: number): Candles {
  const n = Math.floor(c.close.length / k);
  const out: Candles = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let b = 0; b < n; b++) {
    const s = b * k;
    out.time[b] = c.time[s];
    out.open[b] = c.open[s];
    out.close[b] = c.close[s + k - 1];
    let hi = c.high[s];
    let lo = c.low[s];
    let v = 0;
    for (let j = s; j < s + k; j++) {
      hi = Math.max(hi, c.high[j]);
      lo = Math.min(lo, c.low[j]);
      v += c.volume[j];
    }
    out.high[b] = hi;
    out.low[b] = lo;
    out.volume[b] = v;
  }
  return out;
}

describe('history requirements', () => {
  it('lists what each output needs, and what a given history withholds', () => {
    expect(ANALYSIS_HISTORY).toEqual({
      technical_rating: 200,
      fear_greed: 104,
      patterns: 7,
      levels: 50,
      signal: 200,
      regime: 220,
    });
    expect(analysisHistory(10).insufficient).toEqual(OUTPUTS.filter((o) => o !== 'patterns'));
    expect(analysisHistory(120).insufficient).toEqual(['technical_rating', 'signal', 'regime']);
    expect(analysisHistory(220).insufficient).toEqual([]);
    expect(analysisHistory(219).insufficient).toEqual(['regime']);
  });

  it('withholds each output below its history with insufficient_data, and publishes it from there on', () => {
    // Generated daily series of 260..600 candles; each output is read one candle below its
    // requirement, at it, and at a random bar past it.
    const past = reach('a draw whose random bar past every requirement published every output');
    past.assert(
      fc.property(trendingCandleSeries(260, 600, 86_400_000), fc.nat(), (rows, cut) => {
        const ctx = computeContext(toColumns(rows));
        const n = rows.length;
        for (const output of OUTPUTS) {
          const need = ANALYSIS_HISTORY[output];
          const below = analyze(ctx, { asOf: need - 2 });
          expect(below.history.candles).toBe(need - 1);
          expect(below.history.min_candles[output]).toBe(need);
          expect(below.history.insufficient).toContain(output);
          expect(withheld(below, output), `${output} at ${need - 1} candles`).toBe(true);
          const at = analyze(ctx, { asOf: need - 1 });
          expect(at.history.insufficient).not.toContain(output);
          expect(published(at, output), `${output} at ${need} candles`).toBe(true);
        }
        const k = 220 + (cut % (n - 220));
        const a = analyze(ctx, { asOf: k });
        expect(a.history.insufficient).toEqual([]);
        past.hitIf(OUTPUTS.every((o) => published(a, o)));
      }),
      { numRuns: 30 },
    );
  });

  it('says "not enough history" instead of a rating, in every locale', () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({
      time: Date.UTC(2024, 0, 1) + i * 86_400_000,
      open: 100 + 3 * i,
      high: 104 + 3 * i,
      low: 99 + 3 * i,
      close: 103 + 3 * i,
      volume: 1000,
    }));
    const a = analyze(toColumns(rows));
    const facts = overviewFacts(a);
    const ids = facts.map((f) => f.id);
    expect(ids).toContain('history');
    expect(ids).not.toContain('technical_rating');
    expect(ids).not.toContain('signal');
    const h = facts.find((f) => f.id === 'history');
    expect(h?.values.candles?.value).toBe(10);
    expect(h?.values.needed?.value).toBe(200);
    const says: Record<(typeof OVERVIEW_LOCALES)[number], RegExp> = {
      en: /not enough history to rate it: 10 candles, the rating needs 200/,
      es: /No hay historial suficiente para valorarlo: 10 velas, la valoración necesita 200/,
      de: /Für eine Bewertung reicht die Historie nicht aus: 10 Kerzen, die Bewertung braucht 200/,
      fr: /L'historique ne suffit pas pour l'évaluer : 10 bougies, l'évaluation en demande 200/,
      pt: /Não há histórico suficiente para avaliá-lo: 10 candles, a avaliação precisa de 200/,
      ja: /評価するには履歴が足りません（ローソク足10本、評価には200本が必要）/,
      zh: /历史数据不足，无法评级：现有10根K线，评级需要200根/,
    };
    for (const locale of OVERVIEW_LOCALES) {
      const text = renderOverview(facts, locale);
      expect(text, locale).toMatch(says[locale]);
    }
    expect(renderOverview(facts, 'en')).not.toMatch(/Buy|Sell|Hold|confidence|rating is/);
    // Without the history block the sentence has no numbers, and still no rating.
    const bare = overviewFacts({ ...a, history: null });
    expect(renderOverview(bare, 'en')).toContain('There is not enough history to rate it yet.');
  });

  it.skipIf(!sharedDataDir)(
    `rates no short real history: 10 daily candles, 25 four-hour candles (skips when ${sharedDataSkipReason})`,
    () => {
      const series = loadSharedSeries();
      const nvda = series.find((s) => s.name === 'nvda-d1');
      const xrp = series.find((s) => s.name === 'xrp-perp-h1');
      expect(nvda && xrp).toBeTruthy();
      if (!nvda || !xrp) return;
      // The first 10 daily candles of NVDA, and the 100 hourly candles of the XRP perpetual as
      // 25 four-hour candles: neither may read a rating, a Buy or Sell, or a Hold with a confidence.
      for (const c of [slice(nvda.candles, 10), merge(xrp.candles, 4)]) {
        const a = analyze(c);
        expect(a.history.candles).toBe(c.close.length);
        expect(a.technical_rating.rating).toBeNull();
        expect(a.signal.action).toBe('hold');
        expect(a.signal.confidence).toBe(0);
        expect(a.signal.reason).toBe('insufficient_data');
        expect(a.zone.direction).toBeNull();
        expect(a.regime.phase).toBeNull();
        expect(a.history.insufficient).toEqual(expect.arrayContaining(['technical_rating', 'signal', 'regime']));
        expect(renderOverview(overviewFacts(a), 'en')).toContain('not enough history');
      }
      expect(merge(xrp.candles, 4).close.length).toBe(25);
    },
  );
});
