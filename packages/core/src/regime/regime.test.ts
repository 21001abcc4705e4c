import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { computeContext } from '../signal/context.js';
import { candleSeries, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle } from '../types.js';
import { REGIME_PHASES, type RegimePhase, regime, regimeSeries, regimeTransitions } from './regime.js';

/** A path of per-bar drifts with a small wiggle. */
function path(drifts: number[]): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  drifts.forEach((d, i) => {
    const o = p;
    p = p * (1 + d) + 0.3 * Math.sin(i * 2.3);
    out.push({
      time: i * 86_400_000,
      open: o,
      close: p,
      high: Math.max(o, p) + 0.5,
      low: Math.min(o, p) - 0.5,
      volume: 1,
    });
  });
  return out;
}

const CYCLE = [
  ...Array<number>(120).fill(0.01),
  ...Array<number>(80).fill(0),
  ...Array<number>(120).fill(-0.01),
  ...Array<number>(80).fill(0),
];

function mirror(rows: readonly Candle[], k: number): Candle[] {
  return rows.map((r) => ({ ...r, open: k - r.open, close: k - r.close, high: k - r.low, low: k - r.high }));
}

const OPPOSITE: Record<RegimePhase, RegimePhase> = {
  markup: 'markdown',
  markdown: 'markup',
  accumulation: 'distribution',
  distribution: 'accumulation',
};

describe('regime', () => {
  it('walks a full cycle: markup, distribution, markdown, accumulation', () => {
    const c = toColumns(path(CYCLE));
    const moves = regimeTransitions(c).map((t) => `${t.from}>${t.to}`);
    expect(moves).toEqual(['markup>distribution', 'distribution>markdown', 'markdown>accumulation']);
    expect(regime(c, { asOf: 110 }).phase).toBe('markup');
    expect(regime(c, { asOf: 190 }).phase).toBe('distribution');
    expect(regime(c, { asOf: 300 }).phase).toBe('markdown');
    const last = regime(c);
    expect(last.phase).toBe('accumulation');
    expect(last.previous_phase).toBe('markdown');
    expect(last.transition?.to).toBe('accumulation');
  });

  it('reports a transition as changed exactly on the bar that confirmed it', () => {
    const c = computeContext(toColumns(path(CYCLE)));
    const ts = regimeTransitions(c);
    for (const t of ts) {
      const i = Array.from(c.candles.time).indexOf(t.time);
      const at = regime(c, { asOf: i });
      expect(at.changed).toBe(true);
      expect(at.transition).toEqual({ ...t, bars_ago: 0 });
      expect(at.bars_in_phase).toBe(0);
      const next = regime(c, { asOf: i + 1 });
      expect(next.changed).toBe(false);
      expect(next.transition?.bars_ago).toBe(1);
    }
  });

  it('needs confirmBars bars of a new indication', () => {
    const c = computeContext(toColumns(path(CYCLE)));
    for (const confirmBars of [1, 3, 8]) {
      const { phase, indicated } = regimeSeries(c, { confirmBars });
      for (let i = 1; i < phase.length; i++) {
        if (phase[i - 1] >= 0 && phase[i] !== phase[i - 1]) {
          for (let j = i - confirmBars + 1; j <= i; j++) expect(indicated[j]).toBe(phase[i]);
        }
      }
    }
  });

  it('is null with a reason during warm-up', () => {
    const r = regime(toColumns(path(Array<number>(40).fill(0.01))));
    expect(r.phase).toBeNull();
    expect(r.reason).toBe('insufficient_data');
    expect(r.changed).toBe(false);
  });

  it('has no look-ahead, and prefix results are identical', () => {
    fc.assert(
      fc.property(candleSeries(60, 160), fc.nat(), (rows, cut) => {
        const k = cut % rows.length;
        const full = computeContext(toColumns(rows));
        const prefix = toColumns(rows.slice(0, k + 1));
        expect(regime(full, { asOf: k })).toEqual(regime(prefix));
        expect(regimeTransitions(full, { asOf: k })).toEqual(regimeTransitions(prefix));
      }),
      { numRuns: 60 },
    );
  });

  it('mirrors: p -> K - p turns markup into markdown and accumulation into distribution', () => {
    const rows = path(CYCLE);
    const k = 1000;
    const a = regimeSeries(toColumns(rows)).phase;
    const b = regimeSeries(toColumns(mirror(rows, k))).phase;
    for (let i = 0; i < a.length; i++) {
      if (a[i] < 0) expect(b[i]).toBe(a[i]);
      else expect(REGIME_PHASES[b[i]]).toBe(OPPOSITE[REGIME_PHASES[a[i]]]);
    }
  });

  it.skipIf(!sharedDataDir)(`visits every phase on the long real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      if (candles.close.length < 2000) continue;
      const seen = new Set(regimeTransitions(candles).map((t) => t.to));
      expect(seen.size, name).toBe(4);
    }
  });

  it('rejects bad options with a typed error', () => {
    const c = toColumns(path([0, 0, 0]));
    expect(() => regime(c, { confirmBars: 0 })).toThrow(InputError);
    expect(() => regime(c, { efficiency: 2 })).toThrow(InputError);
    expect(() => regime(c, { minMoveAtr: -1 })).toThrow(InputError);
    expect(() => regime(c, { asOf: 3 })).toThrow(InputError);
  });
});
