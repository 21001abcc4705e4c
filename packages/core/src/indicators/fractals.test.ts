import fc from 'fast-check';
import { SwingHigh, SwingLow } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, HL } from '../types.js';
import { Fractals, fractals } from './fractals.js';

/** trading-signals SwingHigh/SwingLow (strict on both sides, value at the confirming bar), aligned. */
function swings(c: HL, period: number): { up: Float64Array; down: Float64Array } {
  const n = c.high.length;
  const hi = new SwingHigh({ lookback: period });
  const lo = new SwingLow({ lookback: period });
  const up = new Float64Array(n).fill(Number.NaN);
  const down = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    const candle = { high: c.high[i], low: c.low[i] };
    const u = hi.add(candle);
    const d = lo.add(candle);
    if (u !== null) up[i] = u;
    if (d !== null) down[i] = d;
  }
  return { up, down };
}

describe('fractals', () => {
  it('matches a worked example', () => {
    const N = Number.NaN;
    const out = fractals({
      high: [1, 2, 5, 3, 4, 6, 6, 2, 1],
      low: [0, 1, 2, 1, 0.5, 3, 5, 0.5, 0.5],
    });
    // Up: bar 2 (high 5 > 1, 2 and 3, 4) is confirmed at bar 4. Bars 5 and 6 (equal highs 6)
    // reject each other. Down: bar 4 (low 0.5 < 2, 1 and 3, 5) is confirmed at bar 6; bar 3
    // (low 1) ties bar 1 two bars back.
    expect(Array.from(out.up)).toEqual([N, N, N, N, 5, N, N, N, N]);
    expect(Array.from(out.down)).toEqual([N, N, N, N, N, N, 0.5, N, N]);
    expect(fractals.lookback()).toBe(4);
    expect(fractals.lookback({ period: 3 })).toBe(6);
    // period 1: a three-bar fractal; one bar can confirm both kinds (an outside bar).
    const outside = fractals({ high: [2, 3, 1], low: [1, 0, 2] }, { period: 1 });
    expect(Array.from(outside.up)).toEqual([N, N, 3]);
    expect(Array.from(outside.down)).toEqual([N, N, 0]);
  });

  it.skipIf(!sharedDataDir)(
    `matches trading-signals SwingHigh/SwingLow on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const period of [1, 2, 5]) {
          const ours = fractals(candles, { period });
          const ref = swings(candles, period);
          expectClose(ours.up, ref.up, { label: `${name} fractals(${period}) up` });
          expectClose(ours.down, ref.down, { label: `${name} fractals(${period}) down` });
          // Real prices do have fractals.
          expect(ours.up.some((x) => !Number.isNaN(x))).toBe(true);
        }
      }
    },
  );

  it('matches trading-signals SwingHigh/SwingLow on generated candles', () => {
    const r = reach('a confirmed swing');
    r.assert(
      fc.property(candleSeries(20, 160), fc.integer({ min: 1, max: 6 }), (rows, period) => {
        const c = toColumns(rows);
        const ours = fractals(c, { period });
        r.hitIf(ours.up.some(Number.isFinite) || ours.down.some(Number.isFinite));
        const ref = swings(c, period);
        expectClose(ours.up, ref.up, { label: `fractals(${period}) up` });
        expectClose(ours.down, ref.down, { label: `fractals(${period}) down` });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 5]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => fractals(toColumns(rows), { period }),
        stream: () => new Fractals({ period }),
        lookback: fractals.lookback({ period }),
        sparse: ['up', 'down'],
      });
    }
    // A constant series ties everywhere: no fractal at all.
    const flat = fractals({ high: new Float64Array(20).fill(3), low: new Float64Array(20).fill(2) });
    expect(flat.up.every(Number.isNaN)).toBe(true);
    expect(flat.down.every(Number.isNaN)).toBe(true);
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => fractals(c as unknown as HL, o), ['high', 'low'], ['period']);
    expect(() => new Fractals().update({ high: 1 })).toThrow(/low/);
  });
});
