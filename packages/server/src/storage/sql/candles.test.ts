import type { Candles } from '@marketlens/core';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEngines } from '../../../test/support/storage/engines.js';
import { decodeCandles, encodeCandles } from './candles.js';

function candles(n: number, seed = 1): Candles {
  const c = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    c.time[i] = 1_700_000_000_000 + i * 3_600_000;
    c.open[i] = seed + i / 3;
    c.high[i] = seed + i / 3 + 1;
    c.low[i] = seed + i / 3 - 0.5;
    c.close[i] = seed + i / 7;
    c.volume[i] = i * 1.25;
  }
  return c;
}

const series = (c: Candles, fetched_at = 5) => ({
  venue: 'binance',
  pair: 'BTC/USDT',
  market_type: 'spot' as const,
  candles: c,
  fetched_at,
  complete: false,
});

describeEngines('the candle store', (engine) => {
  it('round-trips every Float64 exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { minLength: 0, maxLength: 60 }), (values) => {
        const n = Math.floor(values.length / 6);
        const c = candles(n);
        for (let i = 0; i < n; i++) c.close[i] = values[i];
        const back = decodeCandles(encodeCandles(c), n);
        expect([...back.close]).toEqual([...c.close]);
        expect([...back.time]).toEqual([...c.time]);
      }),
    );
  });

  it('keeps series across a restart', async () => {
    const database = engine.database({ persistent: true });
    const key = { source: 'ccxt:binance', instrument: 'bitcoin@spot', timeframe: 'h1' as const };
    const a = await database.open();
    await a.candles.put(key, series(candles(500)));
    await a.close();
    const b = await database.open();
    const got = await b.candles.get(key);
    expect(got?.candles.time.length).toBe(500);
    expect([...(got?.candles.close ?? [])]).toEqual([...candles(500).close]);
    expect(got).toMatchObject({
      venue: 'binance',
      pair: 'BTC/USDT',
      market_type: 'spot',
      fetched_at: 5,
      complete: false,
    });
    expect(b.candles.bytes()).toBe(500 * 48);
    await b.close();
  });

  it('evicts the least recently used series beyond its bound', async () => {
    let t = 0;
    const s = await engine.open({ candles: { maxBytes: 3 * 100 * 48, now: () => t } });
    const key = (i: number) => ({ source: 'yahoo', instrument: `stock-${i}@spot`, timeframe: 'd1' as const });
    for (let i = 0; i < 3; i++) {
      t += 120_000;
      await s.candles.put(key(i), series(candles(100, i + 1)));
    }
    t += 120_000;
    await s.candles.get(key(0)); // 0 is now the most recently used
    t += 120_000;
    await s.candles.put(key(3), series(candles(100, 9)));
    expect(await s.candles.get(key(1))).toBeNull();
    expect(await s.candles.get(key(0))).not.toBeNull();
    expect(await s.candles.get(key(3))).not.toBeNull();
    expect(s.candles.bytes()).toBeLessThanOrEqual(3 * 100 * 48);
  });
});
