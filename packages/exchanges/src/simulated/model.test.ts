import type { Candles } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TIMEFRAME_MS, type Timeframe } from '../ports.js';
import { defaultUniverse } from '../universe/universe.js';
import { createSimModel, GENESIS } from './model.js';
import { type SimParams, simParams } from './params.js';

const params: SimParams[] = defaultUniverse.assets.map(simParams).filter((p): p is SimParams => p !== null);
const model = createSimModel(params);
const NOW = Date.UTC(2025, 10, 21, 13, 37, 12, 345);
const DAY = 86_400_000;

function last(id: string, tf: Timeframe, n: number, now = NOW, m = model): Candles {
  const step = TIMEFRAME_MS[tf];
  const lastOpen = Math.floor((now - GENESIS) / step) * step + GENESIS;
  return m.candles(id, tf, lastOpen - (n - 1) * step, now + 1, now);
}

function logReturns(c: Candles): number[] {
  const r: number[] = [];
  for (let i = 1; i < c.close.length; i++) r.push(Math.log(c.close[i] / c.close[i - 1]));
  return r;
}

function corr(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

function autocorr(x: number[], lag: number): number {
  return corr(x.slice(0, x.length - lag), x.slice(lag));
}

/** Aggregates `fine` candles into buckets of `coarse`, as a venue would. */
function expectAggregates(coarse: Candles, fine: Candles, liveVolume = false): void {
  let j = 0;
  for (let i = 0; i < coarse.time.length; i++) {
    const start = coarse.time[i];
    const end = i + 1 < coarse.time.length ? coarse.time[i + 1] : Number.POSITIVE_INFINITY;
    while (j < fine.time.length && fine.time[j] < start) j++;
    const j0 = j;
    let hi = -1;
    let lo = Number.POSITIVE_INFINITY;
    let vol = 0;
    while (j < fine.time.length && fine.time[j] < end) {
      hi = Math.max(hi, fine.high[j]);
      lo = Math.min(lo, fine.low[j]);
      vol += fine.volume[j];
      j++;
    }
    const at = new Date(start).toISOString();
    expect(j, `no fine candles in ${at}`).toBeGreaterThan(j0);
    expect(fine.open[j0], `open ${at}`).toBe(coarse.open[i]);
    expect(fine.close[j - 1], `close ${at}`).toBe(coarse.close[i]);
    expect(hi, `high ${at}`).toBe(coarse.high[i]);
    expect(lo, `low ${at}`).toBe(coarse.low[i]);
    const isLive = i === coarse.time.length - 1 && liveVolume;
    if (isLive) expect(vol).toBeCloseTo(coarse.volume[i], 6);
    else expect(vol, `volume ${at}`).toBe(coarse.volume[i]);
  }
}

describe('simulated price model', () => {
  it('is deterministic: a fresh model gives identical candles', () => {
    const other = createSimModel(params);
    for (const tf of ['m5', 'h1', 'd1', 'w1'] as const) {
      expect(last('bitcoin', tf, 300, NOW, other)).toEqual(last('bitcoin', tf, 300));
    }
    expect(last('ethereum', 'd1', 50).close).not.toEqual(last('bitcoin', 'd1', 50).close);
  });

  const pairs: ReadonlyArray<[Timeframe, Timeframe, number]> = [
    ['m15', 'm5', 3],
    ['m30', 'm15', 2],
    ['h1', 'm15', 4],
    ['h4', 'h1', 4],
    ['d1', 'h1', 24],
    ['w1', 'd1', 7],
  ];

  it.each(pairs)('%s aggregates %s exactly (finished and live candles)', (coarseTf, fineTf, per) => {
    for (const id of ['bitcoin', 'tether', 'stock-aapl', 'fx-usdjpy', 'shiba-inu']) {
      const coarse = last(id, coarseTf, 40);
      const fine = last(id, fineTf, 40 * per + per);
      expectAggregates(coarse, fine, true);
    }
  });

  it('property: consistency holds at arbitrary clock times', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2008, 0, 1), max: Date.UTC(2030, 0, 1) }), (now) => {
        expectAggregates(last('solana', 'h1', 6, now), last('solana', 'm15', 28, now), true);
        expectAggregates(last('solana', 'd1', 2, now), last('solana', 'h1', 50, now), true);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps prices positive, candles well formed and levels realistic', () => {
    const levels: Record<string, [number, number]> = {
      bitcoin: [10_000, 1_000_000],
      ethereum: [300, 50_000],
      tether: [0.99, 1.01],
      'usd-coin': [0.99, 1.01],
      'fx-eurusd': [0.7, 1.6],
      'fx-usdjpy': [80, 250],
      'stock-aapl': [20, 2_000],
      'stock-spy': [100, 3_000],
    };
    for (const p of params) {
      const c = last(p.id, 'd1', 3000);
      let bad = 0;
      for (let i = 0; i < c.time.length; i++) {
        const ok =
          c.low[i] > 0 &&
          c.high[i] >= Math.max(c.open[i], c.close[i]) &&
          c.low[i] <= Math.min(c.open[i], c.close[i]) &&
          c.volume[i] >= 0;
        if (!ok) bad++;
      }
      expect(bad, p.id).toBe(0);
      const range = levels[p.id];
      if (range !== undefined) {
        expect(Math.min(...c.low), p.id).toBeGreaterThan(range[0]);
        expect(Math.max(...c.high), p.id).toBeLessThan(range[1]);
      }
    }
  });

  it('clusters volatility: |returns| are autocorrelated (d1 and h1)', () => {
    const report: string[] = [];
    for (const id of ['bitcoin', 'ethereum', 'stock-nvda', 'fx-eurusd']) {
      for (const [tf, n] of [
        ['d1', 4000],
        ['h1', 4000],
      ] as const) {
        const abs = logReturns(last(id, tf, n)).map(Math.abs);
        const ac = [1, 2, 5, 10].map((lag) => autocorr(abs, lag));
        report.push(`${id} ${tf} ${ac.map((x) => x.toFixed(2)).join(' ')}`);
        expect(ac[0], `${id} ${tf} lag 1`).toBeGreaterThan(0.1);
        expect(ac[1], `${id} ${tf} lag 2`).toBeGreaterThan(0.05);
        // Intraday seasonality makes h1 lag 10 land in quiet hours; across days the memory is long.
        if (tf === 'd1') expect(ac[3], `${id} ${tf} lag 10`).toBeGreaterThan(0.03);
      }
    }
    // Raw returns stay close to uncorrelated: clustering is in the magnitude, not the direction.
    expect(Math.abs(autocorr(logReturns(last('bitcoin', 'd1', 4000)), 1))).toBeLessThan(0.1);
    console.info(`|r| autocorrelation at lags 1 2 5 10:\n${report.join('\n')}`);
  });

  it('trades more volume on bigger moves', () => {
    for (const id of ['bitcoin', 'solana', 'stock-tsla']) {
      for (const tf of ['d1', 'h1', 'm5'] as const) {
        const c = last(id, tf, 3000);
        const abs = logReturns(c).map(Math.abs);
        const vol = Array.from(c.volume.subarray(1, c.volume.length - 1));
        const rho = corr(abs.slice(0, vol.length), vol);
        expect(rho, `${id} ${tf}`).toBeGreaterThan(0.3);
      }
    }
  });

  it('correlates assets through shared factors', () => {
    const r = (id: string) => logReturns(last(id, 'd1', 2000));
    expect(corr(r('bitcoin'), r('ethereum'))).toBeGreaterThan(0.45);
    expect(corr(r('solana'), r('dogecoin'))).toBeGreaterThan(0.35);
    expect(corr(r('stock-aapl'), r('stock-msft'))).toBeGreaterThan(0.25);
    expect(corr(r('stock-spy'), r('stock-qqq'))).toBeGreaterThan(0.7);
    // A strong dollar lifts USD/CHF and sinks EUR/USD.
    expect(corr(r('fx-eurusd'), r('fx-usdchf'))).toBeLessThan(-0.3);
    expect(Math.abs(corr(r('bitcoin'), r('tether')))).toBeLessThan(0.1);
    expect(Math.abs(corr(r('bitcoin'), r('fx-eurusd')))).toBeLessThan(0.1);
  });

  it('moves the live candle with the clock and never changes a finished one', () => {
    const a = last('bitcoin', 'h1', 48, NOW);
    const b = last('bitcoin', 'h1', 48, NOW + 95_000);
    for (const key of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) {
      expect(b[key].subarray(0, 47)).toEqual(a[key].subarray(0, 47));
    }
    expect(b.time[47]).toBe(a.time[47]);
    expect(b.close[47]).not.toBe(a.close[47]);
    expect(b.volume[47]).toBeGreaterThan(a.volume[47]);
    expect(b.high[47]).toBeGreaterThanOrEqual(a.high[47]);
    expect(b.low[47]).toBeLessThanOrEqual(a.low[47]);
  });

  it('property: a candle finished at t is the same at any later time, and the live one converges to it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2010, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: 1, max: 30 * DAY }),
        fc.constantFrom<Timeframe>('m5', 'm15', 'h1', 'h4', 'd1'),
        (t, dt, tf) => {
          const step = TIMEFRAME_MS[tf];
          const early = last('ethereum', tf, 5, t);
          const later = model.candles('ethereum', tf, early.time[0], early.time[4] + step, t + dt);
          for (let i = 0; i < 4; i++) expect(later.close[i]).toBe(early.close[i]);
          expect(later.high[3]).toBe(early.high[3]);
          // Just before the live candle closes it shows the finished values.
          const end = early.time[4] + step;
          const almost = model.candles('ethereum', tf, early.time[4], end, end - 1);
          const done = model.candles('ethereum', tf, early.time[4], end, end + dt);
          expect(almost.open[0]).toBe(done.open[0]);
          expect(almost.high[0]).toBe(done.high[0]);
          expect(almost.low[0]).toBe(done.low[0]);
          expect(Math.abs(almost.close[0] - done.close[0])).toBeLessThanOrEqual(model.tick('ethereum') * 2);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('serves nothing before genesis and nothing after now', () => {
    const c = model.candles('bitcoin', 'd1', GENESIS - 10 * DAY, GENESIS + 3 * DAY, NOW);
    expect(c.time[0]).toBe(GENESIS);
    expect(c.time.length).toBe(3);
    const future = model.candles('bitcoin', 'h1', NOW - 3_600_000, NOW + 10 * DAY, NOW);
    expect(future.time.length).toBe(1);
    expect(future.time[0]).toBeLessThanOrEqual(NOW);
  });
});
