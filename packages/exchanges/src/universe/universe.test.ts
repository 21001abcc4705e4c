import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ASSETS } from './assets.js';
import { createUniverse, defaultUniverse, parseInstrument, resolveCurrency, resolveInstrument } from './universe.js';

const cases: ReadonlyArray<[string, string | null, string]> = [
  // [native name, asset id, venue style]
  ['BTCUSDT', 'bitcoin', 'binance spot / linear'],
  ['btcusdt', 'bitcoin', 'lowercase'],
  ['BTC/USDT', 'bitcoin', 'ccxt spot'],
  ['BTC/USDT:USDT', 'bitcoin', 'ccxt linear perpetual'],
  ['BTC/USD:BTC', 'bitcoin', 'ccxt inverse perpetual'],
  ['BTC/USD:BTC-240628', 'bitcoin', 'ccxt dated future'],
  ['BTC/USD:BTC-240628-60000-C', null, 'ccxt option: never priced as the underlying'],
  ['XBTUSD', 'bitcoin', 'bitmex inverse perpetual (XBT alias)'],
  ['XBTUSDT', 'bitcoin', 'bitmex linear'],
  ['XBTUSDTM', 'bitcoin', 'kucoin futures'],
  ['PF_XBTUSD', 'bitcoin', 'kraken futures perpetual'],
  ['FI_XBTUSD_240628', 'bitcoin', 'kraken futures dated'],
  ['XXBTZUSD', 'bitcoin', 'kraken spot'],
  ['XETHZEUR', 'ethereum', 'kraken spot in euro'],
  ['BTC-USDT-SWAP', 'bitcoin', 'okx swap'],
  ['BTC-USD-240628', 'bitcoin', 'okx future'],
  ['BTC-USDT', 'bitcoin', 'okx spot'],
  ['BTC-USD', 'bitcoin', 'coinbase'],
  ['BTC-PERP-INTX', 'bitcoin', 'coinbase international'],
  ['BTC-PERPETUAL', 'bitcoin', 'deribit'],
  ['BTC-28JUN24-60000-C', null, 'deribit option'],
  ['BTC-240628-60000-P', null, 'binance option'],
  ['BTCUSD_PERP', 'bitcoin', 'binance coin-m'],
  ['BTCUSD_240628', 'bitcoin', 'binance coin-m quarterly'],
  ['BTCPERP', 'bitcoin', 'bybit usdc perpetual'],
  ['ETH_USDT', 'ethereum', 'gate'],
  ['tBTCUSD', 'bitcoin', 'bitfinex'],
  ['ETHBTC', 'ethereum', 'quoted in btc'],
  ['SOLUSDC', 'solana', 'usdc quote'],
  ['USDCUSDT', 'usd-coin', 'stablecoin pair'],
  ['USDTUSD', 'tether', 'stablecoin in usd'],
  ['1000PEPEUSDT', 'pepe', 'multiplier prefix'],
  ['1000PEPE/USDT:USDT', 'pepe', 'ccxt multiplier'],
  ['kPEPE', 'pepe', 'hyperliquid thousand prefix'],
  ['DOGE', 'dogecoin', 'hyperliquid perp coin'],
  ['XDGUSD', 'dogecoin', 'kraken XDG alias'],
  ['AAPLX/USDT:USDT', 'stock-aapl', 'tokenized stock perpetual (xStocks)'],
  ['AAPLx/USD', 'stock-aapl', 'kraken xStocks spot'],
  ['TSLA-PERP', 'stock-tsla', 'stock perpetual'],
  ['TSLAUSDT', 'stock-tsla', 'stock perpetual concatenated'],
  ['NVDAON/USDT', 'stock-nvda', 'ondo tokenized stock'],
  ['xyz:TSLA', 'stock-tsla', 'hyperliquid builder dex'],
  ['AAPL', 'stock-aapl', 'plain ticker'],
  ['EURUSD', 'fx-eurusd', 'fx concatenated'],
  ['EUR/USD', 'fx-eurusd', 'fx ccxt'],
  ['EUR_USD', 'fx-eurusd', 'oanda'],
  ['EURUSD=X', 'fx-eurusd', 'yahoo fx'],
  ['EUR/USDT', 'fx-eurusd', 'euro against a usd stablecoin'],
  ['USDJPY', 'fx-usdjpy', 'fx usd base'],
  ['JPY/USD', null, 'inverted fx pair is not tracked'],
  ['EURCHF', null, 'untracked fx cross'],
  ['BRETTUSDT', null, 'on-chain token symbols are not matched on venues'],
  ['FOOUSDT', null, 'unknown coin'],
  ['BTCX/USDT', null, 'X suffix only for stocks'],
  ['XBTZ24', null, 'bitmex month code: not parsed, so not guessed'],
  ['BTC-USDT-XYZ', null, 'unknown structure'],
  ['', null, 'empty'],
  ['BTC USDT', null, 'space'],
];

describe('instrument mapping', () => {
  it.each(cases)('%s -> %s (%s)', (name, id) => {
    expect(resolveInstrument(name)).toBe(id);
  });

  it('reports structure and multiplier', () => {
    expect(parseInstrument('BTC/USDT:USDT')).toMatchObject({
      base: 'BTC',
      quote: 'USDT',
      settle: 'USDT',
      kind: 'perpetual',
      market_type: 'derivatives',
    });
    expect(parseInstrument('1000PEPEUSDT')).toMatchObject({ base: 'PEPE', quote: 'USDT', multiplier: 1000 });
    expect(parseInstrument('BTC-USDT')).toMatchObject({ kind: 'unknown', market_type: null });
    expect(parseInstrument('BTC/USDT')).toMatchObject({ kind: 'spot', market_type: 'spot' });
    expect(parseInstrument('FOOUSDT')).toMatchObject({ asset_id: null, base: 'FOO', quote: 'USDT' });
    expect(parseInstrument('???')).toBeNull();
  });

  it('an ambiguous split maps to null', () => {
    // AB + USDT and ABUSD + T would both resolve: the mapping refuses to choose.
    const u = createUniverse([
      { id: 'ab', symbol: 'AB', name: 'AB', asset_class: 'coins' },
      { id: 'abusd', symbol: 'ABUSD', name: 'ABUSD', asset_class: 'coins' },
    ]);
    expect(u.resolveInstrument('ABUSDT')).toBe('ab');
    expect(u.resolveInstrument('ABUSD')).toBeNull();
  });

  it('currency codes are case-normalized, with XBT as an alias of bitcoin', () => {
    expect(resolveCurrency('btc')).toBe('bitcoin');
    expect(resolveCurrency(' Xbt ')).toBe('bitcoin');
    expect(resolveCurrency('USDT')).toBe('tether');
    expect(resolveCurrency('usdc')).toBe('usd-coin');
    expect(resolveCurrency('AAPLX')).toBe('stock-aapl');
    expect(resolveCurrency('USD')).toBeNull();
    expect(resolveCurrency('EUR')).toBeNull();
    expect(resolveCurrency('BRETT')).toBeNull();
    expect(resolveCurrency('HMSTR')).toBeNull();
  });

  const known = new Set<string>();
  for (const def of BUILTIN_ASSETS) {
    known.add(def.symbol.toUpperCase());
    for (const alias of def.aliases ?? []) known.add(alias);
  }
  const knownList = [...known];
  const unknownCode = fc
    .stringMatching(/^[A-Z]{2,7}$/)
    .filter((code) => !knownList.some((k) => code.includes(k) || k.includes(code)));
  const quote = fc.constantFrom('USDT', 'USDC', 'USD', 'BTC', 'EUR');
  const format = fc.constantFrom(
    (b: string, q: string) => `${b}${q}`,
    (b: string, q: string) => `${b}/${q}`,
    (b: string, q: string) => `${b}/${q}:${q}`,
    (b: string, q: string) => `${b}-${q}-SWAP`,
    (b: string, q: string) => `${b}_${q}`,
    (b: string) => `${b}-PERP`,
    (b: string) => b,
    (b: string, q: string) => `PF_${b}${q}`,
    (b: string, q: string) => `1000${b}${q}`,
  );

  it('reads no bare currency behind a Kraken futures prefix (fast-check counterexample)', () => {
    expect(resolveInstrument('FF_USDT')).toBeNull();
    expect(resolveInstrument('PF_USDT')).toBeNull();
    expect(resolveInstrument('PF_XBTUSD')).toBe('bitcoin');
  });

  it('property: names on an unknown base map to null in every venue format', () => {
    fc.assert(
      fc.property(unknownCode, quote, format, (base, q, fmt) => {
        expect(resolveInstrument(fmt(base, q))).toBeNull();
        expect(resolveInstrument(fmt(base.toLowerCase(), q))).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('property: arbitrary text never throws and maps to null or a tracked asset', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const id = resolveInstrument(text);
        expect(id === null || defaultUniverse.get(id) !== undefined).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('property: every tracked coin and stock round-trips through common venue formats', () => {
    const tradable = defaultUniverse.assets.filter((a) => a.asset_class === 'coins' || a.asset_class === 'stocks');
    for (const asset of tradable) {
      for (const name of [`${asset.symbol}USDT`, `${asset.symbol}/USDT:USDT`, `${asset.symbol}-USDT-SWAP`]) {
        expect(resolveInstrument(name), name).toBe(asset.id);
      }
    }
  });
});

describe('asset records', () => {
  it('has the expected universe size and the named assets', () => {
    const count = (c: string) => defaultUniverse.list().filter((a) => a.asset_class === c).length;
    expect(count('coins')).toBeGreaterThanOrEqual(50);
    expect(count('stocks')).toBeGreaterThanOrEqual(20);
    expect(count('fx')).toBe(10);
    expect(count('external')).toBe(2);
    for (const id of ['bitcoin', 'ethereum', 'solana', 'tether', 'usd-coin', 'stock-aapl', 'fx-eurusd']) {
      expect(defaultUniverse.get(id), id).toBeDefined();
    }
    expect(defaultUniverse.get('tether')?.is_stablecoin).toBe(true);
    expect(defaultUniverse.get('bitcoin')?.is_stablecoin).toBe(false);
  });

  it('ids follow the naming rules and icons are local data URIs', () => {
    for (const a of defaultUniverse.assets) {
      const pattern =
        a.asset_class === 'coins'
          ? /^[a-z0-9-]+$/
          : a.asset_class === 'stocks'
            ? /^stock-[a-z0-9.]+$/
            : a.asset_class === 'fx'
              ? /^fx-[a-z]{6}$/
              : /^onchain-[a-z0-9-]+$/;
      expect(a.id, a.id).toMatch(pattern);
      expect(a.icon.startsWith('data:image/svg+xml,')).toBe(true);
      expect(a.icon).not.toMatch(/https?:%2F%2F(?!www\.w3\.org)/);
      expect(a.symbol).toBe(a.symbol.toUpperCase());
    }
  });

  it('refuses a universe where two assets claim one code', () => {
    expect(() =>
      createUniverse([
        { id: 'a', symbol: 'AAA', name: 'A', asset_class: 'coins' },
        { id: 'b', symbol: 'BBB', name: 'B', asset_class: 'coins', aliases: ['aaa'] },
      ]),
    ).toThrow(/AAA/);
  });
});

describe('find: what a user may type for an asset', () => {
  const u = defaultUniverse;
  const ids = (input: string) => u.find(input).map((a) => a.id);

  it('takes ids in any case, tickers, currency codes and instrument names', () => {
    expect(ids('bitcoin')).toEqual(['bitcoin']);
    expect(ids('Bitcoin')).toEqual(['bitcoin']);
    expect(ids('BTC')).toEqual(['bitcoin']);
    expect(ids('btc')).toEqual(['bitcoin']);
    expect(ids('XBT')).toEqual(['bitcoin']);
    expect(ids('BTCUSDT')).toEqual(['bitcoin']);
    expect(ids('BTC/USDT')).toEqual(['bitcoin']);
    expect(ids('AAPL')).toEqual(['stock-aapl']);
    expect(ids('EURUSD')).toEqual(['fx-eurusd']);
    expect(ids('stock-aapl')).toEqual(['stock-aapl']);
  });

  it('names none for unknown input and every candidate when a ticker is shared', () => {
    expect(ids('NOPE-NOT-AN-ASSET')).toEqual([]);
    expect(ids('  ')).toEqual([]);
    const shared = createUniverse([
      { id: 'pepe', symbol: 'PEPE', name: 'Pepe', asset_class: 'coins' },
      { id: 'onchain-base-pepe', symbol: 'PEPE', name: 'Pepe (Base)', asset_class: 'external' },
    ]);
    expect(shared.find('pepe').map((a) => a.id)).toEqual(['pepe']);
    expect(shared.find('PEPE').map((a) => a.id)).toEqual(['pepe', 'onchain-base-pepe']);
  });
});
