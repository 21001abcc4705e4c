import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { fearGreed } from '../feargreed/fear-greed.js';
import { regime } from '../regime/regime.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import { computeContext } from './context.js';
import { SIGNAL_FACTORS, SIGNAL_WEIGHTS, type SignalFactorName, signal } from './signal.js';

function trend(n: number, step: number): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p *= 1 + step + 0.01 * Math.sin(i * 1.3);
    out.push({ time: i, open: o, close: p, high: Math.max(o, p) * 1.003, low: Math.min(o, p) * 0.997, volume: 1000 });
  }
  return out;
}

function mirrorColumns(c: Candles, k: number): Candles {
  const m = (a: Float64Array) => a.map((x) => k - x);
  return { time: c.time, volume: c.volume, open: m(c.open), close: m(c.close), high: m(c.low), low: m(c.high) };
}

describe('signal', () => {
  it('reads buy in a steady rise and sell in a steady fall, with the breakdown', () => {
    const up = signal(toColumns(trend(300, 0.006)));
    expect(up.action).toBe('buy');
    expect(up.factors.map((f) => f.name)).toEqual(SIGNAL_FACTORS);
    expect(up.factors.find((f) => f.name === 'trend')?.score).toBeGreaterThan(0.5);
    expect(up.confidence).toBeGreaterThan(0.5);
    const down = signal(toColumns(trend(300, -0.006)));
    expect(down.action).toBe('sell');
    expect(down.score).toBeLessThan(-0.15);
  });

  it('holds with zero confidence and a reason when nothing can be computed', () => {
    const s = signal(toColumns(trend(1, 0)));
    expect(s).toMatchObject({ action: 'hold', score: 0, confidence: 0, reason: 'insufficient_data' });
    for (const f of s.factors) {
      if (f.name === 'breakout' || f.name === 'sentiment' || f.name === 'cycle_phase') continue;
      expect(f.score).toBeNull();
      expect(f.reason).toBe('insufficient_data');
    }
  });

  it('normalises the weights and renormalises over the factors present', () => {
    const c = toColumns(trend(120, 0.004));
    const s = signal(c, { weights: { trend: 2, momentum: 2, sentiment: 0, breakout: 0, risk: 0, cycle_phase: 0 } });
    expect(s.weights.trend).toBe(0.5);
    expect(s.weights.sentiment).toBe(0);
    const d = signal(c);
    expect(d.weights).toEqual(SIGNAL_WEIGHTS);
    const present = d.factors.filter((f) => f.score !== null);
    expect(present.reduce((a, f) => a + f.weight, 0)).toBeCloseTo(1, 12);
    expect(d.factors.reduce((a, f) => a + f.contribution, 0)).toBeCloseTo(d.score, 12);
  });

  it('accepts the Fear & Greed and regime it would compute', () => {
    const ctx = computeContext(toColumns(trend(200, 0.003)));
    expect(signal(ctx, { fearGreed: fearGreed(ctx), regime: regime(ctx) })).toEqual(signal(ctx));
    const withFunding = signal(ctx, { market: { funding: 0.0006 } });
    expect(withFunding.factors.find((f) => f.name === 'sentiment')?.inputs.fear_greed).toBe(
      fearGreed(ctx, { funding: 0.0006 }).score,
    );
  });

  it('has confidence in 0..1, score in -1..1, no look-ahead, and JSON-clean output', () => {
    fc.assert(
      fc.property(candleSeries(1, 260), fc.nat(), (rows, cut) => {
        const k = cut % rows.length;
        const full = computeContext(toColumns(rows));
        const s = signal(full, { asOf: k });
        expect(s).toEqual(signal(toColumns(rows.slice(0, k + 1))));
        expect(s.confidence).toBeGreaterThanOrEqual(0);
        expect(s.confidence).toBeLessThanOrEqual(1);
        expect(Math.abs(s.score)).toBeLessThanOrEqual(1);
        for (const f of s.factors) if (f.score !== null) expect(Math.abs(f.score)).toBeLessThanOrEqual(1);
        expect(s.action).toBe(s.score > s.threshold ? 'buy' : s.score < -s.threshold ? 'sell' : 'hold');
        expect(JSON.parse(JSON.stringify(s))).toEqual(s);
      }),
      { numRuns: 80 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(candleSeries(1, 150), (rows) => {
        expect(signal(toColumns(rows))).toEqual(signal(toColumns(rows)));
      }),
      { numRuns: 20 },
    );
  });

  it('mirrors: p -> K - p turns a buy into a sell (sentiment aside)', () => {
    const weights: Partial<Record<SignalFactorName, number>> = { sentiment: 0 };
    const c = toColumns(trend(300, 0.006));
    const a = signal(c, { weights });
    const b = signal(mirrorColumns(c, 2 * Math.max(...c.high)), { weights });
    expect(a.action).toBe('buy');
    expect(b.action).toBe('sell');
    expect(b.score).toBeCloseTo(-a.score, 6);
  });

  it.skipIf(!sharedDataDir)(`mirrors on the daily series (skips when ${sharedDataSkipReason})`, () => {
    // Sentiment reads volatility, which p -> K - p changes; only exact ties may break symmetry.
    const weights: Partial<Record<SignalFactorName, number>> = { sentiment: 0 };
    for (const { name, candles } of loadSharedSeries().filter((s) => s.name.endsWith('-d1'))) {
      let k = 0;
      for (const h of candles.high) k = Math.max(k, h);
      const a = computeContext(candles);
      const b = computeContext(mirrorColumns(candles, 2 * k));
      let bars = 0;
      let differ = 0;
      const flip = { buy: 'sell', sell: 'buy', hold: 'hold' } as const;
      for (let i = 0; i < a.length; i += 5) {
        const x = signal(a, { asOf: i, weights });
        const y = signal(b, { asOf: i, weights });
        bars++;
        if (flip[x.action] !== y.action) differ++;
      }
      expect(differ / bars, name).toBeLessThan(0.02);
    }
  });

  it('rejects bad options with a typed error', () => {
    const c = toColumns(trend(30, 0));
    expect(() => signal(c, { weights: { trend: -1 } })).toThrow(InputError);
    expect(() => signal(c, { weights: { nope: 1 } as Partial<Record<SignalFactorName, number>> })).toThrow(InputError);
    expect(() =>
      signal(c, { weights: { trend: 0, momentum: 0, sentiment: 0, breakout: 0, risk: 0, cycle_phase: 0 } }),
    ).toThrow(InputError);
    expect(() => signal(c, { threshold: 0 })).toThrow(InputError);
    expect(() => signal(c, { threshold: 1 })).toThrow(InputError);
    expect(() => signal(c, { asOf: 99 })).toThrow(InputError);
  });
});
