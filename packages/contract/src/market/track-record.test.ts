import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BacktestRecordSchema,
  BacktestSeriesSchema,
  LiveRecordSchema,
  type RecordStats,
  RecordStatsSchema,
  ServiceTrackRecordSchema,
} from './track-record.js';

const stats: RecordStats = {
  count: 2,
  hits: 1,
  hit_rate: { mean: 0.5, low: 0.1, high: 0.9 },
  break_even_hit_rate: 0.35,
  expected_r: { mean: 0.1, low: null, high: null },
  realized_r: { mean: 0.5, low: -9, high: 10 },
  total_r: 1,
  max_drawdown_r: 1,
  from: '2026-01-10T00:00:00.000Z',
  to: '2026-01-13T00:00:00.000Z',
  level: 0.9,
};

const backtest = {
  kind: 'backtest',
  label: 'Backtest, not live trading: ...',
  status: 'ready',
  as_of: '2026-01-15T00:00:00.000Z',
  analyses: 800,
  calls: 3,
  call_share: 3 / 800,
  total: stats,
  series: [
    {
      asset_id: 'bitcoin',
      asset_class: 'coins',
      timeframe: 'd1',
      cost_pct: 0.22,
      candles: 1000,
      out_of_sample_since: '2010-03-23T00:00:00.000Z',
      analyses: 800,
      calls: 3,
      first_analysis_at: '2023-11-20T00:00:00.000Z',
      last_analysis_at: '2026-01-14T00:00:00.000Z',
      stats,
      error: null,
    },
  ],
};

/** The fields of an object schema that carry no description (read from each field's metadata). */
function undescribed(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => typeof (field as z.ZodType).description !== 'string')
    .map(([name]) => name);
}

describe('the audit and backtest schemas of the track record', () => {
  it('accept a record and refuse what would change its meaning', () => {
    expect(BacktestRecordSchema.parse(backtest)).toEqual(backtest);
    expect(() => BacktestRecordSchema.parse({ ...backtest, kind: 'live' })).toThrow();
    expect(() => BacktestRecordSchema.parse({ ...backtest, status: 'done' })).toThrow();
    expect(() => RecordStatsSchema.parse({ ...stats, max_drawdown_r: -0.5 })).toThrow();
    expect(() => RecordStatsSchema.parse({ ...stats, count: 1.5 })).toThrow();
    expect(() => BacktestSeriesSchema.parse({ ...backtest.series[0], timeframe: 'y1' })).toThrow();
    expect(LiveRecordSchema.parse({ kind: 'live', label: 'Live', stats })).toMatchObject({ kind: 'live' });
    expect(() => LiveRecordSchema.parse({ kind: 'backtest', label: 'Live', stats })).toThrow();
  });

  it('describe every field a trader reads (the OpenAPI document and the MCP output schema come from them)', () => {
    const fields = [
      'count',
      'hits',
      'hit_rate',
      'break_even_hit_rate',
      'expected_r',
      'realized_r',
      'total_r',
      'max_drawdown_r',
      'from',
      'to',
      'level',
    ];
    expect(Object.keys(RecordStatsSchema.shape)).toEqual(fields);
    expect(undescribed(RecordStatsSchema)).toEqual([]);
    expect(undescribed(BacktestRecordSchema)).toEqual([]);
    // the ids and the figures' own schema are named as everywhere else
    expect(undescribed(BacktestSeriesSchema)).toEqual(['asset_id', 'asset_class', 'timeframe', 'stats']);
    expect(undescribed(LiveRecordSchema)).toEqual(['stats']);
  });

  it('adds the live audit and the backtest to the service record without changing a field it had', () => {
    const shape = Object.keys(ServiceTrackRecordSchema.shape);
    expect(shape).toEqual(['as_of', 'cost_pct', 'timeframe', 'asset_class', 'total', 'groups', 'live', 'backtest']);
  });
});
