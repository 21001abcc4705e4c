import { NotificationLimitsSchema } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { alertLimitOf, FREE_ALERT_LIMIT, INT64_MAX, limitsEnvelopeJson, limitsOf } from './limits.js';

describe('notification limits', () => {
  it('caps free accounts and leaves Pro and Elite unlimited', () => {
    expect([alertLimitOf('free'), alertLimitOf('pro'), alertLimitOf('elite')]).toEqual([FREE_ALERT_LIMIT, null, null]);
    expect(limitsOf('free', 2)).toEqual({ current: 2, max: FREE_ALERT_LIMIT, unlimited: false });
    // An unlimited `max` is the number the wire's 2^63-1 parses to (it was the text INT64_MAX until
    // session 16: the contract's schema says a number, which the operation `alerts.limits` answers).
    const unlimited = limitsOf('elite', 0);
    expect(unlimited).toEqual({ current: 0, max: Number(INT64_MAX), unlimited: true });
    expect(NotificationLimitsSchema.safeParse(unlimited).success).toBe(true);
  });
  it('writes 2^63-1 exactly', () => {
    expect(BigInt(INT64_MAX)).toBe(2n ** 63n - 1n);
    const text = limitsEnvelopeJson(limitsOf('pro', 3));
    expect(text).toBe(
      '{"code":0,"success":true,"data":{"current":3,"max":9223372036854775807,"unlimited":true},"message":null}',
    );
    expect(JSON.parse(text).data).toEqual(limitsOf('pro', 3));
  });
});
