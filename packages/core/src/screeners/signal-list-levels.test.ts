import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { contextOf } from '../signal/context.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { detectOversold } from './screeners.js';
import { filterSignals, type SignalRow, signalRow } from './signal-list.js';

/** The row's zone columns against the analysis's levels of the same candles. */
function expectSameLevels(row: SignalRow, a: ReturnType<typeof analyze>, what: string): void {
  const { inside, nearest_support: s, nearest_resistance: r } = a.levels;
  expect(row.inside_zone, `${what}: inside`).toBe(inside !== null);
  expect(row.support_distance_atr, `${what}: support`).toBe(s === null ? null : s.distance_atr);
  expect(row.resistance_distance_atr, `${what}: resistance`).toBe(r === null ? null : r.distance_atr);
  // a zone holding the price is never a support and a resistance at distance 0
  expect(row.support_distance_atr === 0 && row.resistance_distance_atr === 0, `${what}: 0/0`).toBe(false);
  if (row.support_distance_atr !== null) expect(row.support_distance_atr).toBeLessThan(0);
  if (row.resistance_distance_atr !== null) expect(row.resistance_distance_atr).toBeGreaterThan(0);
}

describe('signal-list rows and the analysis share one definition of the zones', () => {
  it.skipIf(!sharedDataDir)(
    `show the analysis's support and resistance on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      const rows: SignalRow[] = [];
      for (const { name, candles } of loadSharedSeries()) {
        const ctx = contextOf(candles);
        const n = candles.close.length;
        for (let k = 1; k <= 20; k++) {
          const i = Math.floor(((n - 1) * k) / 20);
          if (i < 60) continue;
          const row = signalRow(`${name}-${i}`, ctx, { asOf: i });
          expectSameLevels(row, analyze(ctx, { asOf: i }), `${name}@${i}`);
          rows.push(row);
        }
      }
      expect(rows.length).toBeGreaterThan(80);
      // the price sits inside a zone often on real series: such rows are near a zone (any), and
      // near a support only when a zone below lies within reach as well
      const inside = rows.filter((r) => r.inside_zone);
      expect(inside.length).toBeGreaterThan(0);
      const anyIds = new Set(filterSignals(rows, { near_zone: 'any' }).map((r) => r.asset_id));
      for (const r of inside) expect(anyIds.has(r.asset_id)).toBe(true);
      for (const r of filterSignals(rows, { near_zone: 'support' })) {
        expect(r.support_distance_atr ?? Number.NaN).toBeGreaterThanOrEqual(-1);
      }
    },
  );

  it('show the analysis support and resistance for long generated series (most draws have zones)', () => {
    let reached = 0;
    let runs = 0;
    fc.assert(
      fc.property(candleSeries(260, 400), (candles) => {
        runs++;
        const c = toColumns(candles);
        const a = analyze(c);
        if (a.levels.zones.length === 0) return;
        reached++;
        expectSameLevels(signalRow('x', c), a, 'generated');
      }),
      { numRuns: 40 },
    );
    expect(reached / runs).toBeGreaterThanOrEqual(0.8);
  });

  it('uses no channel fallback in a row: without a zone below there is no support', () => {
    // a steady climb to new highs: every zone lies below, none above, and the row says so
    const n = 300;
    const rows = Array.from({ length: n }, (_, i) => {
      const p = 100 + i + 3 * Math.sin(i / 3);
      return { time: i * 60_000, open: p - 0.5, high: p + 1, low: p - 1, close: p, volume: 1000 };
    });
    const c = toColumns(rows);
    const a = analyze(c);
    const row = signalRow('up', c);
    expect(a.levels.nearest_resistance).toBeNull();
    expect(row.resistance_distance_atr).toBeNull();
    expectSameLevels(row, a, 'climb');
    // the oversold screen keeps its labelled channel fallback: it never claims a zone
    expect(detectOversold(c, { zones: [] })?.support_kind ?? 'channel').toBe('channel');
  });
});
