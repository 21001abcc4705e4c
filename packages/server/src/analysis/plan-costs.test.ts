import { COST_MODELS, roundTripCostPct } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../config/server-env.js';
import { analyzeOptionsOf, costModelOf, parsePlanCosts, sessionBarsLeftOf } from './plan-costs.js';

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

describe('sessionBarsLeftOf (issue 38.2: no entry in a session last candle)', () => {
  const HOUR = 3_600_000;
  const DAY = 86_400_000;
  // h1 candles of a stock opening 14:00..20:00 UTC on weekdays, from Monday 2024-01-01
  const stockHours = (days: number, lastHour = 20): number[] => {
    const out: number[] = [];
    for (let d = 0, traded = 0; traded < days; d++) {
      const day = Date.UTC(2024, 0, 1) + d * DAY;
      const wd = new Date(day).getUTCDay();
      if (wd === 0 || wd === 6) continue;
      traded++;
      for (let h = 14; h <= (traded === days ? lastHour : 20); h++) out.push(day + h * HOUR);
    }
    return out;
  };

  it('counts the candles of the session after the last one, from the session the series shows', () => {
    // the 20:00 candle is the session's last: after 18:00 one more entry candle (19:00), then 20:00
    expect(sessionBarsLeftOf('stocks', stockHours(25, 18), HOUR)).toBe(2);
    expect(sessionBarsLeftOf('stocks', stockHours(25, 19), HOUR)).toBe(1);
    // after the session's last candle the next one opens a session: nothing to cut
    expect(sessionBarsLeftOf('stocks', stockHours(25, 20), HOUR)).toBe(0);
    expect(sessionBarsLeftOf('stocks', stockHours(25, 14), HOUR)).toBe(6);
  });

  it('is undefined where core cuts nothing: coins and fx, daily candles, a series too short to show its session', () => {
    const t = stockHours(25, 19);
    expect(sessionBarsLeftOf('coins', t, HOUR)).toBeUndefined();
    expect(sessionBarsLeftOf('fx', t, HOUR)).toBeUndefined();
    expect(sessionBarsLeftOf(undefined, t, HOUR)).toBeUndefined();
    expect(sessionBarsLeftOf('stocks', t, DAY)).toBeUndefined();
    expect(sessionBarsLeftOf('stocks', stockHours(5, 19), HOUR)).toBeUndefined();
    expect(sessionBarsLeftOf('stocks', [], HOUR)).toBeUndefined();
  });

  it("is part of every published analysis's options given its candles (analysis, alerts, screener)", () => {
    const stocks = { asset_class: 'stocks' as const };
    const lastOfSession = analyzeOptionsOf(undefined, stocks, 'v', undefined, {
      time: stockHours(25, 20),
      stepMs: HOUR,
    });
    expect(lastOfSession.plan).toMatchObject({ sessionBarsLeft: 0 });
    const inSession = analyzeOptionsOf(undefined, stocks, 'v', undefined, { time: stockHours(25, 18), stepMs: HOUR });
    expect(inSession.plan?.sessionBarsLeft).toBe(2);
    // No series, or a market without sessions: no cut, the cost alone.
    expect(analyzeOptionsOf(undefined, stocks, 'v')).toEqual({ plan: { costPct: inSession.plan?.costPct } });
    const coins = analyzeOptionsOf(undefined, { asset_class: 'coins' }, 'v', undefined, {
      time: stockHours(25, 18),
      stepMs: HOUR,
    });
    expect(coins.plan).not.toHaveProperty('sessionBarsLeft');
  });
});
