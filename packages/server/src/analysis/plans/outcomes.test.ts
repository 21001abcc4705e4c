import type { PlanOutcome } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bar, craftedDeps, craftedMarket, HOUR, longPlan, planRow, T0 } from '../../../test/support/plans.js';
import { canMove, FINAL_OUTCOMES, PLAN_OUTCOMES, type PlanProgress } from '../../storage/plans-types.js';
import { advanceOutcomes, pathBetween } from './outcomes.js';

/** The publication candle: quiet, above the band. */
const PUB: Bar = [101, 102, 100.5, 101];
const ABOVE: Bar = [103, 104, 102, 103];
const ENTRY: Bar = [103, 104, 99.5, 101];
const INSIDE: Bar = [101, 103, 100.5, 102];

/** Publishes the long plan half-way through the first candle, then feeds `stages` of candles and advances after each. */
async function scenario(stages: Bar[][], first: Bar = PUB, costPct = 0.2) {
  const market = craftedMarket([first]);
  const { deps, storage } = craftedDeps(market);
  const row = planRow({ ...longPlan(T0), cost_pct: costPct }, T0 + HOUR / 2);
  market.clock.now = row.published_at;
  expect(await storage.publishedPlans.record(row)).toBe(true);
  const seen: PlanOutcome[] = [];
  const moves: string[] = [];
  for (const bars of stages) {
    market.bars.push(...bars);
    // Every pushed candle has closed; the live one is not served.
    market.clock.now = T0 + market.bars.length * HOUR + 60_000;
    for (const m of await advanceOutcomes(deps)) moves.push(`${m.from}->${m.to}`);
    const stored = await storage.publishedPlans.byId(row.id);
    if (stored === null) throw new Error('row vanished');
    seen.push(stored.outcome);
  }
  const last = await storage.publishedPlans.byId(row.id);
  if (last === null) throw new Error('row vanished');
  return { seen, moves, row: last };
}

describe('published-plan outcome transitions, one row per move', () => {
  const table: { move: string; stages: Bar[][]; seen: PlanOutcome[]; moves: string[] }[] = [
    { move: 'pending stays pending (window open)', stages: [[ABOVE]], seen: ['pending'], moves: [] },
    {
      move: 'pending -> expired (no entry in the window)',
      stages: [[ABOVE, ABOVE, ABOVE]],
      seen: ['expired'],
      moves: ['pending->expired'],
    },
    {
      move: 'pending -> expired (gap through the stop)',
      stages: [[[94, 95, 93, 94]]],
      seen: ['expired'],
      moves: ['pending->expired'],
    },
    { move: 'pending -> entered', stages: [[ENTRY]], seen: ['entered'], moves: ['pending->entered'] },
    {
      move: 'entered -> tp_hit (both targets)',
      stages: [[ENTRY], [[102, 121, 101, 119]]],
      seen: ['entered', 'tp_hit'],
      moves: ['pending->entered', 'entered->tp_hit'],
    },
    {
      move: 'entered -> stopped_out',
      stages: [[ENTRY], [[100, 101, 94, 95]]],
      seen: ['entered', 'stopped_out'],
      moves: ['pending->entered', 'entered->stopped_out'],
    },
    {
      move: 'entered -> time_stopped',
      stages: [[ENTRY], Array.from({ length: 9 }, () => INSIDE)],
      seen: ['entered', 'time_stopped'],
      moves: ['pending->entered', 'entered->time_stopped'],
    },
    {
      move: 'entered stays entered when target 1 is hit (30% runs), then tp_hit at the stop',
      stages: [[ENTRY], [[102, 111, 101, 109]], [[105, 106, 94, 95]]],
      seen: ['entered', 'entered', 'tp_hit'],
      moves: ['pending->entered', 'entered->tp_hit'],
    },
    {
      move: 'pending -> tp_hit seen in one pass goes through entered',
      stages: [[ENTRY, [102, 121, 101, 119]]],
      seen: ['tp_hit'],
      moves: ['pending->entered', 'entered->tp_hit'],
    },
  ];
  it.each(table)('$move', async ({ stages, seen, moves }) => {
    const r = await scenario(stages);
    expect(r.seen).toEqual(seen);
    expect(r.moves).toEqual(moves);
  });

  it('stores the 70/30 legs and realized R after the 0.20% cost', async () => {
    const { row } = await scenario([[ENTRY], [[102, 111, 101, 109]], [[105, 106, 94, 95]]]);
    expect(row.outcome).toBe('tp_hit');
    expect(row.targets_hit).toBe(1);
    expect(row.fill_price).toBe(100);
    expect(row.legs.map((l) => [l.size_pct, l.exit, l.exit_price])).toEqual([
      [70, 'target', 110],
      [30, 'stop', 95],
    ]);
    const costR = (0.2 / 100) * (100 / 5);
    expect(row.realized_r).toBeCloseTo(0.7 * (2 - costR) + 0.3 * (-1 - costR), 12);
    expect(row.entered_at).toBe(T0 + HOUR);
    expect(row.closed_at).toBe(T0 + 3 * HOUR);
  });

  it("scores a plan with its own round trip, its asset class's (stocks 0.05%, coins 0.22%)", async () => {
    for (const cost of [0.05, 0.22]) {
      const { row } = await scenario([[ENTRY], [[102, 111, 101, 109]], [[105, 106, 94, 95]]], PUB, cost);
      const costR = (cost / 100) * (100 / 5);
      expect(row.realized_r).toBeCloseTo(0.7 * (2 - costR) + 0.3 * (-1 - costR), 12);
    }
  });

  it('every allowed move is written and every other move is refused (all 36 pairs)', async () => {
    const { storage } = craftedDeps(craftedMarket());
    const progress = (to: PlanOutcome): PlanProgress => ({
      outcome: to,
      entered_at: null,
      fill_price: null,
      closed_at: null,
      targets_hit: 0,
      realized_r: null,
      return_pct: null,
      legs: [],
      reason: null,
      updated_at: 1,
    });
    const allowed: string[] = [];
    let k = 0;
    for (const from of PLAN_OUTCOMES) {
      for (const to of PLAN_OUTCOMES) {
        const row = planRow(longPlan(T0 + ++k * HOUR), T0, { outcome: from });
        await storage.publishedPlans.record(row);
        const ok = await storage.publishedPlans.advance(row.id, from, progress(to));
        const stored = await storage.publishedPlans.byId(row.id);
        expect(stored?.outcome).toBe(ok ? to : from);
        expect(ok).toBe(canMove(from, to) || (from === 'entered' && to === 'entered'));
        if (ok && from !== to) allowed.push(`${from}->${to}`);
      }
    }
    expect(allowed.sort()).toEqual(
      [
        'pending->entered',
        'pending->expired',
        'entered->tp_hit',
        'entered->stopped_out',
        'entered->time_stopped',
      ].sort(),
    );
  });

  it('a move from a stale state is refused (compare-and-set)', async () => {
    const { storage } = craftedDeps(craftedMarket());
    const row = planRow(longPlan(), T0);
    await storage.publishedPlans.record(row);
    const p = { ...row, outcome: 'entered' as const };
    expect(await storage.publishedPlans.advance(row.id, 'pending', p)).toBe(true);
    expect(await storage.publishedPlans.advance(row.id, 'pending', { ...p, outcome: 'expired' })).toBe(false);
    expect((await storage.publishedPlans.byId(row.id))?.outcome).toBe('entered');
  });

  it('pathBetween goes forward only', () => {
    expect(pathBetween('pending', 'tp_hit')).toEqual(['entered', 'tp_hit']);
    expect(pathBetween('pending', 'pending')).toEqual([]);
    expect(pathBetween('entered', 'pending')).toBeNull();
    expect(pathBetween('expired', 'entered')).toBeNull();
    expect(pathBetween('tp_hit', 'stopped_out')).toBeNull();
  });
});

describe('no look-ahead', () => {
  it('ignores the publication candle and everything before the publication', async () => {
    // The publication candle trades through the band and the stop; read, it would enter and stop out.
    const r = await scenario([[ABOVE, ABOVE, ABOVE]], [101, 102, 90, 101]);
    expect(r.seen).toEqual(['expired']);
    expect(r.row.entered_at).toBeNull();
  });

  it('walks from the first candle opening at or after the publication', async () => {
    const r = await scenario([[ENTRY]]);
    expect(r.row.entered_at).toBeGreaterThanOrEqual(r.row.published_at);
  });

  it('does not read the live candle: a stop touched in it counts only once it closed', async () => {
    const market = craftedMarket([PUB]);
    const { deps, storage } = craftedDeps(market);
    const row = planRow(longPlan(T0), T0 + HOUR / 2);
    await storage.publishedPlans.record(row);
    market.bars.push(ENTRY, [100, 101, 94, 95]);
    market.clock.now = T0 + 2 * HOUR + 60_000; // the stop candle is live
    await advanceOutcomes(deps);
    expect((await storage.publishedPlans.byId(row.id))?.outcome).toBe('entered');
    market.clock.now = T0 + 3 * HOUR;
    await advanceOutcomes(deps);
    expect((await storage.publishedPlans.byId(row.id))?.outcome).toBe('stopped_out');
  });
});

describe('outcomes never move backwards (property)', () => {
  const rank = (o: PlanOutcome) => (o === 'pending' ? 0 : o === 'entered' ? 1 : 2);
  it('over random candles observed at random times, the rank only grows and a final state stays', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.double({ min: -4, max: 4, noNaN: true }), fc.double({ min: 0, max: 4, noNaN: true })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 8 }),
        async (steps, cuts) => {
          const bars: Bar[] = [PUB];
          let price = 101;
          for (const [move, range] of steps) {
            const open = price;
            price = Math.max(1, price + move);
            bars.push([open, Math.max(open, price) + range, Math.max(0.5, Math.min(open, price) - range), price]);
          }
          const market = craftedMarket([PUB]);
          const { deps, storage } = craftedDeps(market);
          const row = planRow(longPlan(T0), T0 + HOUR / 2);
          await storage.publishedPlans.record(row);
          let last: PlanOutcome = 'pending';
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            market.bars.splice(0, market.bars.length, ...bars.slice(0, Math.min(bars.length, cut + 1)));
            market.clock.now = T0 + market.bars.length * HOUR;
            await advanceOutcomes(deps);
            const now = (await storage.publishedPlans.byId(row.id))?.outcome ?? 'pending';
            if (rank(now) < rank(last)) return false;
            if (FINAL_OUTCOMES.has(last) && now !== last) return false;
            last = now;
          }
          await storage.close();
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });
});
