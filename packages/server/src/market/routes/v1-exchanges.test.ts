import { createCcxtSource, EXCHANGE_CATALOG, SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binanceRoutes } from '../../../../exchanges/src/ccxt/testing/fixtures/binance.js';
import { NOW } from '../../../../exchanges/src/ccxt/testing/fixtures/common.js';
import { startVenueServer, type VenueServer } from '../../../../exchanges/src/ccxt/testing/venue-server.js';
import { type Harness, harness } from '../../../test/support/harness.js';
import { seedBybitPromotion } from '../../../test/support/promotions.js';

interface Volume {
  spot_24h_usd: number | null;
  total_24h_usd: number | null;
}
interface Exchange {
  id: string;
  connected: boolean;
  volume: Volume;
  spot_pairs: number;
  futures_pairs: number;
  spot_tickers: { pair: string; market_type: string }[];
  futures_tickers: { pair: string; funding_rate: number | null }[];
}

let h: Harness;
let key: Record<string, string>;
beforeAll(async () => {
  h = harness();
  key = { 'x-api-key': await h.apiKey((await h.signup()).token) };
});

const get = async <T>(path: string) => {
  const r = await h.request(path, { headers: key });
  return { status: r.status, body: (await r.json()) as { code: number | string; data: T } };
};

describe('/v1/exchanges', () => {
  it('lists the catalog; the simulated venue carries live volumes', async () => {
    const { status, body } = await get<Exchange[]>('/v1/exchanges');
    expect(status).toBe(200);
    expect(body.data.map((e) => e.id)).toEqual(EXCHANGE_CATALOG.map((e) => e.id));
    const sim = body.data.find((e) => e.id === SIMULATED_VENUE_ID);
    expect(sim?.volume.total_24h_usd).toBeGreaterThan(0);
    const other = body.data.find((e) => e.id !== SIMULATED_VENUE_ID);
    expect(other?.volume.total_24h_usd).toBeNull();
    expect(body.data.every((e) => e.connected === false)).toBe(true);
  });

  it('details the simulated venue with its tickers', async () => {
    const { body } = await get<Exchange>(`/v1/exchanges/${SIMULATED_VENUE_ID}`);
    expect(body.data.spot_pairs).toBe(body.data.spot_tickers.length);
    expect(body.data.futures_pairs).toBe(body.data.futures_tickers.length);
    expect(body.data.spot_tickers.map((t) => t.pair)).toContain('BTC/USDT');
    expect(body.data.futures_tickers.find((t) => t.pair === 'BTC/USDT:USDT')?.funding_rate).toEqual(expect.any(Number));
  });

  it("shows a signed-in caller's open promotion on its exchange (given to market/ by the composition root)", async () => {
    const own = harness();
    const session = { 'x-session-token': (await own.signup()).token };
    const before = (await (await own.request('/v1/exchanges', { headers: session })).json()) as {
      data: { id: string; promotion: { id: string } | null }[];
    };
    expect(before.data.every((e) => e.promotion === null)).toBe(true);
    const p = await seedBybitPromotion(own.storage, own.clock.now);
    const after = (await (await own.request('/v1/exchanges', { headers: session })).json()) as typeof before;
    expect(after.data.filter((e) => e.promotion !== null).map((e) => [e.id, e.promotion?.id])).toEqual([
      ['bybit', p.id],
    ]);
  });

  it('404s an unknown exchange', async () => {
    const { status, body } = await get('/v1/exchanges/no-such-venue');
    expect([status, body.code]).toEqual([404, 'UnknownExchange']);
  });
});

describe('/v1/exchanges/{id}: what the catalog knows, and null for what it does not', () => {
  it('reports the simulated venue open interest: the sum over its perpetuals', async () => {
    const { body } = await get<Exchange & { futures_open_interest_usd: number | null }>(
      `/v1/exchanges/${SIMULATED_VENUE_ID}`,
    );
    const perps = h.market.listMarkets().filter((m) => m.market_type === 'derivatives');
    let sum = 0;
    for (const m of perps) sum += h.market.openInterestAt(m.pair, h.clock.now) ?? Number.NaN;
    expect(sum).toBeGreaterThan(0);
    expect(body.data.futures_open_interest_usd).toBe(sum);
    expect(body.data.futures_pairs).toBe(perps.length);
  });

  describe('a ccxt venue the server does not serve (real ccxt client, local venue)', () => {
    let venues: VenueServer;
    let ccxt: Harness;
    let ccxtKey: Record<string, string>;
    beforeAll(async () => {
      venues = await startVenueServer();
      venues.routes(binanceRoutes());
      ccxt = harness({}, undefined, {
        marketFor: (venue) =>
          createCcxtSource({ venue, proxyUrl: venues.proxyUrl, rateLimit: false, timeoutMs: 2000, now: () => NOW }),
      });
      ccxtKey = { 'x-api-key': await ccxt.apiKey((await ccxt.signup()).token) };
    });
    afterAll(() => venues.close());

    it('counts the pairs of its loaded markets, quotes its tracked ones, and leaves unknown open interest null', async () => {
      const r = await ccxt.request('/v1/exchanges/binance', { headers: ccxtKey });
      expect(r.status).toBe(200);
      const { data } = (await r.json()) as { data: Exchange & { futures_open_interest_usd: number | null } };
      // Binance's exchangeInfo lists 8 active spot markets and 5 derivatives (see the exchanges fixtures).
      expect([data.spot_pairs, data.futures_pairs]).toEqual([8, 5]);
      // Binance publishes open interest one market per call: not read, so unknown.
      expect(data.futures_open_interest_usd).toBeNull();
      expect(data.spot_tickers.map((t) => t.pair)).toContain('BTCUSDT');
      expect(data.futures_tickers.map((t) => t.pair)).toContain('BTCUSDT');
      // The list's volumes stay null: marketlens does not serve this venue's market data.
      expect(data.volume.total_24h_usd).toBeNull();
    });

    it('answers 503 when the venue cannot be read', async () => {
      const down = harness({}, undefined, {
        marketFor: (venue) =>
          createCcxtSource({
            venue,
            proxyUrl: 'http://127.0.0.1:9/',
            rateLimit: false,
            timeoutMs: 500,
            now: () => NOW,
          }),
      });
      const k = { 'x-api-key': await down.apiKey((await down.signup()).token) };
      const r = await down.request('/v1/exchanges/binance', { headers: k });
      expect(r.status).toBe(503);
      expect(((await r.json()) as { code: string }).code).toBe('ServiceUnavailable');
    });
  });
});
