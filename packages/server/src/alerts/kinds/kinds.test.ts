/**
 * The alert kinds through the registry: one entry per kind of the contract, and the push each kind
 * writes when it fires (title, body, caption), pinned word for word as the scheduler wrote them
 * before the kinds were files of their own.
 */
import { NOTIFICATION_KINDS } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { alertRecord } from '../../../test/support/alerts.js';
import type { AlertRecord } from '../../storage/alerts-types.js';
import { alertPayload } from '../scheduler.js';
import { ALERT_KIND_REGISTRY } from './registry.js';

const T = Date.UTC(2026, 10, 1);

function pushOf(over: Partial<AlertRecord>, hit: { value: number; close: number }) {
  const payload = alertPayload(alertRecord(T, over), 'Bitcoin', { candle_open: T, ...hit }, T + 1);
  const p = JSON.parse(payload.payload) as { title: string; body: string; data: Record<string, unknown> };
  return [p.title, p.body, p.data.caption];
}

describe('alert kinds', () => {
  it('the registry holds exactly the contract kinds', () => {
    expect(Object.keys(ALERT_KIND_REGISTRY).sort()).toEqual([...NOTIFICATION_KINDS].sort());
  });

  it('each kind writes its own push', () => {
    expect(pushOf({ kind: 'price', target: 100_000 }, { value: 100_000, close: 100_500 })).toEqual([
      'Bitcoin above 100,000',
      'Bitcoin reached 100,000 (last close 100,500)',
      null,
    ]);
    expect(
      pushOf(
        { kind: 'breakout', target: 95_000, direction: 'below', timeframe: 'h1', evaluates_as: 'h1' },
        { value: 94_800, close: 94_800 },
      ),
    ).toEqual(['Bitcoin broke below 95,000', 'A h1 candle closed at 94,800', null]);
    expect(
      pushOf(
        { kind: 'zone', target: 90_500, zone_low: 90_000, zone_high: 91_000, timeframe: 'd1', evaluates_as: 'd1' },
        { value: 90_000, close: 90_200 },
      ),
    ).toEqual(['Bitcoin entered its d1 zone', 'Bitcoin traded into 90,000-91,000', null]);
    expect(
      pushOf({ kind: 'rsi', target: 70, timeframe: 'h1', evaluates_as: 'h1' }, { value: 71.234, close: 1 }),
    ).toEqual(['Bitcoin RSI 71.2 (h1)', 'RSI(14) on h1 closed above 70', null]);
    expect(
      pushOf(
        { kind: 'smart_zone', target: 1, direction: 'below', timeframe: 'h4', evaluates_as: 'h1' },
        { value: 0.4567, close: 1 },
      ),
    ).toEqual(['Bitcoin near its smart zone (h1)', 'Bitcoin closed 0.46% from the published entry zone', null]);
    expect(
      pushOf(
        { kind: 'percent_change', target: -5, direction: 'below', timeframe: 'd1', evaluates_as: '24h' },
        { value: -5.5, close: 1 },
      ),
    ).toEqual(['Bitcoin -5.50% (24h)', 'Bitcoin moved -5.50% over 24h; your alert was -5.00%', '24h']);
  });
});
