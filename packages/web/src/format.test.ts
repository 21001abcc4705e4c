import { describe, expect, it } from 'vitest';
import { num, pct, price, priceDecimals, prob, tickDecimals, tickOf, words } from './format.js';

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

  it('writes a price at the market tick: a stock at the cent, a coin by its size', () => {
    expect(tickOf('stocks')).toBe(0.01);
    expect(tickOf('coins')).toBeNull();
    expect(tickOf('fx')).toBeNull();
    expect(price(80.177, 'en', 0.01)).toBe('80.18');
    expect(price(83.115, 'de', 0.01)).toMatch(/^83,1[12]$/);
    expect(price(119.122, 'en', tickOf('stocks'))).toBe('119.12');
    expect(price(4512.3, 'en', 0.25)).toBe('4,512.25');
    expect(price(-80.177, 'en', 0.01)).toBe('-80.18');
    // a sub-cent price of a cent market keeps its digits (fewer than ten ticks)
    expect(price(0.0734, 'en', 0.01)).toMatch(/^0\.0734/);
    // no tick: the decimals its size calls for
    expect(price(80.177, 'en')).toBe('80.177');
    expect(tickDecimals(0.01)).toBe(2);
    expect(tickDecimals(0.25)).toBe(2);
    expect(tickDecimals(1)).toBe(0);
    expect(tickDecimals(0.00000001)).toBe(8);
  });
});
