import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reach } from '../testing/reach.js';
import { type Fact, overviewFacts } from './facts.js';
import { defaultTickSize, formatLocalized, formatPrice, roundToTick, tickDecimals } from './format.js';
import { OVERVIEW_LOCALES, renderOverview } from './render.js';

/** Tick sizes of real markets: US stocks, index futures (0.25, 0.5, 5), fx pipettes, coins in BTC. */
const TICKS = [0.01, 0.05, 0.25, 0.5, 1, 5, 0.0001, 0.00001, 0.00000001] as const;

describe('prices at the market tick', () => {
  it('writes a tick with its decimals and rounds to the nearest tick', () => {
    expect(TICKS.map(tickDecimals)).toEqual([2, 2, 2, 1, 0, 0, 4, 5, 8]);
    expect(roundToTick(20.372, 0.01)).toBe(20.37);
    expect(roundToTick(20.375, 0.01)).toBe(20.38);
    expect(roundToTick(4512.3, 0.25)).toBe(4512.25);
    expect(roundToTick(-1.006, 0.01)).toBe(-1.01);
    expect(formatPrice(20.049999, 0.01)).toBe('20.05');
    expect(formatPrice(4512.13, 0.25)).toBe('4512.25');
    expect(formatPrice(17845, 5)).toBe('17845');
    expect(formatPrice(0.0016234567, 0.00000001)).toBe('0.00162346');
    // A sub-cent price of a 0.01 market keeps six significant digits, never 0.00.
    expect(formatPrice(0.0016234567, 0.01)).toBe('0.00162346');
    expect(formatPrice(1.08345)).toBe('1.08345');
    expect(formatLocalized(64250.5, 'price', 'de', 0.01)).toBe('64.250,50');
    expect(formatLocalized(0.000123456, 'price', 'fr', 0.01)).toBe('0,000123456');
    expect(defaultTickSize('stocks')).toBe(0.01);
    expect(defaultTickSize('coins')).toBeNull();
  });

  it('never moves a price by more than half a tick, and writes a multiple of the tick (property)', () => {
    const atTick = reach('prices of ten ticks or more, written at the tick');
    atTick.assert(
      fc.property(
        fc.constantFrom(...TICKS),
        // From a hundredth of a tick to ten million ticks, evenly in magnitude: two thirds at ten ticks or more.
        fc.integer({ min: -2000, max: 7000 }).map((k) => k / 1000),
        fc.constantFrom(...OVERVIEW_LOCALES),
        (tick, magnitude, locale) => {
          const x = tick * 10 ** magnitude;
          const rounded = roundToTick(x, tick);
          // Half a tick, and the binary error of the rounded number's own decimals.
          expect(Math.abs(rounded - x)).toBeLessThanOrEqual(tick / 2 + Math.abs(x) * 1e-15);
          const steps = rounded / tick;
          expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6 + steps * 1e-12);
          const text = formatPrice(x, tick);
          if (atTick.hitIf(x >= 10 * tick)) {
            expect(Number(text)).toBe(rounded);
            expect(text.split('.')[1]?.length ?? 0).toBe(tickDecimals(tick));
            // Every locale writes the same digits (its separators aside).
            const digits = formatLocalized(x, 'price', locale, tick).replace(/\D/g, '');
            expect(digits).toBe(text.replace(/\D/g, ''));
          } else {
            // Below ten ticks: six significant digits, whatever the tick.
            expect(Math.abs(Number(text) - x)).toBeLessThanOrEqual(x * 5e-6 + 1e-10);
          }
        },
      ),
      { numRuns: 500, atLeast: 0.3 },
    );
  });

  it('keeps the significant digits of sub-cent prices (property)', () => {
    const subCent = reach('prices under a cent');
    subCent.assert(
      fc.property(fc.double({ min: 1e-8, max: 0.0099, noNaN: true }), fc.constantFrom(0.01, null), (x, tick) => {
        subCent.hitIf(x < 0.01);
        const text = formatPrice(x, tick);
        expect(Number(text)).toBeGreaterThan(0);
        // Six significant digits: within half a unit of the sixth.
        const error = Math.abs(Number(text) - x) / x;
        expect(error, `${x} written ${text}`).toBeLessThanOrEqual(5e-6 * (1 + 1e-9));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the overview at the market tick, in its quote currency', () => {
  const input = {
    indicators: { close: 0.0016234567, change_pct: 1.5 },
    levels: {
      nearest_support: {
        kind: 'support' as const,
        low: 0.00151,
        high: 0.0015567891,
        mid: 0.00153,
        strength: 0.5,
        touches: 3,
        last_touch_index: 1,
        last_touch_time: 0,
        volume: 1,
        distance_pct: -4,
        distance_atr: -1,
        sources: ['swing' as const],
        timeframe: null,
      },
      nearest_resistance: null,
    },
  };

  it('says a BTC-quoted pair in BTC at its tick, and a stock at 0.01', () => {
    const facts = overviewFacts(input, { quote: 'BTC', tick_size: 0.00000001 });
    const en = renderOverview(facts, 'en');
    expect(en).toContain('The price is 0.00162346 BTC');
    expect(en).toContain('support is at 0.00155679');
    expect(en).not.toContain('USD');
    const stock = overviewFacts({ indicators: { close: 20.049999 } }, { quote: 'USD', tick_size: 0.01 });
    expect(renderOverview(stock, 'en')).toBe('The price is 20.05 USD.');
    expect(renderOverview(stock, 'de')).toBe('Der Kurs liegt bei 20,05 USD.');
    // Without a market: six significant digits and no currency, as before.
    expect(renderOverview(overviewFacts({ indicators: { close: 20.049999 } }), 'en')).toBe('The price is 20.05.');
  });

  it('writes every number of the text from the facts, at the tick, in every locale', () => {
    const facts: Fact[] = overviewFacts(input, { quote: 'BTC', tick_size: 0.00000001 });
    for (const locale of OVERVIEW_LOCALES) {
      const text = renderOverview(facts, locale);
      expect(text).toContain('BTC');
      expect(text.replace(/\D/g, '')).toContain('162346');
    }
  });
});
