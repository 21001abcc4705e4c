import { analyze } from '@marketlens/core';
import { candleOpenTime, createSimulatedVenue } from '@marketlens/exchanges';
import { describe, expect, it } from 'vitest';
import { type AppDeps, DEFAULT_CONFIG } from '../../env.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { resolvePayload } from './alerts.js';
import { distancePct } from './evaluate.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function deps(): AppDeps {
  const now = () => NOW;
  return {
    storage: createSqliteStorage(':memory:'),
    config: DEFAULT_CONFIG,
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
    // Smart zone: the price's % distance from the published entry zone at arming (solana publishes one now).
    const smart = await resolve({ asset_id: 'solana', kind: 'smart_zone', target: 1, timeframe: 'h1' });
    const sol = await market.ticker({ asset_id: 'solana' });
    const { candles } = await market.candles({
      asset_id: 'solana',
      timeframe: 'h1',
      limit: 500,
      end: candleOpenTime('h1', NOW),
    });
    const band = analyze(candles).zone.entry_zone;
    expect(smart.reference).toBe(band === null ? null : distancePct(sol.last, band.low, band.high));
    expect(smart.reference).not.toBeNull();
  });
});
