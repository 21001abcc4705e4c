// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// signalRow's fields against the screens and factors they are documented to come from, the
// controls' validation and query parsing at their edges (inclusive bounds, error fields and
// messages), and each filter and sort order of filterSignals.
import { describe, expect, it } from 'vitest';
import { computeContext } from '../signal/context.js';
import { signal } from '../signal/signal.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import { detectBreakout, type PriceZone } from './screeners.js';
import {
  checkSignalControls,
  filterSignals,
  parseSignalControls,
  type SignalControls,
  type SignalRow,
  signalRow,
} from './signal-list.js';
import { quietThenBar } from './test-fixtures.js';

const series = quietThenBar;

function row(id: string, over: Partial<SignalRow> = {}): SignalRow {
  return {
    asset_id: id,
    action: 'buy',
    confidence: 0.5,
    expected_r: null,
    expected_r_low: null,
    break_even: null,
    score: 0,
    trend: 'sideways',
    rsi: 50,
    breakout: null,
    volume_z: 0,
    volume_surge: false,
    fear_greed: 50,
    fear_greed_zone: 'neutral',
    inside_zone: false,
    support_distance_atr: -3,
    resistance_distance_atr: 3,
    patterns: [],
    change_pct: 0,
    ...over,
  };
}

const ids = (rows: readonly SignalRow[], controls?: SignalControls): string[] =>
  filterSignals(rows, controls).map((r) => r.asset_id);

describe('signalRow', () => {
  it('rejects an asset id that is not a string', () => {
    const e = caught(() => signalRow(1 as unknown as string, toColumns(series(110, 300))));
    expect([e.code, e.field, e.message]).toEqual(['invalid_option', 'assetId', 'assetId must be a string']);
  });

  it('reads the trend from the trend factor: above 0.25 up, below -0.25 down, else sideways', () => {
    const c = toColumns(series(110, 300));
    const sig = signal(c);
    const withTrend = (score: number | null) => ({
      ...sig,
      // the trend factor is found by name, wherever it stands
      factors: [
        ...sig.factors.filter((f) => f.name !== 'trend').map((f) => ({ ...f, score: 0.9 })),
        ...sig.factors.filter((f) => f.name === 'trend').map((f) => ({ ...f, score })),
      ],
    });
    const trend = (score: number | null) => signalRow('x', c, { signal: withTrend(score) }).trend;
    expect(trend(0.26)).toBe('up');
    expect(trend(0.25)).toBe('sideways');
    expect(trend(0)).toBe('sideways');
    expect(trend(-0.25)).toBe('sideways');
    expect(trend(-0.26)).toBe('down');
    expect(trend(null)).toBe('sideways');
    const noTrend = { ...sig, factors: sig.factors.filter((f) => f.name !== 'trend').map((f) => ({ ...f, score: 1 })) };
    expect(signalRow('x', c, { signal: noTrend }).trend).toBe('sideways');
  });

  it('takes breakout and volume surge from the screens at the as-of bar, with the given zones', () => {
    const rows = series(110, 300);
    const zones: PriceZone[] = [{ low: 104, high: 105 }];
    const r = signalRow('x', toColumns(rows), { zones });
    expect(detectBreakout(toColumns(rows), { zones })).toMatchObject({ direction: 'up', level: 105 });
    expect(r.breakout).toBe('up');
    expect(r.volume_surge).toBe(true);
    expect(signalRow('x', toColumns(series(90, 300)), { zones: [{ low: 95, high: 96 }] }).breakout).toBe('down');
    // a quiet last bar: no breakout, no surge
    const quiet = signalRow('x', toColumns(series(100, 100)), { zones });
    expect([quiet.breakout, quiet.volume_surge]).toEqual([null, false]);
    // as of the breakout bar, inside a longer series, the later quiet bar is not read
    const longer = [...rows, { ...rows[24], time: 26 * 60_000, close: 110, open: 110, high: 111, low: 109 }];
    const asOf = signalRow('x', toColumns(longer), { zones, asOf: 25 });
    expect([asOf.breakout, asOf.volume_surge]).toEqual(['up', true]);
  });

  it('reads the zones of the as-of bar from a context shared between bars', () => {
    // a range, then a decline through it and a recovery: the zones change from bar to bar
    const rows: Candle[] = Array.from({ length: 90 }, (_, i) => {
      const c = i < 40 ? 100 + 3 * Math.sin(i * 0.7) : i < 65 ? 100 - (i - 40) : 75 + 1.2 * (i - 65);
      return { time: i * 60_000, open: c - 0.5, high: c + 1, low: c - 1.5, close: c, volume: 100 + (i % 5) * 10 };
    });
    const ctx = computeContext(toColumns(rows));
    for (const k of [89, 60, 75, 45]) {
      expect(signalRow('x', ctx, { asOf: k }), String(k)).toEqual(signalRow('x', toColumns(rows.slice(0, k + 1))));
    }
  });

  it('gives the change of the last bar in percent, null on the first bar', () => {
    expect(signalRow('x', toColumns(series(110, 300))).change_pct).toBeCloseTo(10, 10);
    expect(signalRow('x', toColumns(series(95, 300))).change_pct).toBeCloseTo(-5, 10);
    expect(signalRow('x', toColumns(series(110, 300)), { asOf: 0 }).change_pct).toBeNull();
  });
});

describe('checkSignalControls', () => {
  it('needs an object', () => {
    for (const bad of [null, [], 'direction=buy', 3]) {
      const e = caught(() => checkSignalControls(bad as unknown as SignalControls));
      expect([e.code, e.field, e.message]).toEqual(['invalid_option', 'controls', 'controls must be an object']);
    }
    expect(caught(() => filterSignals([], null as unknown as SignalControls)).field).toBe('controls');
  });

  it('skips controls given as undefined', () => {
    expect(checkSignalControls({ direction: undefined, min_confidence: 0.5 })).toEqual({ min_confidence: 0.5 });
  });

  it('names the control and the rule in each message', () => {
    const msg = (c: unknown) => caught(() => checkSignalControls(c as SignalControls)).message;
    expect(msg({ nope: 1 })).toBe(
      'nope: unknown control (known: direction, min_confidence, trend, rsi_band, breakout, volume_surge, fear_greed_zone, near_zone, pattern, sort)',
    );
    expect(msg({ direction: 'long' })).toBe('direction: must be one of buy, hold, sell');
    expect(msg({ min_confidence: 2 })).toBe('min_confidence: value must be a number in 0..1');
    expect(msg({ rsi_band: { min: -1, max: 30 } })).toBe('rsi_band: min must be a number in 0..100');
    expect(msg({ rsi_band: { min: 1, max: 101 } })).toBe('rsi_band: max must be a number in 0..100');
    expect(msg({ rsi_band: { min: 70, max: 30 } })).toBe('rsi_band: min must not exceed max');
    expect(msg({ rsi_band: null })).toBe('rsi_band: must be { min, max }');
    expect(msg({ rsi_band: 5 })).toBe('rsi_band: must be { min, max }');
    expect(msg({ pattern: [] })).toBe('pattern: must be a non-empty list');
    expect(msg({ volume_surge: 'yes' })).toBe('volume_surge: must be true or false');
  });

  it('accepts the bounds of numbers and ranges, and a range of one value', () => {
    expect(checkSignalControls({ min_confidence: 0 })).toEqual({ min_confidence: 0 });
    expect(checkSignalControls({ min_confidence: 1 })).toEqual({ min_confidence: 1 });
    expect(checkSignalControls({ rsi_band: { min: 0, max: 100 } })).toEqual({ rsi_band: { min: 0, max: 100 } });
    expect(checkSignalControls({ rsi_band: { min: 40, max: 40 } })).toEqual({ rsi_band: { min: 40, max: 40 } });
  });
});

describe('parseSignalControls', () => {
  const msg = (q: Record<string, string | string[]>) => caught(() => parseSignalControls(q)).message;

  it('trims the parts and drops empty list items', () => {
    expect(parseSignalControls({ rsi_band: ' 30 , 70 ', direction: ' sell ' })).toEqual({
      rsi_band: { min: 30, max: 70 },
      direction: 'sell',
    });
    expect(parseSignalControls({ pattern: 'hammer,,doji,' })).toEqual({ pattern: ['hammer', 'doji'] });
    expect(parseSignalControls({ pattern: ['', 'doji'] })).toEqual({ pattern: ['doji'] });
  });

  it('reads numbers as whole decimals only', () => {
    expect(parseSignalControls({ min_confidence: '0.55' })).toEqual({ min_confidence: 0.55 });
    expect(parseSignalControls({ rsi_band: '-0,12.25' })).toEqual({ rsi_band: { min: -0, max: 12.25 } });
    for (const bad of ['x0.5', '0.5x', '.5', '1e-1', '0.']) {
      expect(msg({ min_confidence: bad }), bad).toBe('min_confidence: value must be a number in 0..1');
    }
  });

  it('takes one value per single control, two for a range', () => {
    expect(msg({ direction: 'buy,sell' })).toBe('direction: takes one value');
    expect(msg({ sort: ['score_asc', 'score_desc'] })).toBe('sort: takes one value');
    expect(msg({ min_confidence: '0.5,0.6' })).toBe('min_confidence: takes one number');
    expect(msg({ rsi_band: '30' })).toBe('rsi_band: takes min,max');
    expect(msg({ rsi_band: '10,20,30' })).toBe('rsi_band: takes min,max');
  });

  it('reads booleans as true or false only', () => {
    expect(parseSignalControls({ volume_surge: 'false' })).toEqual({ volume_surge: false });
    expect(parseSignalControls({ volume_surge: 'true' })).toEqual({ volume_surge: true });
    for (const bad of ['1', 'yes', 'true,false', 'TRUE']) {
      expect(msg({ volume_surge: bad }), bad).toBe('volume_surge: must be true or false');
    }
  });
});

describe('filterSignals', () => {
  it('needs an array of rows', () => {
    const e = caught(() => filterSignals('rows' as unknown as SignalRow[]));
    expect([e.code, e.field, e.message]).toEqual(['invalid_option', 'rows', 'rows must be an array']);
  });

  it('keeps the inclusive bounds of min_confidence and rsi_band, and drops a missing RSI', () => {
    const rows = [row('a', { confidence: 0.6 }), row('b', { confidence: 0.59 }), row('c', { confidence: 0.61 })];
    expect(ids(rows, { min_confidence: 0.6 })).toEqual(['c', 'a']);
    const rsi = [row('a', { rsi: 30 }), row('b', { rsi: 70 }), row('c', { rsi: 29.9 }), row('d', { rsi: 70.1 })];
    expect(ids(rsi, { rsi_band: { min: 30, max: 70 } })).toEqual(['a', 'b']);
    expect(ids([row('n', { rsi: null }), row('z', { rsi: 0 })], { rsi_band: { min: 0, max: 100 } })).toEqual(['z']);
  });

  it('counts a zone exactly one ATR away as near, and a missing zone as not', () => {
    const rows = [
      row('s', { support_distance_atr: -1, resistance_distance_atr: null }),
      row('r', { support_distance_atr: null, resistance_distance_atr: 1 }),
      row('far', { support_distance_atr: -1.01, resistance_distance_atr: 1.01 }),
      row('none', { support_distance_atr: null, resistance_distance_atr: null }),
    ];
    expect(ids(rows, { near_zone: 'support' })).toEqual(['s']);
    expect(ids(rows, { near_zone: 'resistance' })).toEqual(['r']);
    expect(ids(rows, { near_zone: 'any' })).toEqual(['r', 's']);
  });

  it('sorts by each key, either way, nulls last, ties by asset id', () => {
    const rows = [
      row('e', { score: 0.1, volume_z: null, fear_greed: 40, change_pct: 2 }),
      row('d', { score: -0.4, volume_z: 1, fear_greed: null, change_pct: null }),
      row('c', { score: 0.1, volume_z: 3, fear_greed: 70, change_pct: -1 }),
      row('b', { score: 0.5, volume_z: null, fear_greed: 40, change_pct: 5 }),
      row('a', { score: -0.4, volume_z: 1, fear_greed: null, change_pct: null }),
    ];
    expect(ids(rows, { sort: 'score_desc' })).toEqual(['b', 'c', 'e', 'a', 'd']);
    expect(ids(rows, { sort: 'score_asc' })).toEqual(['a', 'd', 'c', 'e', 'b']);
    expect(ids(rows, { sort: 'volume_z_desc' })).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(ids(rows, { sort: 'fear_greed_asc' })).toEqual(['b', 'e', 'c', 'a', 'd']);
    expect(ids(rows, { sort: 'fear_greed_desc' })).toEqual(['c', 'b', 'e', 'a', 'd']);
    expect(ids(rows, { sort: 'change_desc' })).toEqual(['b', 'e', 'c', 'a', 'd']);
    expect(ids(rows, { sort: 'change_asc' })).toEqual(['c', 'e', 'b', 'a', 'd']);
    // all keys equal: asset id order, whatever the input order
    const same = ['z', 'x', 'y', 'w'].map((id) => row(id));
    expect(ids(same, { sort: 'score_desc' })).toEqual(['w', 'x', 'y', 'z']);
    expect(ids([...same].reverse(), { sort: 'score_desc' })).toEqual(['w', 'x', 'y', 'z']);
  });
});
