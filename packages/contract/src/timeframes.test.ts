import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositionAnalysisQuery } from './accounts/requests.js';
import { NotificationPayloadSchema } from './alerts/requests.js';
import { AssetAnalysisInput, TradingSignalsInput } from './market/requests.js';
import {
  NOTIFICATION_TIMEFRAMES,
  SIGNAL_TIMEFRAMES,
  TIMEFRAME_ALIASES,
  TIMEFRAMES,
  timeframeOf,
  timeframeSchema,
} from './timeframes.js';

const aliasOf = (wire: string) => Object.entries(TIMEFRAME_ALIASES).find(([, tf]) => tf === wire)?.[0];

describe('timeframes', () => {
  it('gives every wire timeframe one spoken alias, and no alias names two', () => {
    for (const tf of NOTIFICATION_TIMEFRAMES) expect(aliasOf(tf)).toBeDefined();
    expect(new Set(Object.values(TIMEFRAME_ALIASES)).size).toBe(Object.keys(TIMEFRAME_ALIASES).length);
  });

  it('reads both spellings the same way in every request that takes a timeframe', () => {
    for (const tf of TIMEFRAMES) {
      const alias = aliasOf(tf) as string;
      expect(AssetAnalysisInput.parse({ asset_id: 'bitcoin', timeframe: alias }).timeframe).toBe(tf);
      expect(PositionAnalysisQuery.parse({ timeframe: alias }).timeframe).toBe(tf);
      expect(
        NotificationPayloadSchema.parse({ asset_id: 'bitcoin', kind: 'rsi', target: 30, timeframe: alias }).timeframe,
      ).toBe(tf);
    }
    for (const tf of SIGNAL_TIMEFRAMES) {
      expect(TradingSignalsInput.parse({ timeframe: aliasOf(tf) }).timeframe).toBe(tf);
    }
  });

  it('refuses any other string, and timeframeOf agrees with the schema', () => {
    const schema = timeframeSchema(TIMEFRAMES);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...TIMEFRAMES, ...Object.keys(TIMEFRAME_ALIASES))), (s) => {
        const parsed = schema.safeParse(s);
        const direct = timeframeOf(s, TIMEFRAMES);
        expect(parsed.success ? parsed.data : null).toBe(direct);
      }),
    );
    expect(timeframeOf('12h', TIMEFRAMES)).toBeNull();
    expect(timeframeOf('12h', NOTIFICATION_TIMEFRAMES)).toBe('h12');
  });
});
