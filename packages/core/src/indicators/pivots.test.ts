import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import { type PivotCandles, type PivotMethod, type PivotOptions, PivotPoints, pivotPoints } from './pivots.js';

const METHODS: readonly PivotMethod[] = ['classic', 'fibonacci', 'camarilla', 'woodie'];

/** Bar 1's levels from a single previous bar. */
function levelsFrom(h: number, l: number, c: number, options: PivotOptions, open = 0): Record<string, number> {
  const out = pivotPoints({ high: [h, 0], low: [l, 0], close: [c, 0], open: [0, open] }, options);
  return Object.fromEntries(Object.entries(out).map(([k, col]) => [k, col[1]]));
}

function expectLevels(got: Record<string, number>, want: Record<string, number>, digits = 12): void {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const [k, v] of Object.entries(want)) expect(got[k], k).toBeCloseTo(v, digits);
}

/**
 * The levels as TradingView's help page "Pivot Points Standard" writes them (Traditional,
 * Fibonacci, Woodie, Camarilla), transcribed independently of pivots.ts; Woodie with the
 * previous close unless `open` is given (TradingView's OPENcurr).
 */
function tradingViewLevels(c: Candles, method: PivotMethod, useOpen: boolean): Record<string, Float64Array> {
  const n = c.close.length;
  const keys =
    method === 'camarilla'
      ? ['pp', 'r1', 'r2', 'r3', 'r4', 's1', 's2', 's3', 's4']
      : ['pp', 'r1', 'r2', 'r3', 's1', 's2', 's3'];
  const out: Record<string, Float64Array> = Object.fromEntries(
    keys.map((k) => [k, new Float64Array(n).fill(Number.NaN)]),
  );
  for (let i = 1; i < n; i++) {
    const H = c.high[i - 1];
    const L = c.low[i - 1];
    const C = c.close[i - 1];
    let v: Record<string, number>;
    if (method === 'classic') {
      const PP = (H + L + C) / 3;
      v = {
        pp: PP,
        r1: PP * 2 - L,
        s1: PP * 2 - H,
        r2: PP + (H - L),
        s2: PP - (H - L),
        r3: PP * 2 + (H - 2 * L),
        s3: PP * 2 - (2 * H - L),
      };
    } else if (method === 'fibonacci') {
      const PP = (H + L + C) / 3;
      v = {
        pp: PP,
        r1: PP + 0.382 * (H - L),
        s1: PP - 0.382 * (H - L),
        r2: PP + 0.618 * (H - L),
        s2: PP - 0.618 * (H - L),
        r3: PP + (H - L),
        s3: PP - (H - L),
      };
    } else if (method === 'woodie') {
      const PP = (H + L + 2 * (useOpen ? c.open[i] : C)) / 4;
      v = {
        pp: PP,
        r1: PP * 2 - L,
        s1: PP * 2 - H,
        r2: PP + (H - L),
        s2: PP - (H - L),
        r3: H + 2 * (PP - L),
        s3: L - 2 * (H - PP),
      };
    } else {
      v = {
        pp: (H + L + C) / 3,
        r1: C + (1.1 * (H - L)) / 12,
        s1: C - (1.1 * (H - L)) / 12,
        r2: C + (1.1 * (H - L)) / 6,
        s2: C - (1.1 * (H - L)) / 6,
        r3: C + (1.1 * (H - L)) / 4,
        s3: C - (1.1 * (H - L)) / 4,
        r4: C + (1.1 * (H - L)) / 2,
        s4: C - (1.1 * (H - L)) / 2,
      };
    }
    for (const k of keys) out[k][i] = v[k];
  }
  return out;
}

describe('pivotPoints', () => {
  it('matches the published classic example of MarketTechnicals.jl', () => {
    // JuliaQuant/MarketTechnicals.jl test/levels.jl, floor_pivots on the S&P 500 of 1970-01-02
    // (H 93.54, L 91.79, C 93.00), "values verified by various website calculators".
    // That library draws R3 as R2 + (PP - S1) = 2H - L = 95.29; the floor formula used here
    // (and by TradingView's Traditional) gives H + 2(PP - L) = 95.51333...
    expectLevels(
      levelsFrom(93.54, 91.79, 93.0, {}),
      {
        pp: 92.77666666666669,
        r1: 93.76333333333336,
        r2: 94.52666666666669,
        r3: 93.54 + 2 * (92.77666666666669 - 91.79),
        s1: 92.01333333333336,
        s2: 91.02666666666669,
        s3: 90.26333333333336,
      },
      10,
    );
    expect(pivotPoints.lookback()).toBe(1);
  });

  it('matches hand-computed examples of every method', () => {
    // H 110, L 100, C 106: range 10, PP (110 + 100 + 106) / 3 = 105.333...
    const pp = 316 / 3;
    expectLevels(levelsFrom(110, 100, 106, { method: 'classic' }), {
      pp,
      r1: 2 * pp - 100, // 110.666...
      s1: 2 * pp - 110, // 100.666...
      r2: pp + 10,
      s2: pp - 10,
      r3: 110 + 2 * (pp - 100), // 120.666...
      s3: 100 - 2 * (110 - pp), // 90.666...
    });
    expectLevels(levelsFrom(110, 100, 106, { method: 'fibonacci' }), {
      pp,
      r1: pp + 3.82,
      s1: pp - 3.82,
      r2: pp + 6.18,
      s2: pp - 6.18,
      r3: pp + 10,
      s3: pp - 10,
    });
    // Camarilla around the close 106: 11 / 12, 11 / 6, 11 / 4 = 2.75, 11 / 2 = 5.5.
    expectLevels(levelsFrom(110, 100, 106, { method: 'camarilla' }), {
      pp,
      r1: 106 + 11 / 12,
      s1: 106 - 11 / 12,
      r2: 106 + 11 / 6,
      s2: 106 - 11 / 6,
      r3: 108.75,
      s3: 103.25,
      r4: 111.5,
      s4: 100.5,
    });
    // Woodie: PP (110 + 100 + 212) / 4 = 105.5; with today's open 103: (210 + 206) / 4 = 104.
    const woodie = { pp: 105.5, r1: 111, s1: 101, r2: 115.5, s2: 95.5, r3: 121, s3: 91 };
    expectLevels(levelsFrom(110, 100, 106, { method: 'woodie' }), woodie);
    expectLevels(levelsFrom(110, 100, 106, { method: 'woodie', woodieOpen: true }, 103), {
      pp: 104,
      r1: 108,
      s1: 98,
      r2: 114,
      s2: 94,
      r3: 118,
      s3: 88,
    });
    // woodieOpen means nothing to the other methods.
    expectLevels(
      levelsFrom(110, 100, 106, { method: 'classic', woodieOpen: true }, 103),
      levelsFrom(110, 100, 106, {}),
    );
  });

  it('uses only the previous bar (and the current open for woodieOpen)', () => {
    const candles = { high: [5, 9, 7], low: [1, 6, 2], close: [3, 8, 4], open: [2, 4, 8] };
    const out = pivotPoints(candles);
    expect(out.pp[0]).toBeNaN();
    expect(out.pp[1]).toBe(3);
    expect(out.pp[2]).toBeCloseTo(23 / 3, 14);
    expect('r4' in out).toBe(false);
    const cam = pivotPoints(candles, { method: 'camarilla' });
    expect(cam.r4[1]).toBeCloseTo(3 + 4.4 / 2, 14);
    const wo = pivotPoints(candles, { method: 'woodie', woodieOpen: true });
    expect(Array.from(wo.pp)).toEqual([Number.NaN, (5 + 1 + 8) / 4, (9 + 6 + 16) / 4]);
  });

  it.skipIf(!sharedDataDir)(
    `matches TradingView's published formulas on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const method of METHODS) {
          for (const woodieOpen of method === 'woodie' ? [false, true] : [false]) {
            const ours: Record<string, Float64Array | undefined> = { ...pivotPoints(candles, { method, woodieOpen }) };
            const ref = tradingViewLevels(candles, method, woodieOpen);
            expect(Object.keys(ours).sort()).toEqual(Object.keys(ref).sort());
            for (const [k, col] of Object.entries(ref)) {
              const got = ours[k];
              expect(got).toBeDefined();
              if (got) expectClose(got, col, { label: `${name} ${method}${woodieOpen ? ' open' : ''} ${k}` });
            }
          }
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    for (const method of METHODS) {
      for (const woodieOpen of method === 'woodie' ? [false, true] : [false]) {
        const options = { method, woodieOpen };
        const flat: Record<string, number> = method === 'camarilla' ? { r4: 7, s4: 7 } : {};
        checkIndicatorProperties<Candle>({
          inputs: candlesPast,
          batch: (rows) => pivotPoints(toColumns(rows), options),
          stream: () => new PivotPoints(options),
          lookback: pivotPoints.lookback(options),
          // A flat bar (high == low == close) puts every level on the price.
          constant: {
            input: { time: 0, open: 7, high: 7, low: 7, close: 7, volume: 1 },
            expected: { pp: 7, r1: 7, r2: 7, r3: 7, s1: 7, s2: 7, s3: 7, ...flat },
          },
        });
      }
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c) => pivotPoints(c as unknown as PivotCandles), ['high', 'low', 'close'], []);
    checkCandleBadInput(
      (c) => pivotPoints(c as unknown as PivotCandles, { method: 'woodie', woodieOpen: true }),
      ['high', 'low', 'close', 'open'],
      [],
    );
    const bad = { method: 'demark' } as unknown as PivotOptions;
    expect(() => pivotPoints({ high: [1], low: [1], close: [1] }, bad)).toThrow(InputError);
    expect(() => new PivotPoints(bad)).toThrow(/method/);
    expect(() => pivotPoints.lookback(bad)).toThrow(InputError);
    expect(() => new PivotPoints({ method: 'woodie', woodieOpen: true }).update({ high: 1, low: 1, close: 1 })).toThrow(
      /open/,
    );
  });
});
