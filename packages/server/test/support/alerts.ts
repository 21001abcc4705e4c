import type { AlertRecord } from '../../src/storage/alerts-types.js';

/**
 * An active price alert on bitcoin, armed at `at`, owned by user `u`, with `over` on top: the
 * record the evaluator's tests start from.
 */
export function alertRecord(at: number, over: Partial<AlertRecord> = {}): AlertRecord {
  return {
    id: 'a',
    user_id: 'u',
    asset_id: 'bitcoin',
    kind: 'price',
    timeframe: null,
    evaluates_as: null,
    target: 100,
    direction: 'above',
    zone_low: null,
    zone_high: null,
    reference: null,
    status: 'active',
    created_at: at,
    updated_at: at,
    armed_at: at,
    expires_at: at + 1e10,
    triggered_at: null,
    trigger_value: null,
    trigger_candle: null,
    last_evaluated_open: null,
    ...over,
  };
}
