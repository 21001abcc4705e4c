import { describe, expect, it } from 'vitest';
import { num, pct, price, priceDecimals, prob, words } from './format.js';

describe('number formatting', () => {
  it('shows a missing figure as a dash, never as zero', () => {
    for (const f of [price, pct, prob, num]) {
      expect(f(null, 'en')).toBe('–');
      expect(f(undefined, 'en')).toBe('–');
      expect(f(Number.NaN, 'en')).toBe('–');
    }
    expect(words(null)).toBe('–');
  });

  it('gives small prices more decimals', () => {
    expect(priceDecimals(65_000)).toBe(2);
    expect(priceDecimals(1.2345)).toBe(4);
    expect(priceDecimals(0.000123)).toBeGreaterThanOrEqual(7);
    expect(price(65_432.1, 'en')).toBe('65,432.10');
    expect(price(65_432.1, 'de')).toBe('65.432,10');
    expect(price(0.000123, 'en')).toMatch(/^0\.000123/);
  });

  it('signs percentages and writes probabilities as whole percents', () => {
    expect(pct(1.5, 'en')).toBe('+1.50 %');
    expect(pct(-0.25, 'en')).toBe('-0.25 %');
    expect(pct(0, 'en')).toBe('0.00 %');
    expect(prob(0.634, 'en')).toBe('63 %');
    expect(words('extreme_greed')).toBe('extreme greed');
  });
});
