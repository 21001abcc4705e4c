// Levels at famous turning points of the real series, with expectations written from the candles
// (the swing highs and lows a chartist marks on the chart), not from earlier output.
import { describe, expect, it } from 'vitest';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candles } from '../types.js';
import { type SupportResistance, supportResistance } from './zones.js';

function at(name: string, date: string): { candles: Candles; asOf: number } {
  const series = loadSharedSeries().find((s) => s.name === name);
  if (series === undefined) throw new Error(`no series ${name}`);
  const t = Date.parse(`${date}T00:00:00Z`);
  const asOf = series.candles.time.indexOf(t);
  if (asOf < 0) throw new Error(`${name} has no candle on ${date}`);
  return { candles: series.candles, asOf };
}

const holds = (z: { low: number; high: number }, price: number): boolean => z.low <= price && price <= z.high;
const above = (sr: SupportResistance) => sr.zones.filter((z) => z.low > sr.mark);
const below = (sr: SupportResistance) => sr.zones.filter((z) => z.high < sr.mark);

describe.skipIf(!sharedDataDir)(
  `levels at turning points of the real series (skips when ${sharedDataSkipReason})`,
  () => {
    it('ORCL d1 2014-12-31: the all-time high of 2014-12-24 (46.71) is resistance, the open gap of 12-18 support', () => {
      // Candles: 12-22 H46.05, 12-23 H46.50, 12-24 H46.71, 12-26 H46.50, 12-29 H46.09: a swing high and
      // the highest high since 1995; close 44.97. 12-17 H41.63, 12-18 L43.57: a gap up, lows since
      // no lower than 44.97, so 41.63-43.57 is still open.
      const { candles, asOf } = at('orcl-d1', '2014-12-31');
      const sr = supportResistance(candles, { bySide: true, asOf });
      expect(sr.mark).toBeCloseTo(44.97, 2);
      expect(sr.range.all_time_high).toBeCloseTo(46.71, 2);
      expect(sr.range.all_time_high_time).toBe(Date.parse('2014-12-24T00:00:00Z'));
      expect(sr.at_all_time_high).toBe(false);
      const ath = above(sr).find((z) => holds(z, sr.range.all_time_high));
      expect(ath?.kind).toBe('resistance');
      expect(ath?.sources).toEqual(expect.arrayContaining(['swing', 'all_time_high']));
      const gap = below(sr).find((z) => z.sources.includes('gap'));
      expect(gap).toBeDefined();
      expect(gap?.low ?? 0).toBeGreaterThanOrEqual(41.63 - 1e-9);
      expect(gap?.high ?? 0).toBeLessThanOrEqual(43.57 + 1e-9);
      // levels on both sides, at most four a side
      expect(below(sr).length).toBeGreaterThan(0);
      expect(below(sr).length).toBeLessThanOrEqual(4);
      expect(above(sr).length).toBeLessThanOrEqual(4);
      expect(sr.timeframe).toBe('d1');
      expect(sr.higher_timeframe).toBe('w1');
    });

    it('NVDA d1 2008-09-12: resistance at 10.55-10.91 and 11.76-11.94, and an August swing high (13.49 / 14.12)', () => {
      // Candles: 08-04 L10.55 and 09-09/10 L10.77/10.75 (the shelf broken on 09-11); swing highs
      // 07-29 H11.94, 08-07 H11.90, 09-09 H11.83; 08-14 H13.49 (08-12 H11.35, 08-13 H12.44 before,
      // 08-15 H13.38, 08-18 H13.34 after) and 08-20 H14.12 (13.34, 13.50 before; 13.94, 13.88 after),
      // also the week's high (weeks of 08-11 H13.49 and 08-25 H13.85 around it). Close 10.19.
      const { candles, asOf } = at('nvda-d1', '2008-09-12');
      const sr = supportResistance(candles, { bySide: true, asOf });
      expect(sr.mark).toBeCloseTo(10.19, 2);
      const res = above(sr);
      expect(res.some((z) => z.low <= 10.91 && z.high >= 10.55)).toBe(true);
      expect(res.some((z) => holds(z, 11.83) || holds(z, 11.94))).toBe(true);
      const august = res.find((z) => holds(z, 13.49) || holds(z, 14.12));
      expect(august).toBeDefined();
      // the 08-20 high is a weekly swing too: the zone says so
      const weekly = res.find((z) => holds(z, 14.12));
      expect(weekly?.timeframe).toBe('w1');
      // the 52-week low is the day's own low (9.61): earlier lows (09-11 L9.96) make the support
      expect(sr.range.low_52w).toBeCloseTo(9.61, 2);
      expect(below(sr).some((z) => holds(z, 9.96))).toBe(true);
      expect(res.length).toBeLessThanOrEqual(4);
      expect(below(sr).length).toBeLessThanOrEqual(4);
    });

    it('uses the whole history: a longer window or history changes nothing the range extremes say', () => {
      // ORCL's all-time high before 2014 is the 2000 peak; as of 2013-12-31 it lies beyond a 500-candle
      // window, and is still the range extreme the levels read.
      const { candles, asOf } = at('orcl-d1', '2013-12-31');
      const sr = supportResistance(candles, { bySide: true, asOf });
      const high = candles.high;
      let ath = 0;
      let athAt = 0;
      for (let i = 0; i < asOf; i++) {
        if (high[i] > ath) {
          ath = high[i];
          athAt = i;
        }
      }
      expect(asOf - athAt).toBeGreaterThan(500);
      expect(sr.range.all_time_high).toBe(ath);
    });
  },
);
