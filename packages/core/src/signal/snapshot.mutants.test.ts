// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// indicatorSnapshot, which no other test of the module reads, field by field from its
// documentation over drawn series.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candleSeries, toColumns } from '../testing/props.js';
import { computeContext } from './context.js';
import { indicatorSnapshot } from './snapshot.js';

const val = (x: number) => (Number.isFinite(x) ? x + 0 : null);

describe('indicatorSnapshot against its documentation', () => {
  it('reads each indicator at the as-of bar, null during its warm-up', () => {
    fc.assert(
      fc.property(candleSeries(1, 230), fc.nat(), (rows, cut) => {
        const c = toColumns(rows);
        const i = Math.max(0, rows.length - 1 - (cut % 30));
        const ctx = computeContext(c);
        const close = c.close[i];
        const prev = i > 0 ? c.close[i - 1] : 0;
        // volume against the previous 20 bars (population deviation)
        let z: number | null = null;
        let ratio: number | null = null;
        if (i >= 20) {
          const vols = Array.from({ length: 20 }, (_, j) => c.volume[i - 20 + j]);
          const m = vols.reduce((s, v) => s + v, 0) / 20;
          const sd = Math.sqrt(vols.reduce((s, v) => s + (v - m) ** 2, 0) / 20);
          z = sd > 0 ? (c.volume[i] - m) / sd : null;
          ratio = m > 0 ? c.volume[i] / m : null;
        }
        const atr = ctx.atr(14)[i];
        const want = {
          close,
          change_pct: prev !== 0 ? 100 * (close / prev - 1) : null,
          volume: c.volume[i],
          volume_z: z,
          volume_ratio: ratio,
          sma_20: val(ctx.sma(20)[i]),
          sma_50: val(ctx.sma(50)[i]),
          sma_200: val(ctx.sma(200)[i]),
          ema_20: val(ctx.ema(20)[i]),
          ema_50: val(ctx.ema(50)[i]),
          ema_200: val(ctx.ema(200)[i]),
          rsi_14: val(ctx.rsi(14)[i]),
          macd: val(ctx.macd().macd[i]),
          macd_signal: val(ctx.macd().signal[i]),
          macd_histogram: val(ctx.macd().histogram[i]),
          stoch_k: val(ctx.stoch().k[i]),
          stoch_d: val(ctx.stoch().d[i]),
          adx_14: val(ctx.dmi(14).adx[i]),
          plus_di_14: val(ctx.dmi(14).plusDI[i]),
          minus_di_14: val(ctx.dmi(14).minusDI[i]),
          atr_14: val(atr),
          atr_pct: close !== 0 ? val((100 * atr) / Math.abs(close)) : null,
          cci_20: val(ctx.cciClose(20)[i]),
          williams_r_14: val(ctx.willr(14)[i]),
        };
        const got = indicatorSnapshot(c, { asOf: i });
        expect(Object.keys(got)).toEqual(Object.keys(want));
        for (const [k, w] of Object.entries(want)) {
          const g = (got as unknown as Record<string, number | null>)[k];
          if (typeof w === 'number' && typeof g === 'number') {
            expect(Math.abs(g - w), k).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w)));
          } else expect(g, k).toBe(w);
        }
      }),
      { numRuns: 100, endOnFailure: true },
    );
  });
});

describe('indicatorSnapshot without options', () => {
  it('reads the last candle', () => {
    const rows = Array.from({ length: 40 }, (_, i) => {
      const c = 100 + Math.sin(i / 3) * 5;
      return { time: i * 60_000, open: c, high: c + 1, low: c - 1, close: c, volume: 10 + i };
    });
    const c = toColumns(rows);
    expect(indicatorSnapshot(c)).toEqual(indicatorSnapshot(c, { asOf: 39 }));
    expect(indicatorSnapshot(computeContext(c))).toEqual(indicatorSnapshot(c, { asOf: 39 }));
  });
});
