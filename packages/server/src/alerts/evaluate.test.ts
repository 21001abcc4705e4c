import type { Candles } from '@marketlens/core';
import { createSimulatedVenue, TIMEFRAME_MS } from '@marketlens/exchanges';
import { describe, expect, it } from 'vitest';
import { alertRecord } from '../../test/support/alerts.js';
import type { AlertRecord } from '../storage/alerts-types.js';
import { distancePct, entryZoneAt, evaluateAlert, evalWindowOf } from './evaluate.js';

const T0 = Date.UTC(2026, 0, 1);

/** Candles from closes (open = previous close; high/low = max/min of the two, widened by `wick`). */
function candles(closes: number[], step: number, wick = 0, highs?: number[], lows?: number[]): Candles {
  const n = closes.length;
  const c: Candles = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n).fill(1),
  };
  for (let i = 0; i < n; i++) {
    const open = i === 0 ? closes[0] : closes[i - 1];
    c.time[i] = T0 + i * step;
    c.open[i] = open;
    c.close[i] = closes[i];
    c.high[i] = highs?.[i] ?? Math.max(open, closes[i]) + wick;
    c.low[i] = lows?.[i] ?? Math.min(open, closes[i]) - wick;
  }
  return c;
}

const alert = (over: Partial<AlertRecord>): AlertRecord => alertRecord(T0, over);

const M5 = TIMEFRAME_MS.m5;
const H1 = TIMEFRAME_MS.h1;

describe('evaluateAlert per kind', () => {
  it('price: a wick touching the target fires (above and below)', () => {
    const c = candles([90, 92, 95, 94], M5, 0, [91, 93, 101, 95]);
    // The value is the level the wick touched (the target), not the candle's close.
    expect(evaluateAlert(alert({ target: 100 }), c)).toEqual({ candle_open: T0 + 2 * M5, value: 100, close: 95 });
    const down = candles([110, 105, 104], M5, 0, undefined, [108, 99, 103]);
    expect(evaluateAlert(alert({ target: 100, direction: 'below' }), down)).toMatchObject({
      candle_open: T0 + M5,
      value: 100,
    });
    expect(evaluateAlert(alert({ target: 120 }), c)).toBeNull();
  });
  it('price: a candle that gaps through the target reports the nearest price it traded', () => {
    // Candle 2 opens at 104 and never trades below 103: the level 100 was jumped over.
    const c = candles([90, 92, 104, 106], M5, 0, [91, 93, 107, 108], [89, 90, 103, 104]);
    expect(evaluateAlert(alert({ target: 100 }), c)).toEqual({ candle_open: T0 + 2 * M5, value: 103, close: 104 });
    // Of the candle open at arming only the close counts, so that close is the value.
    const armed = candles([90, 101], M5, 0, [91, 102], [89, 99]);
    expect(evaluateAlert(alert({ target: 100, armed_at: T0 + M5 + 60_000 }), armed)).toEqual({
      candle_open: T0 + M5,
      value: 101,
      close: 101,
    });
  });
  it('price: the candle open at arming counts by its close only; evaluated candles are skipped', () => {
    const c = candles([90, 95, 96], M5, 0, [105, 99, 101]);
    // Armed in the middle of candle 0: its 105 high came before; candle 2's high fires.
    expect(evaluateAlert(alert({ armed_at: T0 + 60_000 }), c)?.candle_open).toBe(T0 + 2 * M5);
    expect(evaluateAlert(alert({ last_evaluated_open: T0 + 2 * M5 }), c)).toBeNull();
  });
  it('breakout: needs a close beyond the level, not a wick', () => {
    const c = candles([98, 99, 101], H1, 0, [103, 104, 102]);
    expect(evaluateAlert(alert({ kind: 'breakout', evaluates_as: 'h1', target: 100 }), c)).toEqual({
      candle_open: T0 + 2 * H1,
      value: 101,
      close: 101,
    });
  });
  it('zone: fires when a candle trades into the band', () => {
    const c = candles([120, 115, 111, 112], H1, 0, undefined, [118, 113, 109, 110]);
    const a = alert({
      kind: 'zone',
      evaluates_as: 'h1',
      target: 105,
      zone_low: 100,
      zone_high: 110,
      direction: 'below',
    });
    // Coming down into 100-110: the zone's upper edge is the level touched.
    expect(evaluateAlert(a, c)).toEqual({ candle_open: T0 + 2 * H1, value: 110, close: 111 });
    // Coming up into it from below, its lower edge.
    const up = candles([90, 95, 99], H1, 0, [91, 97, 103]);
    expect(evaluateAlert({ ...a, direction: 'above' }, up)).toEqual({
      candle_open: T0 + 2 * H1,
      value: 100,
      close: 99,
    });
  });
  it('rsi: fires when RSI(14) reaches the level at a close', () => {
    const closes = [
      ...Array.from({ length: 30 }, (_, i) => 100 + (i % 2 === 0 ? 1 : -1)),
      ...Array.from({ length: 10 }, (_, i) => 101 + 2 * (i + 1)),
    ];
    const c = candles(closes, H1);
    const hit = evaluateAlert(alert({ kind: 'rsi', evaluates_as: 'h1', target: 70 }), c);
    expect(hit).not.toBeNull();
    expect(hit?.candle_open).toBeGreaterThanOrEqual(T0 + 30 * H1);
    expect(hit?.value).toBeGreaterThanOrEqual(70);
    expect(evaluateAlert(alert({ kind: 'rsi', evaluates_as: 'h1', target: 20, direction: 'below' }), c)).toBeNull();
  });
  it('percent_change: compares with the close one column earlier (1h = 12 m5 candles)', () => {
    const closes = [...Array(12).fill(100), 100, 101, 102, 103, 104, 105.5];
    const c = candles(closes, M5);
    const a = alert({ kind: 'percent_change', evaluates_as: '1h', target: 5 });
    expect(evalWindowOf(a)).toEqual({ timeframe: 'm5', warmup: 12 });
    const hit = evaluateAlert(a, c);
    expect(hit?.candle_open).toBe(T0 + 17 * M5);
    expect(hit?.value).toBeCloseTo(5.5, 10);
    expect(
      evaluateAlert(alert({ kind: 'percent_change', evaluates_as: '1h', target: -1, direction: 'below' }), c),
    ).toBeNull();
  });
  it('percent_change folds onto the three columns', () => {
    expect(evalWindowOf({ kind: 'percent_change', evaluates_as: '24h' })).toEqual({ timeframe: 'h1', warmup: 24 });
    expect(evalWindowOf({ kind: 'percent_change', evaluates_as: '7d' })).toEqual({ timeframe: 'h4', warmup: 42 });
  });
  it('smart_zone: fires when a close comes within the distance of the published entry zone', async () => {
    const venue = createSimulatedVenue({ now: () => Date.UTC(2026, 0, 15) });
    // Ethereum: with the refitted calibration (regime vote removed), bitcoin's h1 calls in this window
    // no longer clear the probability gate, ethereum's do (about 20 of the 80 candles searched).
    const { candles: c } = await venue.candles({ asset_id: 'ethereum', timeframe: 'h1', limit: 400 });
    // Find a candle with a published entry zone and read its distance: a threshold just above it fires there.
    // The simulated venue's calls rarely clear the expected-R gate (issue 40); the floor is lowered
    // (as MARKETLENS_SIGNAL_MIN_EXPECTED_R=-100 does on a server) so that plans are published,
    // which is what this test is about; for the same reason the plan's reward minimum (issue 38's
    // poor_reward, 1.5 R net) is off, since under it this window publishes no plan at all.
    const options = { signal: { minExpectedR: -100 }, plan: { minNetRiskReward: 0 } };
    let at = -1;
    let d = 0;
    for (let i = 320; i < 400 && at < 0; i++) {
      const band = entryZoneAt(c, i, options);
      if (band) {
        at = i;
        d = distancePct(c.close[i], band.low, band.high);
      }
    }
    expect(at).toBeGreaterThan(0);
    const armed = c.time[at];
    const hit = evaluateAlert(
      alert({
        kind: 'smart_zone',
        evaluates_as: 'h1',
        target: d + 1e-9,
        direction: 'below',
        armed_at: armed,
        last_evaluated_open: c.time[at - 1],
      }),
      c,
      options,
    );
    expect(hit?.candle_open).toBe(c.time[at]);
    expect(hit?.value).toBeCloseTo(d, 12);
  });
  it('distancePct is 0 inside the band and relative outside', () => {
    expect(distancePct(105, 100, 110)).toBe(0);
    expect(distancePct(121, 100, 110)).toBeCloseTo(10, 12);
    expect(distancePct(90, 100, 110)).toBeCloseTo(10, 12);
  });
});
