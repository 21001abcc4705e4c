import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { candleSeries, seriesPast, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import { computeContext } from './context.js';
import { ratingLabel, type TechnicalRating, technicalRating } from './technical-rating.js';

function geometric(n: number, growth: number): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p *= growth;
    out.push({
      time: i,
      open: o,
      close: p,
      high: Math.max(o, p) * 1.001,
      low: Math.min(o, p) * 0.999,
      volume: 100 + i,
    });
  }
  return out;
}

function mirrorColumns(c: Candles, k: number): Candles {
  const m = (a: Float64Array) => a.map((x) => k - x);
  return { time: c.time, volume: c.volume, open: m(c.open), close: m(c.close), high: m(c.low), low: m(c.high) };
}

function vote(r: TechnicalRating, name: string): number | null | undefined {
  return [...r.moving_averages.votes, ...r.oscillators.votes].find((v) => v.name === name)?.vote;
}

describe('ratingLabel', () => {
  it('uses TradingView bounds: strong sell < -0.5 <= sell < -0.1 <= neutral <= 0.1 < buy <= 0.5 < strong buy', () => {
    expect(ratingLabel(-1)).toBe('strong_sell');
    expect(ratingLabel(-0.51)).toBe('strong_sell');
    expect(ratingLabel(-0.5)).toBe('sell');
    expect(ratingLabel(-0.11)).toBe('sell');
    expect(ratingLabel(-0.1)).toBe('neutral');
    expect(ratingLabel(0)).toBe('neutral');
    expect(ratingLabel(0.1)).toBe('neutral');
    expect(ratingLabel(0.11)).toBe('buy');
    expect(ratingLabel(0.5)).toBe('buy');
    expect(ratingLabel(0.51)).toBe('strong_buy');
  });
});

/** Bars before every vote is cast (the 200-bar moving averages). */
const WARM_UP = 200;

describe('technicalRating', () => {
  it('casts 15 moving-average votes and 11 oscillator votes once warmed up', () => {
    const r = technicalRating(toColumns(geometric(260, 1.001)));
    expect(r.moving_averages.votes.map((v) => v.name)).toEqual([
      'sma_10',
      'sma_20',
      'sma_30',
      'sma_50',
      'sma_100',
      'sma_200',
      'ema_10',
      'ema_20',
      'ema_30',
      'ema_50',
      'ema_100',
      'ema_200',
      'hma_9',
      'vwma_20',
      'ichimoku',
    ]);
    expect(r.oscillators.votes).toHaveLength(11);
    for (const g of [r.moving_averages, r.oscillators]) {
      expect(g.buy + g.neutral + g.sell).toBe(g.votes.length);
      expect(g.value).toBeCloseTo((g.buy - g.sell) / g.votes.length, 15);
    }
  });

  it('reads a steady rise as MAs buying, the ichimoku neutral, and momentum, MACD and UO buying', () => {
    const r = technicalRating(toColumns(geometric(260, 1.01)));
    expect(r.moving_averages.buy).toBe(14);
    expect(vote(r, 'ichimoku')).toBe(0);
    expect(r.moving_averages.value).toBeCloseTo(14 / 15, 15);
    expect(vote(r, 'mom_10')).toBe(1);
    expect(vote(r, 'macd_12_26_9')).toBe(1);
    expect(vote(r, 'uo_7_14_28')).toBe(1);
    // RSI is high but not falling: no sell
    expect(vote(r, 'rsi_14')).toBe(0);
    expect(r.rating).toBe('strong_buy');
  });

  it('buys an oversold RSI that turns up, and sells an overbought one that turns down', () => {
    const rows = geometric(60, 0.98);
    const last = rows[rows.length - 1];
    rows.push({ ...last, time: 60, open: last.close, close: last.close * 1.002, high: last.close * 1.003 });
    const r = technicalRating(toColumns(rows));
    expect(vote(r, 'rsi_14')).toBe(1);
    const up = geometric(60, 1.02);
    const top = up[up.length - 1];
    up.push({ ...top, time: 60, open: top.close, close: top.close * 0.998, low: top.close * 0.997 });
    expect(vote(technicalRating(toColumns(up)), 'rsi_14')).toBe(-1);
  });

  it('does not cast votes during warm-up and is null without any', () => {
    const one = technicalRating(toColumns(geometric(1, 1)));
    expect(one.value).toBeNull();
    expect(one.rating).toBeNull();
    expect(one.reason).toBe('insufficient_data');
    const r = technicalRating(toColumns(geometric(25, 1.01)));
    expect(vote(r, 'sma_200')).toBeNull();
    expect(vote(r, 'sma_20')).toBe(1);
    expect(r.moving_averages.votes.find((v) => v.name === 'sma_200')?.value).toBeNull();
  });

  it('has values in -1..1, no look-ahead, and JSON-clean output', () => {
    const rated = reach('every vote cast');
    rated.assert(
      fc.property(seriesPast(candleSeries, WARM_UP, { minLength: 1, maxLength: 400 }), fc.nat(), (rows, cut) => {
        // the prefix ends past the warm-up where the series allows it
        const from = Math.min(WARM_UP, rows.length - 1);
        const k = from + (cut % (rows.length - from));
        const full = computeContext(toColumns(rows));
        const r = technicalRating(full, { asOf: k });
        rated.hitIf([...r.moving_averages.votes, ...r.oscillators.votes].every((v) => v.value !== null));
        expect(r).toEqual(technicalRating(toColumns(rows.slice(0, k + 1))));
        for (const v of [r.value, r.moving_averages.value, r.oscillators.value]) {
          if (v !== null) {
            expect(v).toBeGreaterThanOrEqual(-1);
            expect(v).toBeLessThanOrEqual(1);
          }
        }
        expect(JSON.parse(JSON.stringify(r))).toEqual(r);
      }),
      { numRuns: 60 },
    );
  });

  it.skipIf(!sharedDataDir)(`mirrors: p -> K - p negates the rating (skips when ${sharedDataSkipReason})`, () => {
    // The daily series: the minute series hold long runs of unchanged closes, where indicator
    // values tie exactly and their mirrored values may tie or not by one rounding (a saturated
    // StochRSI at 0/100, the 1/64 price fractions of the 1990s against an Ichimoku line).
    for (const { name, candles } of loadSharedSeries().filter((s) => s.name.endsWith('-d1'))) {
      let k = 0;
      for (const h of candles.high) k = Math.max(k, h);
      const a = computeContext(candles);
      const b = computeContext(mirrorColumns(candles, 2 * k));
      let bars = 0;
      let differ = 0;
      for (let i = 0; i < a.length; i += 5) {
        const x = technicalRating(a, { asOf: i }).value;
        const y = technicalRating(b, { asOf: i }).value;
        if (x === null || y === null) {
          expect(x, name).toBe(y);
          continue;
        }
        bars++;
        if (Math.abs(x + y) > 1e-12) differ++;
      }
      // only exact ties may round differently
      expect(differ / bars, name).toBeLessThan(0.02);
    }
  });

  it('rejects bad input with a typed error', () => {
    expect(() => technicalRating(toColumns(geometric(5, 1)), { asOf: -1 })).toThrow(InputError);
  });
});
