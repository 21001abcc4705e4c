import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CcxtMarketData, createCcxtMarketData } from './market-data.js';
import { createCcxtSource } from './source.js';
import { binanceRoutes } from './testing/fixtures/binance.js';
import { NOW } from './testing/fixtures/common.js';
import { hyperliquidHistory, hyperliquidMarkets, hyperliquidRoutes } from './testing/fixtures/hyperliquid.js';
import { jsonBody, startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;

beforeAll(async () => {
  server = await startVenueServer();
  server.routes([...binanceRoutes(), ...hyperliquidRoutes(hyperliquidHistory())]);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const options = { proxyUrl: '', rateLimit: false, timeoutMs: 2000, now: () => NOW };

describe('venue summary of a ccxt venue (real ccxt client, local venue)', () => {
  it('counts the active spot and derivatives markets it loaded, mapped to an asset or not', async () => {
    const binance = (await createCcxtMarketData({
      ...options,
      venue: 'binance',
      proxyUrl: server.proxyUrl,
    })) as CcxtMarketData;
    // Binance's exchangeInfo answers list 9 spot markets (ADA/USDT halted) and 5 derivatives: the
    // USDⓈ-M perpetuals BTC, ETH and 1000PEPE, a dated XRP future and the COIN-M BTCUSD_PERP.
    // EUR/USDT and ZZZ/USDT map to no coin of the universe and still count.
    const summary = await binance.summary();
    expect(summary).toMatchObject({ spot_pairs: 8, futures_pairs: 5 });
    // Binance publishes open interest one market per call only: not read, so not known.
    expect(summary.open_interest_usd).toBeNull();
    expect(server.requests.map((r) => r.url.pathname).sort()).toEqual([
      '/api/v3/exchangeInfo',
      '/dapi/v1/exchangeInfo',
      '/fapi/v1/exchangeInfo',
    ]);
  });

  it('is served by the ccxt market source too', async () => {
    const source = (await createCcxtSource({
      ...options,
      venue: 'binance',
      proxyUrl: server.proxyUrl,
    })) as unknown as CcxtMarketData;
    expect(await source.summary()).toEqual({ spot_pairs: 8, futures_pairs: 5, open_interest_usd: null });
  });

  it('sums the open interest of every perpetual where the venue publishes it in one call', async () => {
    // Hyperliquid lists its perp dexes first; the default one alone here.
    server.override({
      method: 'POST',
      host: 'api.hyperliquid.xyz',
      path: '/info',
      when: (r) => jsonBody(r).type === 'perpDexs',
      reply: () => ({ body: [null] }),
    });
    const hyperliquid = (await createCcxtMarketData({
      ...options,
      venue: 'hyperliquid',
      proxyUrl: server.proxyUrl,
      markets: hyperliquidMarkets,
    })) as CcxtMarketData;
    const summary = await hyperliquid.summary();
    // Open interest in coins (BTC 25,000.5, ETH 300,000) valued at each market's last (mid) price.
    expect(summary.open_interest_usd).toBeCloseTo(25_000.5 * 62_001.5 + 300_000 * 3_000.55, 2);
    expect(summary.futures_pairs).toBe(hyperliquidMarkets.filter((m) => m.swap === true).length);
    expect(server.unmatched).toEqual([]);
  });
});
