// Plans at a turning point of the real series, with expectations written from the candles.
import { describe, expect, it } from 'vitest';
import { supportResistance } from '../levels/zones.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { roundTripCostPct } from './costs.js';
import { buildPlan } from './plan.js';

describe.skipIf(!sharedDataDir)(
  `plans at turning points of the real series (skips when ${sharedDataSkipReason})`,
  () => {
    it('NVDA d1 2008-09-12: the short puts its stop beyond the swing high of 09-09 and its zone (11.76-11.94)', () => {
      // Candles: 09-05 H11.70, 09-08 H11.78, 09-09 H11.83, 09-10 H11.16, 09-11 H10.52: a swing high at
      // 11.83, in the band of the July/August highs 11.76-11.94 (07-29 H11.94, 08-07 H11.90). Close 10.19.
      const series = loadSharedSeries().find((s) => s.name === 'nvda-d1');
      if (series === undefined) throw new Error('nvda-d1 is part of the shared data');
      const { candles } = series;
      const asOf = candles.time.indexOf(Date.parse('2008-09-12T00:00:00Z'));
      const costPct = roundTripCostPct({ assetClass: 'stocks' });
      for (const bySide of [false, true]) {
        const lv = supportResistance(candles, { asOf, bySide });
        // the geometry, whatever its reward
        const plan = buildPlan(candles, lv, {
          structure: true,
          direction: 'short',
          costPct,
          minNetRiskReward: -10,
          minRiskReward: 0,
        });
        expect(plan.direction).toBe('short');
        expect(plan.invalidation ?? 0).toBeGreaterThanOrEqual(11.94);
        expect(plan.stop_loss ?? 0).toBeGreaterThan(11.94);
        // target 1 at or above the first level below the entry
        const entry = plan.entry_price ?? 0;
        const below = lv.zones.filter((z) => z.high < entry).map((z) => z.high);
        if (below.length > 0) expect(plan.take_profits[0].price).toBeGreaterThanOrEqual(Math.max(...below) - 1e-9);
        // with the default minimum: either no trade, or a short waiting above the close (a limit
        // order at a resistance) with the same stop beyond the structure, never one at 11.07
        const published = buildPlan(candles, lv, { structure: true, direction: 'short', costPct });
        if (published.direction === null) {
          expect(['poor_reward', 'target_blocked']).toContain(published.reason);
        } else {
          expect(published.entry_type).toBe('limit');
          expect(published.entry_price ?? 0).toBeGreaterThan(10.19);
          expect(published.stop_loss ?? 0).toBeGreaterThan(11.94);
          expect(published.take_profits[0].risk_reward_net).toBeGreaterThanOrEqual(1.5);
        }
      }
    });
  },
);
