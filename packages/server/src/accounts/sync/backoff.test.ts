import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

const opts = { baseMs: 1000, maxMs: 60_000 };

describe('backoffDelay', () => {
  it('doubles per failure between half and all of the step, capped', () => {
    expect(backoffDelay(1, opts, () => 0)).toBe(500);
    expect(backoffDelay(1, opts, () => 0.999999)).toBe(1000);
    expect(backoffDelay(3, opts, () => 0)).toBe(2000);
    expect(backoffDelay(3, opts, () => 1)).toBe(4000);
    expect(backoffDelay(10, opts, () => 1)).toBe(60_000);
    expect(backoffDelay(10_000, opts, () => 0.5)).toBe(45_000);
    expect(backoffDelay(0, opts, () => 0)).toBe(500);
  });

  it('honours the venue retry hint, itself capped', () => {
    expect(backoffDelay(1, opts, () => 0, 20_000)).toBe(20_000);
    expect(backoffDelay(1, opts, () => 0, 10 * 60_000)).toBe(60_000);
  });

  it('jitters: the same failure count spreads over a range', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) seen.add(backoffDelay(4, opts));
    expect(seen.size).toBeGreaterThan(10);
    for (const d of seen) expect(d >= 4000 && d <= 8000).toBe(true);
  });
});
