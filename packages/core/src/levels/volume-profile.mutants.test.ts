// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the profile recomputed from its documentation (rows, pro-rata spreading, POC ties, value area)
// on candles of a coarse price grid, where ties are common.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import { volumeProfile } from './volume-profile.js';

interface Row {
  low: number;
  high: number;
  volume: number;
}

/** The profile as documented: rows of the window's range, each candle spread over its own range. */
function reference(rows: readonly Candle[], bins: number) {
  const lo = Math.min(...rows.map((r) => r.low));
  const hi = Math.max(...rows.map((r) => r.high));
  const total = rows.reduce((s, r) => s + r.volume, 0);
  const byTime = !(total > 0);
  const count = hi > lo ? bins : 1;
  const step = (hi - lo) / count;
  const edge = (k: number) => (k === count ? hi : lo + k * step);
  const out: Row[] = Array.from({ length: count }, (_, k) => ({ low: edge(k), high: edge(k + 1), volume: 0 }));
  for (const r of rows) {
    const v = byTime ? 1 : r.volume;
    if (r.high > r.low) {
      for (const row of out) {
        const overlap = Math.min(r.high, row.high) - Math.max(r.low, row.low);
        if (overlap > 0) row.volume += (v * overlap) / (r.high - r.low);
      }
    } else {
      // a candle without range: its row (the last row holds the top edge)
      const k = count === 1 ? 0 : Math.min(count - 1, Math.floor((r.low - lo) / step));
      out[k].volume += v;
    }
  }
  return { out, lo, hi, count, step, weight: byTime ? rows.length : total, mark: rows[rows.length - 1].close };
}

const grid = fc.array(
  fc.record({
    low: fc.integer({ min: 0, max: 8 }),
    range: fc.integer({ min: 0, max: 4 }),
    volume: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 })),
    up: fc.boolean(),
  }),
  { minLength: 1, maxLength: 30 },
);

function rowsOf(cells: { low: number; range: number; volume: number; up: boolean }[]): Candle[] {
  return cells.map(({ low, range, volume, up }, i) => ({
    time: i * 1000,
    open: up ? low : low + range,
    high: low + range,
    low,
    close: up ? low + range : low,
    volume,
  }));
}

describe('volumeProfile against its documentation', () => {
  it('spreads each candle pro rata over the rows, and picks the POC and the value area as documented', () => {
    fc.assert(
      fc.property(
        grid,
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (cells, bins, share) => {
          const rows = rowsOf(cells);
          const p = volumeProfile(toColumns(rows), { bins, valueArea: share });
          const ref = reference(rows, bins);
          expect(p.bins.map((b) => [b.low, b.high])).toEqual(ref.out.map((b) => [b.low, b.high]));
          for (const [k, b] of p.bins.entries()) expect(b.volume).toBeCloseTo(ref.out[k].volume, 9);
          const vol = p.bins.map((b) => b.volume);
          // POC (over the rows' own volumes, checked above): a fullest row; on a tie, the row
          // whose middle is nearest the last close, then the lower
          const max = Math.max(...vol);
          const mid = (k: number) => ref.lo + (k + 0.5) * ref.step;
          const candidates = vol.map((_, k) => k).filter((k) => vol[k] === max);
          const best = candidates.reduce((a, k) => (Math.abs(mid(k) - ref.mark) < Math.abs(mid(a) - ref.mark) ? k : a));
          expect(p.poc).toBeCloseTo(ref.count === 1 ? (ref.lo + ref.hi) / 2 : mid(best), 9);
          // value area: from the POC, the larger neighbour first (both on a tie) until `share` is held
          let a = best;
          let b = best;
          let acc = vol[best];
          while (acc < share * ref.weight) {
            const up = b + 1 < vol.length ? vol[b + 1] : -1;
            const down = a > 0 ? vol[a - 1] : -1;
            if (up < 0 && down < 0) break;
            if (up >= down) acc += vol[++b];
            if (down >= up) acc += vol[--a];
          }
          expect(p.value_area_low).toBe(p.bins[a].low);
          expect(p.value_area_high).toBe(p.bins[b].high);
          expect(p.basis).toBe(rows.some((r) => r.volume > 0) ? 'volume' : 'time');
        },
      ),
      { numRuns: 120 },
    );
  });

  it('breaks a POC tie toward the last close, then toward the lower row', () => {
    // two equally full rows 0..1 and 3..4 (bins of 1 over 0..4); the close decides
    const rows = (close: number): Candle[] => [
      { time: 0, open: 0, high: 1, low: 0, close: 0, volume: 10 },
      { time: 1, open: 3, high: 4, low: 3, close: 3, volume: 10 },
      { time: 2, open: close, high: close, low: close, close, volume: 0 },
    ];
    expect(volumeProfile(toColumns(rows(4)), { bins: 4 }).poc).toBe(3.5);
    expect(volumeProfile(toColumns(rows(0)), { bins: 4 }).poc).toBe(0.5);
    // the close halfway: the lower row
    expect(volumeProfile(toColumns(rows(2)), { bins: 4 }).poc).toBe(0.5);
  });

  it('counts each candle of a silent window once, over the window only', () => {
    const rows: Candle[] = Array.from({ length: 6 }, (_, i) => ({
      time: i,
      open: 1,
      high: 2,
      low: 1,
      close: 2,
      volume: 0,
    }));
    const p = volumeProfile(toColumns(rows), { bins: 1, window: 4, valueArea: 1 });
    expect(p.basis).toBe('time');
    expect(p.bins.map((b) => b.volume)).toEqual([4]);
    expect([p.value_area_low, p.value_area_high]).toEqual([1, 2]);
  });

  it('names the option in its errors', () => {
    const c = toColumns([{ time: 0, open: 1, high: 2, low: 1, close: 2, volume: 1 }]);
    for (const [name, value] of [
      ['bins', 0],
      ['valueArea', 0],
      ['window', 0],
    ] as const) {
      let caught: unknown;
      try {
        volumeProfile(c, { [name]: value });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).field).toBe(name);
    }
  });
});
