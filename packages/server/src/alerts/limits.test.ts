import { describe, expect, it } from 'vitest';
import { alertLimitOf, FREE_ALERT_LIMIT, INT64_MAX, limitsEnvelopeJson, limitsOf } from './limits.js';

describe('notification limits', () => {
  it('caps free accounts and leaves Pro and Elite unlimited', () => {
    expect([alertLimitOf('free'), alertLimitOf('pro'), alertLimitOf('elite')]).toEqual([FREE_ALERT_LIMIT, null, null]);
    expect(limitsOf('free', 2)).toEqual({ current: 2, max: FREE_ALERT_LIMIT, unlimited: false });
    expect(limitsOf('elite', 0)).toEqual({ current: 0, max: INT64_MAX, unlimited: true });
  });
  it('writes 2^63-1 exactly', () => {
    expect(BigInt(INT64_MAX)).toBe(2n ** 63n - 1n);
    const text = limitsEnvelopeJson(limitsOf('pro', 3));
    expect(text).toBe(
      '{"code":0,"success":true,"data":{"current":3,"max":9223372036854775807,"unlimited":true},"message":null}',
    );
    expect(JSON.parse(text).data.unlimited).toBe(true);
  });
});
