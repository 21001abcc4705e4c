import { VWAP as RefVWAP } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import { VWAP, type VwapAnchor, type VwapCandles, vwap } from './vwap.js';

const HOUR = 3_600_000;
const t = (iso: string): number => Date.parse(iso);

function typical(c: Candles, i: number): number {
  return (c.high[i] + c.low[i] + c.close[i]) / 3;
}

/** The key of the session a time falls in, computed with Date (independently of vwap.ts). */
function sessionKey(anchor: VwapAnchor, time: number): string {
  const d = new Date(time);
  if (anchor === 'day') return d.toISOString().slice(0, 10);
  if (anchor === 'month') return d.toISOString().slice(0, 7);
  const monday = new Date(time - ((d.getUTCDay() + 6) % 7) * 86_400_000);
  return monday.toISOString().slice(0, 10);
}

/** technicalindicators' VWAP (cumulative, never reset) run separately on each session. */
function sessionReference(c: Candles, anchor: VwapAnchor): { ref: Float64Array; starts: number[] } {
  const n = c.close.length;
  const ref = new Float64Array(n);
  const starts: number[] = [];
  let from = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && sessionKey(anchor, c.time[i]) === sessionKey(anchor, c.time[from])) continue;
    starts.push(from);
    const part = (col: Float64Array) => Array.from(col.subarray(from, i));
    const r = RefVWAP.calculate({ high: part(c.high), low: part(c.low), close: part(c.close), volume: part(c.volume) });
    ref.set(r, from);
    from = i;
  }
  return { ref, starts };
}

describe('vwap', () => {
  it('matches a hand-computed example and resets at UTC midnight', () => {
    const candles = {
      time: [
        t('2024-03-04T22:00Z'),
        t('2024-03-04T23:00Z'),
        t('2024-03-04T23:59Z'),
        t('2024-03-05T00:00Z'),
        t('2024-03-05T01:00Z'),
      ],
      high: [12, 13, 15, 21, 24],
      low: [8, 11, 12, 18, 18],
      close: [10, 12, 12, 18, 18],
      volume: [100, 300, 0, 0, 50],
    };
    // Typical prices 10, 12, 13 | 19, 20.
    // Day 1: 10 * 100 / 100 = 10; (1000 + 12 * 300) / 400 = 11.5; no volume added: 11.5.
    // Day 2: volume 0 so far reads the typical price 19; then 20 * 50 / 50 = 20.
    expect(Array.from(vwap(candles))).toEqual([10, 11.5, 11.5, 19, 20]);
    // One week (Monday 4 March to Sunday 10 March) and one month: no reset.
    // (1000 + 3600 + 0 + 0 + 1000) / 450 = 5600 / 450.
    expect(vwap(candles, { anchor: 'week' })[4]).toBeCloseTo(5600 / 450, 12);
    expect(vwap(candles, { anchor: 'month' })[4]).toBeCloseTo(5600 / 450, 12);
    expect(vwap.lookback()).toBe(0);
  });

  it('starts weeks on Monday 00:00 UTC and months on the 1st 00:00 UTC', () => {
    const one = (times: number[], anchor: VwapAnchor) =>
      Array.from(vwap({ time: times, high: [1, 2], low: [1, 2], close: [1, 2], volume: [1, 1] }, { anchor }));
    // Sunday 23:59 -> Monday 00:00 is a new week; Monday 00:00 -> Sunday 23:59 is one week.
    expect(one([t('2024-03-10T23:59Z'), t('2024-03-11T00:00Z')], 'week')).toEqual([1, 2]);
    expect(one([t('2024-03-11T00:00Z'), t('2024-03-17T23:59Z')], 'week')).toEqual([1, 1.5]);
    // Across the epoch's own week and before 1970 too.
    expect(one([t('1970-01-04T23:00Z'), t('1970-01-05T00:00Z')], 'week')).toEqual([1, 2]);
    expect(one([t('1969-12-28T23:00Z'), t('1969-12-29T00:00Z')], 'week')).toEqual([1, 2]);
    // Leap-year February to March, and December to January.
    expect(one([t('2024-02-29T23:00Z'), t('2024-03-01T00:00Z')], 'month')).toEqual([1, 2]);
    expect(one([t('2023-12-31T23:00Z'), t('2024-01-01T00:00Z')], 'month')).toEqual([1, 2]);
    expect(one([t('2024-03-01T00:00Z'), t('2024-03-31T23:00Z')], 'month')).toEqual([1, 1.5]);
    // A day anchor keeps the hours of one UTC day together.
    expect(one([t('2024-03-10T00:00Z'), t('2024-03-10T00:00Z') + 23 * HOUR], 'day')).toEqual([1, 1.5]);
  });

  it.skipIf(!sharedDataDir)(
    `equals technicalindicators VWAP run on each session of the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const anchor of ['day', 'week', 'month'] as const) {
          const { ref, starts } = sessionReference(candles, anchor);
          const ours = vwap(candles, { anchor });
          // technicalindicators divides 0 by 0 while a session has no volume: we read the typical price there.
          const dry = (i: number) => Number.isNaN(ref[i]);
          expectClose(
            ours,
            ref.map((x, i) => (dry(i) ? typical(candles, i) : x)),
            {
              label: `${name} VWAP(${anchor})`,
              skip: dry,
            },
          );
          for (let i = 0; i < ours.length; i++) if (dry(i)) expect(ours[i]).toBe(typical(candles, i));
          // Every session restarts from its first bar's typical price.
          for (const s of starts) expect(ours[s]).toBeCloseTo(typical(candles, s), 9);
          if (name === 'crypto-m1') {
            // 4..14 November 2017: 11 UTC days, 3 weeks (Mondays 6 and 13), 1 month.
            expect(starts.length).toBe({ day: 11, week: 3, month: 1 }[anchor]);
          }
        }
      }
    },
  );

  it.skipIf(!sharedDataDir)(
    `reads the typical price on index-m5, which has no volume at all (skips when ${sharedDataSkipReason})`,
    () => {
      const index = loadSharedSeries().find((s) => s.name === 'index-m5');
      expect(index).toBeDefined();
      if (!index) return;
      const c = index.candles;
      for (const anchor of ['day', 'week', 'month'] as const) {
        const out = vwap(c, { anchor });
        for (let i = 0; i < out.length; i++) expect(out[i]).toBe(typical(c, i));
      }
    },
  );

  it('holds the streaming properties', () => {
    // Bars an hour and a half, nine hours or two days apart cross a UTC day every 16 bars, a
    // week about every 19 and a month about every 15, so every draw sees a few anchor resets.
    const spacing = { day: 5_400_000, week: 32_400_000, month: 172_800_000 };
    for (const anchor of ['day', 'week', 'month'] as const) {
      const spaced = candleSeries(0, 120).map((rows) =>
        rows.map((r, i) => ({ ...r, time: 1_700_000_000_000 + i * spacing[anchor] })),
      );
      checkIndicatorProperties<Candle>({
        inputs: spaced,
        batch: (rows) => vwap(toColumns(rows), { anchor }),
        stream: () => new VWAP({ anchor }),
        lookback: vwap.lookback({ anchor }),
        constant: { input: { time: 0, open: 4, high: 5, low: 3, close: 4, volume: 7 }, expected: 4 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c) => vwap(c as unknown as VwapCandles), ['time', 'high', 'low', 'close', 'volume'], []);
    const bad = { anchor: 'hour' } as unknown as { anchor: VwapAnchor };
    expect(() => vwap({ time: [0], high: [1], low: [1], close: [1], volume: [1] }, bad)).toThrow(InputError);
    expect(() => new VWAP(bad)).toThrow(/anchor/);
    expect(() => vwap({ time: [1e300], high: [1], low: [1], close: [1], volume: [1] }, { anchor: 'month' })).toThrow(
      InputError,
    );
    expect(() => new VWAP().update({ high: 1, low: 1, close: 1, volume: 1 })).toThrow(/time/);
  });
});
