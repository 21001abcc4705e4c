import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VenueError } from '../errors.js';
import { TIMEFRAME_MS } from '../ports.js';
import { BUILTIN_ASSETS } from '../universe/assets.js';
import { createMarketSources } from './composite.js';
import { createFilesSource } from './files.js';
import { guardSource } from './guard.js';
import type { RepairReport } from './repair.js';
import { candlesOf } from './repair.js';
import type { MarketSource } from './source.js';
import { createMemoryCandleStore } from './store.js';
import { outage, testSource } from './testing.js';

const T0 = Date.UTC(2026, 10, 2, 12, 30);
const instant = async () => {};

describe('createMarketSources', () => {
  it('builds the universe from what the sources list, ranked by volume; unknown assets are unknown', async () => {
    const now = () => T0;
    const a = testSource('ccxt:binance', ['bitcoin', 'ethereum'], now, 100);
    const b = testSource('yahoo', ['stock-aapl', 'ethereum'], now, 1000);
    const m = await createMarketSources({ sources: [a, b], now });
    try {
      expect(m.universe.assets.map((x) => x.id)).toEqual(['ethereum', 'stock-aapl', 'bitcoin']);
      expect(m.universe.get('solana')).toBeUndefined();
      await expect(m.candles({ asset_id: 'solana', timeframe: 'd1', limit: 10 })).rejects.toMatchObject({
        code: 'unknown_asset',
      });
      // Ethereum is served by the first source listing it, in configured order.
      const s = await m.candles({ asset_id: 'ethereum', timeframe: 'd1', limit: 10 });
      expect(s.source).toBe('ccxt:binance');
      expect(b.calls.candles).toHaveLength(0);
    } finally {
      m.close();
    }
  });

  it('stores candles: one backfill, then only the candles since; many concurrent cold reads make one call', async () => {
    let t = T0;
    const now = () => t;
    const src = testSource('ccxt:binance', ['bitcoin'], now);
    const store = createMemoryCandleStore();
    const m = await createMarketSources({
      sources: [src],
      store,
      stored: { backfill: 600, refreshMs: 10_000, now },
      now,
    });
    try {
      const reads = await Promise.all(
        Array.from({ length: 200 }, () => m.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 500 })),
      );
      expect(src.calls.candles).toHaveLength(1);
      expect(src.calls.candles[0].limit).toBe(600);
      expect(reads.every((r) => r.candles.time.length === 500 && r.stale === false)).toBe(true);
      // Equal to the upstream's own newest 500.
      const direct = await src.inner.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 500 });
      expect([...reads[0].candles.close]).toEqual([...direct.candles.close]);
      // Within refreshMs: no upstream call.
      await m.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 500 });
      expect(src.calls.candles).toHaveLength(1);
      // Three hours later: only the candles since the last stored one (it included).
      t += 3 * TIMEFRAME_MS.h1;
      const later = await m.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 500 });
      expect(src.calls.candles).toHaveLength(2);
      expect(src.calls.candles[1].limit).toBe(4);
      const again = await src.inner.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 500 });
      expect([...later.candles.time]).toEqual([...again.candles.time]);
      expect([...later.candles.close]).toEqual([...again.candles.close]);
    } finally {
      m.close();
    }
  });

  it('serves stale candles through an outage and recovers; nothing stored means unavailable', async () => {
    let t = T0;
    const now = () => t;
    const src = testSource('ccxt:binance', ['bitcoin', 'ethereum'], now);
    const m = await createMarketSources({
      sources: [src],
      store: createMemoryCandleStore(),
      stored: { refreshMs: 1_000, now },
      guard: { sleep: instant, now, retries: 1 },
      now,
    });
    try {
      const fresh = await m.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 100 });
      src.failWith = outage();
      t += 60_000;
      const stale = await m.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 100 });
      expect(stale.stale).toBe(true);
      expect(stale.fetched_at).toBe(fresh.fetched_at);
      await expect(m.candles({ asset_id: 'ethereum', timeframe: 'h1', limit: 100 })).rejects.toMatchObject({
        code: 'unavailable',
      });
      src.failWith = null;
      t += 60_000;
      const back = await m.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 100 });
      expect(back.stale).toBe(false);
      expect(back.fetched_at).toBe(t);
    } finally {
      m.close();
    }
  });

  it('falls over to the next source that lists the asset', async () => {
    const now = () => T0;
    const a = testSource('ccxt:binance', ['bitcoin'], now);
    const b = testSource('ccxt:bybit', ['bitcoin'], now);
    a.failWith = outage();
    const m = await createMarketSources({ sources: [a, b], guard: { sleep: instant, retries: 0 }, now });
    try {
      a.failWith = null;
      expect(m.universe.get('bitcoin')).toBeDefined();
      a.failWith = outage();
      const s = await m.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 10 });
      expect(s.source).toBe('ccxt:bybit');
    } finally {
      m.close();
    }
  });
});

describe('guardSource', () => {
  it('retries retryable failures with backoff, honours retry-after, and opens the circuit', async () => {
    let t = T0;
    const now = () => t;
    const slept: number[] = [];
    const src = testSource('yahoo', ['stock-aapl'], now);
    const g = guardSource(src, {
      now,
      sleep: async (ms) => {
        slept.push(ms);
      },
      random: () => 0.5,
      retries: 2,
      breakerFailures: 3,
      breakerCooldownMs: 30_000,
    });
    src.failWith = new VenueError('rate_limited', 'slow down', { retryAfterMs: 1_500 });
    await expect(g.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(src.calls.candles).toHaveLength(3);
    expect(slept).toEqual([1_500, 1_500]);
    // Three failures opened the circuit: the next call is refused without reaching upstream.
    expect(g.health().breaker).toBe('open');
    await expect(g.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 })).rejects.toThrow(/paused/);
    expect(src.calls.candles).toHaveLength(3);
    // After the cooldown one trial goes through; its success closes the circuit.
    src.failWith = null;
    t += 30_000;
    await g.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 });
    expect(g.health()).toMatchObject({ breaker: 'closed', consecutive_failures: 0, last_success_at: t });
  });

  it('does not retry or count a non-retryable answer', async () => {
    const src = testSource('yahoo', ['stock-aapl'], () => T0);
    const g = guardSource(src, { sleep: instant });
    src.failWith = new VenueError('unknown_asset', 'no such symbol');
    await expect(g.ticker({ asset_id: 'stock-aapl' })).rejects.toMatchObject({ code: 'unknown_asset' });
    expect(src.calls.ticker).toBe(1);
    expect(g.health().consecutive_failures).toBe(0);
  });

  it('spaces calls to the source rate', async () => {
    let t = T0;
    const slept: number[] = [];
    const src = testSource('yahoo', ['stock-aapl'], () => t);
    const g = guardSource(src, {
      now: () => t,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
      ratePerSecond: 2,
    });
    for (let i = 0; i < 5; i++) await g.ticker({ asset_id: 'stock-aapl' });
    // A bucket of two: two calls at once, then one every 500 ms.
    expect(slept).toEqual([500, 500, 500]);
    expect(t - T0).toBe(1_500);
  });

  it('times out a call that hangs', async () => {
    const src = testSource('yahoo', ['stock-aapl'], () => T0);
    const hang = { ...src, candles: () => new Promise<never>(() => {}) };
    const g = guardSource(hang, { timeoutMs: 50, retries: 0 });
    await expect(g.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 5 })).rejects.toMatchObject({
      code: 'timeout',
    });
  });

  it('counts gaps against each asset calendar: a stock weekend is no gap, a coin weekend is', async () => {
    const D = TIMEFRAME_MS.d1;
    // Weekday dailies from Monday 2026-10-05 to Friday 2026-10-30: four weekends missing.
    const days: number[] = [];
    for (let t = Date.UTC(2026, 9, 5); t <= Date.UTC(2026, 9, 30); t += D) {
      const wd = new Date(t).getUTCDay();
      if (wd !== 0 && wd !== 6) days.push(t);
    }
    const rows = days.map((time) => ({ time, open: 1, high: 2, low: 0.5, close: 1.5, volume: 1 }));
    const defs = BUILTIN_ASSETS.filter((a) => a.id === 'stock-aapl' || a.id === 'bitcoin');
    const weekdays: MarketSource = {
      source: 'weekdays',
      venue: 'weekdays',
      async candles(request) {
        return {
          asset_id: request.asset_id,
          venue: 'weekdays',
          pair: request.asset_id,
          market_type: 'spot',
          timeframe: request.timeframe,
          candles: candlesOf(rows),
        };
      },
      ticker: () => Promise.reject(new VenueError('unknown_market', 'no ticker')),
      fundingRate: async () => null,
      markets: async () => [],
      listAssets: async () => defs.map((definition) => ({ definition, quote_volume_usd: null })),
    };
    const reports = new Map<string, RepairReport>();
    const m = await createMarketSources({
      sources: [weekdays],
      store: createMemoryCandleStore(),
      stored: { onRepair: (key, report) => reports.set(key.instrument, report) },
      now: () => T0,
    });
    try {
      await m.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 100 });
      await m.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 100 });
      expect(reports.has('stock-aapl@spot')).toBe(false);
      expect(reports.get('bitcoin@spot')?.gaps).toBe(6);
    } finally {
      m.close();
    }
  });

  it('serves a folder of files directly, not through the store, so its series say what they have seen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-files-'));
    mkdirSync(join(dir, 'bitcoin'));
    const H = TIMEFRAME_MS.h1;
    const T = Date.UTC(2026, 0, 5);
    const lines = ['time,open,high,low,close,volume'];
    for (let k = 0; k < 9; k++) lines.push(`${T + k * H},1,2,0.5,1.5,1`);
    writeFileSync(join(dir, 'bitcoin', 'h1.csv'), `${lines.join('\n')}\n`);
    const store = createMemoryCandleStore();
    const m = await createMarketSources({ sources: [await createFilesSource({ dir })], store, now: () => T0 });
    try {
      const s = await m.candles({ asset_id: 'bitcoin', timeframe: 'h4', limit: 10 });
      expect(s.seen_until).toBe(T + 9 * H);
      expect(s.source).toBe(`files:${dir}`);
      expect(await store.get({ source: `files:${dir}`, instrument: 'bitcoin@spot', timeframe: 'h4' })).toBeNull();
    } finally {
      m.close();
    }
  });
});
