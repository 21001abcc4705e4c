import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALERT_KIND_TIMEFRAMES, NOTIFICATION_KINDS, NotificationPayloadSchema } from './requests.js';

type Branch = { title: string; properties: { timeframe?: { enum?: string[]; type?: string } }; required?: string[] };

describe('alert payload schema', () => {
  const doc = (
    z.toJSONSchema(NotificationPayloadSchema, { io: 'input' }) as unknown as {
      $defs: { NotificationPayload: { anyOf: Branch[]; properties: { timeframe: { description: string } } } };
    }
  ).$defs.NotificationPayload;
  const branch = (kind: string) => doc.anyOf.find((b) => b.title === kind);

  it('states the timeframes each kind accepts, in both spellings', () => {
    expect(branch('rsi')?.properties.timeframe?.enum).toEqual(
      expect.arrayContaining(['m5', 'm15', 'm30', 'h1', 'h4', 'd1', 'w1', '5m', '1h', '1w']),
    );
    expect(branch('rsi')?.properties.timeframe?.enum).not.toContain('h12');
    expect(branch('zone')?.properties.timeframe?.enum?.sort()).toEqual(['15m', '1d', '1h', 'd1', 'h1', 'm15']);
    expect(branch('percent_change')?.properties.timeframe?.enum).toHaveLength(18);
    expect(branch('price')?.properties.timeframe).toEqual({ type: 'null' });
    expect(branch('price')?.required).not.toContain('timeframe');
    expect(doc.properties.timeframe.description).toContain('breakout: one of m15, h1, d1 (required)');
    expect(doc.properties.timeframe.description).toContain('price: none');
  });

  it('only describes: the schema accepts what it accepted (the service checks the kind against the timeframe)', () => {
    expect(
      NotificationPayloadSchema.safeParse({ asset_id: 'bitcoin', kind: 'rsi', target: 70, timeframe: 'h12' }).success,
    ).toBe(true);
    expect(NOTIFICATION_KINDS.every((k) => Array.isArray(ALERT_KIND_TIMEFRAMES[k]))).toBe(true);
  });
});
