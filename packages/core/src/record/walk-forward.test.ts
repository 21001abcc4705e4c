import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { InputError } from '../errors.js';
import type { SignalCalibration } from '../signal/calibration.js';
import { SIGNAL_CALIBRATION } from '../signal/calibration-table.js';
import { computeContext } from '../signal/context.js';
import { simulatePlan } from '../simulation/simulate.js';
import { toColumns, trendingCandleSeries } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { recordStats } from './stats.js';
import { outOfSampleSince, WALK_FORWARD_WARMUP, walkForward } from './walk-forward.js';

// The floor off: every call the score makes is published, so the draws hold calls to check.
const CALLS = { signal: { minExpectedR: -100 }, plan: { costPct: 0.05 } };

describe('outOfSampleSince', () => {
  it('is the day after the latest training day of the family', () => {
    const files = (family: 'daily' | 'intraday', train_to: string) => ({
      file: `${train_to}.csv`,
      family,
      candles: 1,
      train_from: '2000-01-01',
      train_to,
      plans: 0,
      hits: 0,
    });
    const cal: SignalCalibration = {
      ...SIGNAL_CALIBRATION,
      provenance: {
        ...SIGNAL_CALIBRATION.provenance,
        files: [files('daily', '2008-12-30'), files('daily', '2010-03-22'), files('intraday', '2021-11-19')],
      },
    };
    expect(outOfSampleSince(cal, 'daily')).toBe(Date.UTC(2010, 2, 23));
    expect(outOfSampleSince(cal, 'intraday')).toBe(Date.UTC(2021, 10, 20));
    expect(outOfSampleSince({ ...cal, provenance: { ...cal.provenance, files: [] } }, 'daily')).toBeNull();
    // the shipped table's windows end before any candle the service serves today
    expect(outOfSampleSince(SIGNAL_CALIBRATION, 'daily')).not.toBeNull();
  });
});

describe('walkForward', () => {
  it('refuses a bad stride or warm-up', () => {
    const c = toColumns(fc.sample(trendingCandleSeries(260, 260), { numRuns: 1, seed: 1 })[0]);
    expect(() => walkForward(c, { stride: 0 })).toThrow(InputError);
    expect(() => walkForward(c, { warmup: -1 })).toThrow(InputError);
  });

  it("is analyze's published calls, each simulated with its plan's cost on the candles after it", () => {
    const called = reach('a walk with a published call');
    const resolved = reach('a walk with a resolved call');
    called.assert(
      fc.property(trendingCandleSeries(260, 330), fc.integer({ min: 2, max: 4 }), (rows, stride) => {
        const c = toColumns(rows);
        const n = c.time.length;
        const w = walkForward(c, { stride, analyze: CALLS });
        const warmup = Math.min(WALK_FORWARD_WARMUP, Math.floor(n / 3));
        expect(w.analyses).toBe(Math.ceil((n - 1 - warmup) / stride));
        expect(w.first_time).toBe(c.time[warmup]);
        const ctx = computeContext(c);
        let calls = 0;
        for (let i = warmup; i < n - 1; i += stride) {
          const a = analyze(ctx, { ...CALLS, asOf: i });
          if (a.signal.action === 'hold' || a.zone.direction === null) continue;
          const call = w.calls[calls++];
          expect(call).toMatchObject({ index: i, time: c.time[i], side: a.zone.direction });
          expect(call.confidence).toBe(a.signal.confidence);
          expect(call.edge).toEqual(a.signal.edge);
          const sim = simulatePlan(a.zone, c, { fromIndex: i + 1, costPct: 0.05 });
          expect([call.outcome, call.realized_r, call.exit_time]).toEqual([sim.outcome, sim.realized_r, sim.exit_time]);
        }
        expect(w.calls.length).toBe(calls);
        called.hitIf(calls > 0);
        const closed = w.calls.filter(
          (k) => k.realized_r !== null && ['tp_hit', 'stopped_out', 'time_stopped'].includes(k.outcome ?? ''),
        );
        expect(w.trades.map((t) => t.time)).toEqual(closed.map((k) => k.time));
        expect(w.trades.map((t) => t.hit)).toEqual(closed.map((k) => k.outcome === 'tp_hit'));
        resolved.hitIf(w.trades.length > 0);
        for (const t of w.trades) expect(t.closed_at).toBeGreaterThan(t.time);
      }),
      { numRuns: 12, atLeast: 0.5, also: [[resolved, 0.25]] },
    );
  });

  it('walks a series in slices as it walks it whole, and never before `since`', () => {
    const called = reach('a walk with a published call');
    called.assert(
      fc.property(trendingCandleSeries(260, 320), fc.double({ min: 0, max: 1, noNaN: true }), (rows, cut) => {
        const c = toColumns(rows);
        const n = c.time.length;
        const whole = walkForward(c, { stride: 3, analyze: CALLS });
        called.hitIf(whole.calls.length > 0);
        const mid = Math.floor(n * cut);
        // slices on the stride's grid: the second starts on the first index the whole walk reaches past mid
        const warmup = Math.min(WALK_FORWARD_WARMUP, Math.floor(n / 3));
        const next = mid <= warmup ? warmup : warmup + Math.ceil((mid - warmup) / 3) * 3;
        const ctx = computeContext(c);
        const a = walkForward(ctx, { stride: 3, end: next, analyze: CALLS });
        const b = walkForward(ctx, { stride: 3, start: next, analyze: CALLS });
        expect(a.analyses + b.analyses).toBe(whole.analyses);
        expect([...a.calls, ...b.calls]).toEqual(whole.calls);
        const since = c.time[Math.min(n - 1, mid)];
        const late = walkForward(ctx, { stride: 1, since, analyze: CALLS });
        for (const k of late.calls) expect(k.time).toBeGreaterThanOrEqual(since);
        if (late.first_time !== null) expect(late.first_time).toBeGreaterThanOrEqual(since);
      }),
      { numRuns: 8, atLeast: 0.5 },
    );
  });

  it('feeds recordStats: the record of a walk is the stats of its resolved calls', () => {
    const c = toColumns(fc.sample(trendingCandleSeries(330, 330), { numRuns: 1, seed: 7 })[0]);
    const w = walkForward(c, { stride: 2, analyze: CALLS });
    const s = recordStats(w.trades);
    expect(s.count).toBe(w.trades.length);
    expect(s.total_r).toBeCloseTo(
      w.trades.reduce((x, t) => x + t.realized_r, 0),
      12,
    );
  });
});
