import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Analysis, analyze } from './analyze.js';
import { InputError } from './errors.js';
import { REGIME_HISTORY } from './regime/regime.js';
import { computeContext } from './signal/context.js';
import { candleSeries, seriesPast, toColumns } from './testing/props.js';
import { reach } from './testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from './testing/shared-data.js';

/** Every number in a wire object is finite (NaN and Infinity never reach the wire). */
function expectWireClean(a: Analysis): void {
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'number') expect(Number.isFinite(v), path).toBe(true);
    else if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) walk(v[k], `${path}[${k}]`);
    } else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  walk(a, 'analysis');
  expect(JSON.parse(JSON.stringify(a))).toEqual(a);
}

/**
 * Bars before every signal factor has a score: the signal's history (SMA200) and the regime's
 * (SMA200 and its 20-bar slope) are the longest.
 */
const WARM_UP = REGIME_HISTORY;

describe('analyze', () => {
  it('has no look-ahead: a prefix reads what the full series read as of its last candle', () => {
    const read = reach('a prefix with a signal from every factor');
    read.assert(
      fc.property(
        seriesPast(candleSeries, WARM_UP, { minLength: 1, maxLength: WARM_UP + 100 }),
        fc.nat(),
        (rows, cut) => {
          // the prefix ends past the warm-up where the series allows it
          const from = Math.min(WARM_UP, rows.length - 1);
          const k = from + (cut % (rows.length - from));
          const full = computeContext(toColumns(rows));
          const a = analyze(full, { asOf: k });
          read.hitIf(a.signal.factors.every((f) => f.score !== null));
          expect(a).toEqual(analyze(toColumns(rows.slice(0, k + 1))));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is deterministic and JSON-clean, with the plan following the signal', () => {
    const planned = reach('a plan past the ATR warm-up');
    const signalled = reach('a signal from every factor');
    signalled.assert(
      fc.property(seriesPast(candleSeries, WARM_UP, { minLength: 1, maxLength: WARM_UP + 100 }), (rows) => {
        const a = analyze(toColumns(rows));
        signalled.hitIf(a.signal.factors.every((f) => f.score !== null));
        planned.hitIf(a.zone.atr !== null);
        expect(analyze(toColumns(rows))).toEqual(a);
        expectWireClean(a);
        expect(a.as_of).toBe(rows[rows.length - 1].time);
        const side = a.signal.action === 'buy' ? 'long' : a.signal.action === 'sell' ? 'short' : null;
        if (side === null) expect(a.zone.direction).toBeNull();
        else if (a.zone.direction !== null) expect(a.zone.direction).toBe(side);
      }),
      { numRuns: 40, also: [[planned, 0.8]] },
    );
  });

  it.skipIf(!sharedDataDir)(`analyzes every real series walk-forward (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      const ctx = computeContext(candles);
      const step = Math.max(1, Math.floor(ctx.length / 40));
      for (let i = 0; i < ctx.length; i += step) {
        const a = analyze(ctx, { asOf: i });
        expectWireClean(a);
        expect(a.as_of_index, name).toBe(i);
        const z = a.zone;
        if (z.direction !== null && z.entry_price !== null && z.stop_loss !== null) {
          const s = z.direction === 'long' ? 1 : -1;
          expect(s * (z.entry_price - z.stop_loss), name).toBeGreaterThan(0);
          for (const t of z.take_profits) expect(s * (t.price - z.entry_price), name).toBeGreaterThan(0);
        }
      }
    }
  });

  it('can plan from the trend instead of the signal', () => {
    const rows = Array.from({ length: 300 }, (_, i) => {
      const o = 100 * 1.004 ** i + Math.sin(i);
      const c = 100 * 1.004 ** (i + 1) + Math.sin(i + 1);
      return { time: i, open: o, close: c, high: Math.max(o, c) + 0.5, low: Math.min(o, c) - 0.5, volume: 1 };
    });
    const a = analyze(toColumns(rows), { planDirection: 'trend', signal: { threshold: 0.99 } });
    expect(a.signal.action).toBe('hold');
    expect(a.zone.bias).toBe('long');
    expect(analyze(toColumns(rows), { signal: { threshold: 0.99 } }).zone.reason).toBe('no_direction');
  });

  it('rejects bad options with a typed error', () => {
    const c = toColumns([{ time: 0, open: 1, high: 1, low: 1, close: 1, volume: 1 }]);
    expect(() => analyze(c, { asOf: 2 })).toThrow(InputError);
    expect(() => analyze(c, { planDirection: 'up' as 'trend' })).toThrow(InputError);
    expect(() => analyze(c, { signal: { threshold: 5 } })).toThrow(InputError);
    expect(() => analyze(c, { market: { funding: Number.NaN } })).toThrow(InputError);
  });
});
