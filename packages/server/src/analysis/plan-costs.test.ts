import { COST_MODELS, roundTripCostPct } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../config/server-env.js';
import { analyzeOptionsOf, costModelOf, parsePlanCosts } from './plan-costs.js';

describe('MARKETLENS_PLAN_COSTS', () => {
  it('reads class and venue entries; a venue entry wins, other classes keep the core table', () => {
    const o = parsePlanCosts(' coins=0.05/0.02, coins@kraken=0.26/0.03,fx=0.002/0.004 ');
    expect(costModelOf(o, 'coins', 'binance')).toEqual({ feePct: 0.05, spreadPct: 0.02 });
    expect(costModelOf(o, 'coins', 'kraken')).toEqual({ feePct: 0.26, spreadPct: 0.03 });
    expect(costModelOf(o, 'fx', 'oanda')).toEqual({ feePct: 0.002, spreadPct: 0.004 });
    expect(costModelOf(o, 'stocks', 'binance')).toEqual(COST_MODELS.stocks);
    expect(analyzeOptionsOf(o, { asset_class: 'coins' }, 'kraken')).toEqual({
      plan: { costPct: roundTripCostPct({ assetClass: 'coins', feePct: 0.26, spreadPct: 0.03 }) },
    });
    expect(analyzeOptionsOf(undefined, { asset_class: 'fx' }, 'x')).toEqual({ plan: { costPct: 0.012 } });
    expect(analyzeOptionsOf(o, undefined, 'x')).toEqual({});
  });

  it('is read at startup, and a bad entry stops it with a message naming the entry', () => {
    expect(optionsFromEnv({ MARKETLENS_PLAN_COSTS: 'stocks=0/0.02' }).config.planCosts).toEqual([
      { asset_class: 'stocks', venue: null, feePct: 0, spreadPct: 0.02 },
    ]);
    expect(optionsFromEnv({}).config.planCosts).toEqual([]);
    for (const bad of ['bonds=0.1/0.1', 'coins=0.1', 'coins=-1/0', 'coins=60/0', 'coins@=0.1/0.1', 'coins=0.1/abc']) {
      expect(() => optionsFromEnv({ MARKETLENS_PLAN_COSTS: bad }), bad).toThrow(`'${bad}'`);
    }
  });

  it('never throws anything but its message, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (raw) => {
        try {
          for (const o of parsePlanCosts(raw)) {
            expect(o.feePct).toBeGreaterThanOrEqual(0);
            expect(o.spreadPct).toBeGreaterThanOrEqual(0);
          }
        } catch (err) {
          expect((err as Error).message).toMatch(/^MARKETLENS_PLAN_COSTS: /);
        }
      }),
      { numRuns: 300 },
    );
  });
});
