import { analyze } from '@marketlens/core';
import { candleOpenTime, createSimulatedVenue } from '@marketlens/exchanges';
import { describe, expect, it } from 'vitest';
import { analyzeOptionsOf } from '../analysis/plan-costs.js';
import { universeOf } from '../market/market.js';
import { type AppDeps, DEFAULT_CONFIG } from '../platform/deps.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { resolvePayload } from './alerts.js';
import { distancePct } from './evaluate.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function deps(): AppDeps {
  const now = () => NOW;
  return {
    storage: createSqliteStorage(':memory:'),
    // the expected-R floor lowered: the simulated venue's calls rarely clear it (issue 40)
    config: { ...DEFAULT_CONFIG, signalMinExpectedR: -100 },
    now,
    market: createSimulatedVenue({ now }),
  };
}

describe('resolvePayload: the reference an alert is armed with', () => {
  it('is the watched value now for every kind, never null when the market has it', async () => {
    const d = deps();
    const market = d.market;
    if (market === undefined) throw new Error('no market');
    const ticker = await market.ticker({ asset_id: 'bitcoin' });
    const resolve = (payload: Record<string, unknown>) =>
      resolvePayload(d, 'pro', { asset_id: 'bitcoin', ...payload } as Parameters<typeof resolvePayload>[2]);

    expect((await resolve({ kind: 'price', target: ticker.last * 1.05 })).reference).toBe(ticker.last);
    // Percent change: the change column's value at arming (24h here).
    const change = await resolve({ kind: 'percent_change', target: 5, timeframe: 'd1' });
    expect(change.evaluates_as).toBe('24h');
    expect(change.reference).not.toBeNull();
    expect(change.reference).toBe(ticker.change_24h_pct);
    // Smart zone: the price's % distance from the entry zone the analysis publishes now (with the
    // asset's costs), on the first of these assets that publishes one.
    let checked = 0;
    const coins = universeOf(market).assets.filter((a) => a.asset_class === 'coins' && !a.is_stablecoin);
    for (const { id: asset_id } of coins) {
      const { candles } = await market.candles({
        asset_id,
        timeframe: 'h1',
        limit: 500,
        end: candleOpenTime('h1', NOW),
      });
      const asset = universeOf(market).get(asset_id);
      const band = analyze(candles, analyzeOptionsOf(undefined, asset, market.venue, -100)).zone.entry_zone;
      if (band === null) continue;
      const smart = await resolve({ asset_id, kind: 'smart_zone', target: 1, timeframe: 'h1' });
      const live = await market.ticker({ asset_id });
      expect(smart.reference).toBe(distancePct(live.last, band.low, band.high));
      checked++;
      break;
    }
    expect(checked, 'no asset publishes an h1 plan now').toBe(1);
  });
});
