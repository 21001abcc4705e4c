import { describe, expect, it } from 'vitest';
import { matchesSearch } from './search.js';

const BTC = { id: 'bitcoin', name: 'Bitcoin', symbol: 'BTC' };
const AAPL = { id: 'stock-aapl', name: 'Apple Inc.', symbol: 'AAPL' };
const EURUSD = { id: 'fx-eurusd', name: 'Euro / US Dollar', symbol: 'EURUSD' };

describe('matchesSearch', () => {
  it('finds an asset by ticker, name or id, whatever the case', () => {
    expect(matchesSearch(BTC, 'btc')).toBe(true);
    expect(matchesSearch(BTC, 'Bit')).toBe(true);
    expect(matchesSearch(AAPL, 'aapl')).toBe(true);
    expect(matchesSearch(AAPL, 'apple')).toBe(true);
    expect(matchesSearch(EURUSD, 'eurusd')).toBe(true);
    expect(matchesSearch(EURUSD, 'us dollar')).toBe(true);
    expect(matchesSearch(EURUSD, 'fx')).toBe(true);
  });

  it('keeps everything for an empty query and drops what no word starts', () => {
    expect(matchesSearch(BTC, '  ')).toBe(true);
    expect(matchesSearch(BTC, 'coin')).toBe(false);
    expect(matchesSearch(AAPL, 'btc')).toBe(false);
    expect(matchesSearch(EURUSD, 'euro yen')).toBe(false);
  });
});
