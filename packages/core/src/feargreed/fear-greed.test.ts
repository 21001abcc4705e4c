import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { computeContext } from '../signal/context.js';
import { candleSeries, seriesPast, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle } from '../types.js';
import { FEAR_GREED_WEIGHTS, FEAR_GREED_ZONES, fearGreed, fearGreedZone } from './fear-greed.js';

function trend(n: number, step: number, volume = (i: number) => 1000 + (i % 7) * 100): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p *= 1 + step + 0.004 * Math.sin(i * 1.7);
    out.push({
      time: i * 86_400_000,
      open: o,
      close: p,
      high: Math.max(o, p) * 1.002,
      low: Math.min(o, p) * 0.998,
      volume: volume(i),
    });
  }
  return out;
}

describe('fearGreedZone', () => {
  it('uses the documented cut-offs 0-24, 25-44, 45-55, 56-75, 76-100', () => {
    const cases: [number, string][] = [
      [0, 'extreme_fear'],
      [24, 'extreme_fear'],
      [24.4, 'extreme_fear'],
      [25, 'fear'],
      [44, 'fear'],
      [45, 'neutral'],
      [55, 'neutral'],
      [56, 'greed'],
      [75, 'greed'],
      [76, 'extreme_greed'],
      [100, 'extreme_greed'],
    ];
    for (const [s, z] of cases) expect(fearGreedZone(s)).toBe(z);
    for (const { zone, min, max } of FEAR_GREED_ZONES) {
      expect(fearGreedZone(min)).toBe(zone);
      expect(fearGreedZone(max)).toBe(zone);
    }
    expect(() => fearGreedZone(101)).toThrow(InputError);
  });
});

/** Bars before every candle component of the score is computable (about 45). */
const WARM_UP = 50;

describe('fearGreed', () => {
  it('reads greed in a steady rise on rising volume and fear in a steady fall', () => {
    const up = fearGreed(toColumns(trend(200, 0.01)));
    const down = fearGreed(toColumns(trend(200, -0.01)));
    expect(up.score).toBeGreaterThan(55);
    expect(down.score).toBeLessThan(45);
    expect(up.components.map((c) => c.name)).toEqual(['volatility', 'momentum', 'volume', 'overextension']);
  });

  it('renormalises the weights over the components present and lists the absent ones', () => {
    const c = toColumns(trend(150, 0.002));
    const base = fearGreed(c);
    expect(base.unavailable.map((u) => [u.name, u.reason])).toEqual([
      ['funding', 'not_supplied'],
      ['breadth', 'not_supplied'],
      ['dominance', 'not_supplied'],
    ]);
    const full = fearGreed(c, { funding: 0.0006, breadth: 1, dominanceChange: -2 });
    expect(full.components).toHaveLength(7);
    for (const r of [base, full]) {
      const sum = r.components.reduce((s, x) => s + x.weight, 0);
      expect(sum).toBeCloseTo(1, 12);
      for (const x of r.components) expect(x.base_weight).toBe(FEAR_GREED_WEIGHTS[x.name]);
    }
    // the supplied inputs all read extreme greed (100), so the score rises
    expect(
      full.components.filter((x) => ['funding', 'breadth', 'dominance'].includes(x.name)).map((x) => x.value),
    ).toEqual([100, 100, 100]);
    expect(full.score ?? 0).toBeGreaterThan(base.score ?? 0);
    // the score is the weighted mean of the components, rounded
    const mean = full.components.reduce((s, x) => s + x.weight * x.value, 0);
    expect(Math.abs((full.score ?? 0) - mean)).toBeLessThanOrEqual(0.5 + 0.05);
  });

  it('reads neutral funding at the usual 0.01% per interval', () => {
    const r = fearGreed(toColumns(trend(60, 0)), { funding: 0.0001 });
    expect(r.components.find((x) => x.name === 'funding')?.value).toBe(50);
  });

  it('has a score in 0..100 whose zone matches, or null with a reason', () => {
    const scored = reach('a score from every candle component');
    scored.assert(
      fc.property(
        seriesPast(candleSeries, WARM_UP, { minLength: 1, maxLength: 200 }),
        fc.option(fc.double({ min: -0.01, max: 0.01, noNaN: true })),
        (rows, funding) => {
          const r = fearGreed(toColumns(rows), { funding });
          scored.hitIf(!r.unavailable.some((u) => u.reason === 'insufficient_data'));
          if (r.score === null) {
            expect(r.reason).toBe('insufficient_data');
            expect(rows.length).toBeLessThan(15);
            return;
          }
          expect(Number.isInteger(r.score)).toBe(true);
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          expect(r.zone).toBe(fearGreedZone(r.score));
          for (const x of r.components) {
            expect(x.value).toBeGreaterThanOrEqual(0);
            expect(x.value).toBeLessThanOrEqual(100);
          }
          expect(JSON.parse(JSON.stringify(r))).toEqual(r);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('has no look-ahead: a prefix reads what the full series read at that bar', () => {
    const read = reach('a prefix with every candle component');
    read.assert(
      fc.property(seriesPast(candleSeries, WARM_UP, { minLength: 2, maxLength: 200 }), fc.nat(), (rows, cut) => {
        // the prefix ends past the warm-up where the series allows it
        const from = Math.min(WARM_UP, rows.length - 1);
        const k = from + (cut % (rows.length - from));
        const full = computeContext(toColumns(rows));
        const f = fearGreed(full, { asOf: k });
        read.hitIf(!f.unavailable.some((u) => u.reason === 'insufficient_data'));
        expect(f).toEqual(fearGreed(toColumns(rows.slice(0, k + 1))));
      }),
      { numRuns: 80 },
    );
  });

  it.skipIf(!sharedDataDir)(
    `stays in 0..100 on every bar of the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { candles } of loadSharedSeries()) {
        const ctx = computeContext(candles);
        const zones = new Set<string>();
        for (let i = 0; i < ctx.length; i += 7) {
          const r = fearGreed(ctx, { asOf: i });
          if (r.score === null) continue;
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          zones.add(r.zone ?? '');
        }
        expect(zones.size).toBeGreaterThanOrEqual(3);
      }
    },
  );

  it('rejects bad input with a typed error', () => {
    const c = toColumns(trend(30, 0));
    expect(() => fearGreed(c, { funding: Number.NaN })).toThrow(InputError);
    expect(() => fearGreed(c, { breadth: 1.5 })).toThrow(InputError);
    expect(() => fearGreed(c, { dominanceChange: 1000 })).toThrow(InputError);
    expect(() => fearGreed(c, { asOf: 30 })).toThrow(InputError);
    expect(() => fearGreed(c, { asOf: 1.5 })).toThrow(InputError);
  });
});
