import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { computeContext } from '../signal/context.js';
import { candleSeries, toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import {
  filterSignals,
  parseSignalControls,
  SIGNAL_CONTROLS,
  type SignalControls,
  type SignalRow,
  signalRow,
} from './signal-list.js';

function row(id: string, over: Partial<SignalRow> = {}): SignalRow {
  return {
    asset_id: id,
    action: 'hold',
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

const ROWS: SignalRow[] = [
  row('a', { action: 'buy', confidence: 0.9, trend: 'up', rsi: 65, breakout: 'up', volume_surge: true, volume_z: 3 }),
  row('b', {
    action: 'sell',
    confidence: 0.7,
    trend: 'down',
    rsi: 25,
    fear_greed: 20,
    fear_greed_zone: 'extreme_fear',
  }),
  row('c', { action: 'buy', confidence: 0.6, rsi: 35, support_distance_atr: -0.5, patterns: ['hammer', 'doji'] }),
  row('d', { confidence: 0.6, rsi: null, resistance_distance_atr: 0.2, breakout: 'down', change_pct: -4 }),
  row('e', {
    action: 'sell',
    confidence: 0.2,
    fear_greed: 80,
    fear_greed_zone: 'extreme_greed',
    patterns: ['shooting_star'],
  }),
];

function ids(controls: SignalControls): string[] {
  return filterSignals(ROWS, controls).map((r) => r.asset_id);
}

describe('SIGNAL_CONTROLS', () => {
  it('publishes ten distinct controls, each described, with values or a range', () => {
    expect(SIGNAL_CONTROLS).toHaveLength(10);
    expect(new Set(SIGNAL_CONTROLS.map((c) => c.name)).size).toBe(10);
    for (const c of SIGNAL_CONTROLS) {
      expect(c.description.length).toBeGreaterThan(10);
      if (c.type === 'enum' || c.type === 'enum_list') expect(c.values?.length).toBeGreaterThan(0);
      if (c.type === 'number' || c.type === 'range') expect(c.min).toBeLessThan(c.max ?? Number.NaN);
    }
    expect(JSON.parse(JSON.stringify(SIGNAL_CONTROLS))).toEqual(SIGNAL_CONTROLS);
  });
});

describe('filterSignals', () => {
  it('sorts by confidence by default, calls before holds, ties by asset id', () => {
    // d is the only hold: a hold's confidence is not on the calls' scale, so it comes after every call
    expect(ids({})).toEqual(['a', 'b', 'c', 'e', 'd']);
    expect(ids({ sort: 'confidence_asc' })).toEqual(['e', 'c', 'b', 'a', 'd']);
  });

  it('applies each control', () => {
    expect(ids({ direction: 'buy' })).toEqual(['a', 'c']);
    expect(ids({ min_confidence: 0.65 })).toEqual(['a', 'b']);
    expect(ids({ trend: 'down' })).toEqual(['b']);
    expect(ids({ rsi_band: { min: 30, max: 60 } })).toEqual(['c', 'e']);
    expect(ids({ breakout: 'up' })).toEqual(['a']);
    expect(ids({ breakout: 'any' })).toEqual(['a', 'd']);
    expect(ids({ volume_surge: true })).toEqual(['a']);
    expect(ids({ volume_surge: false })).toEqual(['b', 'c', 'e', 'd']);
    expect(ids({ fear_greed_zone: ['extreme_fear', 'extreme_greed'] })).toEqual(['b', 'e']);
    expect(ids({ near_zone: 'support' })).toEqual(['c']);
    expect(ids({ near_zone: 'resistance' })).toEqual(['d']);
    expect(ids({ near_zone: 'any' })).toEqual(['c', 'd']);
    // inside a zone: near a zone (any), but neither near a support nor near a resistance
    const inside = row('f', { inside_zone: true, support_distance_atr: -2, resistance_distance_atr: 2 });
    expect(filterSignals([...ROWS, inside], { near_zone: 'any' }).map((r) => r.asset_id)).toEqual(['c', 'd', 'f']);
    expect(filterSignals([...ROWS, inside], { near_zone: 'support' }).map((r) => r.asset_id)).toEqual(['c']);
    expect(filterSignals([...ROWS, inside], { near_zone: 'resistance' }).map((r) => r.asset_id)).toEqual(['d']);
    expect(ids({ pattern: ['doji', 'shooting_star'] })).toEqual(['c', 'e']);
  });

  it('combines controls with AND and sorts as asked, nulls last', () => {
    expect(ids({ direction: 'sell', fear_greed_zone: ['extreme_greed'] })).toEqual(['e']);
    expect(ids({ sort: 'rsi_asc' })).toEqual(['b', 'c', 'e', 'a', 'd']);
    expect(ids({ sort: 'rsi_desc' })).toEqual(['a', 'e', 'c', 'b', 'd']);
    expect(ids({ sort: 'change_asc' })).toEqual(['d', 'a', 'b', 'c', 'e']);
    expect(ids({ sort: 'fear_greed_desc' })).toEqual(['e', 'a', 'c', 'd', 'b']);
  });

  it('does not modify its input', () => {
    const copy = structuredClone(ROWS);
    filterSignals(ROWS, { sort: 'rsi_asc', direction: 'buy' });
    expect(ROWS).toEqual(copy);
  });

  it('rejects unknown controls and bad values with a typed error naming the control', () => {
    const bad: unknown[] = [
      { nope: 1 },
      { direction: 'long' },
      { min_confidence: 2 },
      { min_confidence: '0.5' },
      { rsi_band: { min: 70, max: 30 } },
      { rsi_band: { min: -1, max: 30 } },
      { fear_greed_zone: [] },
      { fear_greed_zone: ['panic'] },
      { pattern: 'hammer' },
      { volume_surge: 'yes' },
      { sort: 'random' },
    ];
    for (const c of bad) {
      let err: unknown;
      try {
        filterSignals(ROWS, c as SignalControls);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(c)).toBeInstanceOf(InputError);
      expect((err as InputError).code).toBe('invalid_option');
      expect(SIGNAL_CONTROLS.map((s) => s.name as string).concat(['nope'])).toContain((err as InputError).field);
    }
  });
});

describe('parseSignalControls', () => {
  it('parses query strings into typed controls and ignores other keys', () => {
    expect(
      parseSignalControls({
        direction: 'buy',
        min_confidence: '0.6',
        rsi_band: '30,70',
        pattern: ['hammer', 'doji'],
        fear_greed_zone: 'fear,extreme_fear',
        volume_surge: 'true',
        timeframe: 'd1',
      }),
    ).toEqual({
      direction: 'buy',
      min_confidence: 0.6,
      rsi_band: { min: 30, max: 70 },
      pattern: ['hammer', 'doji'],
      fear_greed_zone: ['fear', 'extreme_fear'],
      volume_surge: true,
    });
    expect(() => parseSignalControls({ min_confidence: 'abc' })).toThrow(InputError);
    expect(() => parseSignalControls({ rsi_band: '30' })).toThrow(InputError);
    expect(() => parseSignalControls({ volume_surge: '1' })).toThrow(InputError);
  });
});

describe('signalRow', () => {
  it('builds a JSON-clean row without look-ahead', () => {
    fc.assert(
      fc.property(candleSeries(1, 120), fc.nat(), (rows: Candle[], cut) => {
        const k = cut % rows.length;
        const full = computeContext(toColumns(rows));
        const r = signalRow('x', full, { asOf: k });
        expect(r).toEqual(signalRow('x', toColumns(rows.slice(0, k + 1))));
        expect(JSON.parse(JSON.stringify(r))).toEqual(r);
        expect(r.confidence).toBeGreaterThanOrEqual(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
        expect(filterSignals([r], {})).toEqual([r]);
      }),
      { numRuns: 60 },
    );
  });
});
