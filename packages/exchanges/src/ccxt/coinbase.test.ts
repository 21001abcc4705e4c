import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtAccountData } from './account-data.js';
import { createCcxtMarketData } from './market-data.js';
import { coinbaseFailures, coinbaseHistory, coinbaseMarkets, coinbaseRoutes } from './testing/fixtures/coinbase.js';
import { DAY, HOUR, NOW } from './testing/fixtures/common.js';
import { readAllFills } from './testing/harness.js';
import { startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;
const history = coinbaseHistory();
// A CDP API key: the key name and an EC (P-256) private key; ccxt signs every request with it (ES256 JWT).
const secret = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  .privateKey.export({ type: 'sec1', format: 'pem' })
  .toString();
const credentials = { apiKey: 'organizations/org-1/apiKeys/key-1', secret };

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(coinbaseRoutes(history));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const common = () => ({
  venue: 'coinbase',
  proxyUrl: server.proxyUrl,
  markets: coinbaseMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
const account = () => createCcxtAccountData({ ...common(), connection: 'conn-cb', credentials });

describe('coinbase account data (real ccxt client, local venue)', () => {
  it('signs requests with a bearer JWT', async () => {
    await (await account()).balances();
    const auth = server.requests[0]?.headers.authorization ?? '';
    expect(auth).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('reads available and held amounts', async () => {
    const balances = await (await account()).balances();
    expect(balances.map((b) => [b.symbol, b.total, b.free, b.used])).toEqual([
      ['BTC', 0.3, 0.25, 0.05],
      ['USD', 1500.25, 1500.25, 0],
    ]);
  });

  it('reads US futures positions from their raw fields (ccxt parses only the INTX shape)', async () => {
    const positions = await (await account()).positions();
    expect(positions).toEqual([
      {
        connection: 'conn-cb',
        pair: 'BIP-20DEC30-CDE',
        asset_id: 'bitcoin',
        market_type: 'derivatives',
        side: 'long',
        size: 0.02,
        entry_price: 60000,
        mark_price: 62000,
        margin: null,
        leverage: null,
        liquidation_price: null,
        unrealized_pnl: 40,
        settle: 'USD',
        contract_type: 'linear',
        maintenance_margin: null,
        opened_at: null,
        updated_at: NOW,
      },
    ]);
  });

  it('pages fills newest-first', async () => {
    const { fills } = await readAllFills(await account(), NOW - 10 * DAY);
    expect(fills).toHaveLength(history.fills.length);
    expect(new Set(fills.map((f) => f.external_id)).size).toBe(history.fills.length);
    expect(fills.find((f) => f.external_id === 'trade-5')).toMatchObject({
      pair: 'ETH-USD',
      asset_id: 'ethereum',
      amount: 0.5,
      fee: 0.366,
    });
  });

  it('reads the stop on the futures position; Coinbase reports no funding', async () => {
    const a = await account();
    expect(await a.protectiveOrders()).toEqual([
      {
        connection: 'conn-cb',
        order_id: 'stop-1',
        pair: 'BIP-20DEC30-CDE',
        side: 'sell',
        kind: 'stop_loss',
        trigger_price: 55000,
        amount: 0.02,
      },
    ]);
    expect((await a.fundingSinceOpen('BIP-20DEC30-CDE', NOW - DAY)).amount).toBeNull();
  });

  it('an account without US derivatives has no positions', async () => {
    server.override({
      method: 'GET',
      host: 'api.coinbase.com',
      path: '/api/v3/brokerage/cfm/positions',
      reply: () => ({
        status: 403,
        body: { error: 'PERMISSION_DENIED', message: 'Futures trading is not enabled', error_details: '' },
      }),
    });
    expect(await (await account()).positions()).toEqual([]);
  });
});

describe('coinbase market data', () => {
  it('builds 4h candles from hourly ones (Coinbase has no 4h granularity)', async () => {
    const md = await createCcxtMarketData(common());
    const h4 = await md.candles({ asset_id: 'bitcoin', timeframe: 'h4', limit: 2, end: NOW });
    expect([...h4.candles.time]).toEqual([NOW - 8 * HOUR, NOW - 4 * HOUR]);
    const hourly = await md.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 4, end: NOW });
    expect(h4.candles.open[1]).toBe(hourly.candles.open[0]);
    expect(h4.candles.close[1]).toBe(hourly.candles.close[3]);
    expect(h4.candles.high[1]).toBe(Math.max(...hourly.candles.high));
    expect(h4.candles.volume[1]).toBeCloseTo(
      hourly.candles.volume.reduce((a, b) => a + b, 0),
      9,
    );
    const granularities = server.requests.map((r) => r.url.searchParams.get('granularity'));
    expect(granularities).not.toContain('FOUR_HOUR');
  });

  it('serves the ticker', async () => {
    const md = await createCcxtMarketData(common());
    expect(await md.ticker({ asset_id: 'bitcoin' })).toMatchObject({ pair: 'BTC-USD', last: 61995.5 });
  });
});

describe('coinbase failures', () => {
  it('maps a rejected key and rate limiting', async () => {
    const path = '/api/v3/brokerage/accounts';
    server.override({ method: 'GET', host: 'api.coinbase.com', path, reply: () => coinbaseFailures.badKey });
    await expect((await account()).balances()).rejects.toMatchObject({
      code: 'authentication_failed',
      message: 'Coinbase rejected the API key: Unauthorized',
    });
    server.reset();
    server.override({ method: 'GET', host: 'api.coinbase.com', path, reply: () => coinbaseFailures.rateLimit });
    await expect((await account()).balances()).rejects.toMatchObject({ code: 'rate_limited' });
    server.reset();
    server.override({ method: 'GET', host: 'api.coinbase.com', path, reply: () => coinbaseFailures.maintenance });
    await expect((await account()).balances()).rejects.toMatchObject({ code: 'maintenance' });
  });
});
