import { describe, expect, it } from 'vitest';
import { assetPath, parseRoute, timeframeChoices } from './timeframes.js';

describe('timeframeChoices', () => {
  it('labels the timeframes the caller needs Pro for with the tier', () => {
    expect(
      timeframeChoices([
        { value: 'h1', needs_pro: true },
        { value: 'd1', needs_pro: false },
      ]),
    ).toEqual([
      { value: 'h1', gated: true, tier: 'Pro', label: 'h1 · Pro' },
      { value: 'd1', gated: false, tier: '', label: 'd1' },
    ]);
  });

  it("names the tier as the page's language does", () => {
    expect(timeframeChoices([{ value: 'h4', needs_pro: true }], 'プロ')).toEqual([
      { value: 'h4', gated: true, tier: 'プロ', label: 'h4 · プロ' },
    ]);
  });
});

describe('routes of the app', () => {
  it('reads asset pages, lists, the account and the verification link', () => {
    expect(parseRoute('/app/asset/bitcoin', '?timeframe=h1')).toEqual({
      page: 'asset',
      assetId: 'bitcoin',
      timeframe: 'h1',
    });
    expect(parseRoute('/app/asset/stock-aapl', '')).toEqual({ page: 'asset', assetId: 'stock-aapl', timeframe: null });
    expect(parseRoute('/app/asset/BTC%2FUSDT', '')).toEqual({ page: 'asset', assetId: 'BTC/USDT', timeframe: null });
    expect(parseRoute('/app/asset/%E0%A4%A', '')).toEqual({ page: 'asset', assetId: '%E0%A4%A', timeframe: null });
    expect(parseRoute('/app/lists', '')).toEqual({ page: 'lists', tab: 'watchlist' });
    expect(parseRoute('/app/lists/signals', '?timeframe=h1')).toEqual({ page: 'lists', tab: 'signals' });
    expect(parseRoute('/app/account', '')).toEqual({ page: 'account' });
    expect(parseRoute('/app/verify', '?token=abc')).toEqual({ page: 'verify', token: 'abc' });
    expect(parseRoute('/app/', '')).toEqual({ page: 'home' });
    expect(parseRoute('/app/asset', '')).toEqual({ page: 'home' });
  });

  it('writes asset paths that read back as the same asset and timeframe', () => {
    for (const [id, tf] of [
      ['bitcoin', 'h1'],
      ['BTC/USDT', 'm15'],
      ['fx-eurusd', 'd1'],
      ['a b?c', 'w1'],
    ] as const) {
      const url = new URL(assetPath(id, tf), 'http://x');
      expect(parseRoute(url.pathname, url.search)).toEqual({
        page: 'asset',
        assetId: id,
        timeframe: tf === 'd1' ? null : tf,
      });
    }
  });
});
