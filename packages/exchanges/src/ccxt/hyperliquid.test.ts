import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtAccountData } from './account-data.js';
import { createCcxtMarketData } from './market-data.js';
import { DAY, HOUR, NOW } from './testing/fixtures/common.js';
import { hyperliquidHistory, hyperliquidMarkets, hyperliquidRoutes, WALLET } from './testing/fixtures/hyperliquid.js';
import { readAllFills } from './testing/harness.js';
import { jsonBody, startVenueServer, type VenueServer } from './testing/venue-server.js';

let server: VenueServer;
const history = hyperliquidHistory();

beforeAll(async () => {
  server = await startVenueServer();
  server.routes(hyperliquidRoutes(history));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const common = () => ({
  venue: 'hyperliquid',
  proxyUrl: server.proxyUrl,
  markets: hyperliquidMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
const account = (walletAddress = WALLET) =>
  createCcxtAccountData({ ...common(), connection: 'conn-hl', credentials: { walletAddress } });

describe('hyperliquid: a wallet address is the whole credential', () => {
  it('format-checks the address before any venue call', async () => {
    for (const bad of [
      '0x123',
      '8c967e73e7b15087c42a10d344cff4c96d877f1d',
      `${WALLET}00`,
      '0xZZ967e73e7b15087c42a10d344cff4c96d877f1d',
    ]) {
      await expect(account(bad)).rejects.toMatchObject({
        code: 'invalid_credentials',
        message: expect.stringMatching(/^Invalid credentials: walletAddress/),
      });
    }
    await expect(createCcxtAccountData({ ...common(), connection: 'c', credentials: {} })).rejects.toMatchObject({
      message: 'Invalid credentials: walletAddress',
    });
    expect(server.requests).toEqual([]);
  });

  it('reads with the address alone: no signing key is asked for or sent', async () => {
    await (await account()).positions();
    const bodies = server.requests.map(jsonBody);
    expect(bodies.every((b) => b.user === WALLET)).toBe(true);
  });
});

describe('hyperliquid account data (real ccxt client, local venue)', () => {
  it('names perpetual positions by coin', async () => {
    expect(await (await account()).positions()).toEqual([
      {
        connection: 'conn-hl',
        pair: 'BTC',
        asset_id: 'bitcoin',
        market_type: 'derivatives',
        side: 'long',
        size: 0.1,
        entry_price: 60000,
        mark_price: 62000,
        margin: 620,
        leverage: 10,
        liquidation_price: 52000,
        unrealized_pnl: 200,
        settle: 'USDC',
        contract_type: 'linear',
        maintenance_margin: null,
        opened_at: null,
        updated_at: expect.any(Number),
      },
    ]);
  });

  it('reads the perp margin account and spot balances', async () => {
    const balances = await (await account()).balances();
    expect(balances.map((b) => [b.account, b.symbol, b.total])).toEqual([
      ['futures', 'USDC', 10500],
      ['spot', 'USDC', 14.625485],
      ['spot', 'HYPE', 25],
    ]);
    expect(balances[2]).toMatchObject({ asset_id: 'hyperliquid', used: 1.5 });
  });

  it('pages 2 000-fill answers forward without repeating fills that share a millisecond', async () => {
    const { fills, pages } = await readAllFills(await account(), NOW - 10 * DAY);
    expect(fills).toHaveLength(history.fills.length);
    expect(new Set(fills.map((f) => f.external_id)).size).toBe(history.fills.length);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(fills.find((f) => f.pair === 'ETH')).toMatchObject({ asset_id: 'ethereum', side: 'buy', amount: 0.01 });
    expect(fills.find((f) => f.side === 'sell')).toMatchObject({ realized_pnl: 1.2, fee: 0.27, fee_currency: 'USDC' });
  });

  it('honours a smaller page size', async () => {
    const a = await account();
    const first = await a.fills({ since: NOW - 10 * DAY, limit: 100 });
    expect(first.fills).toHaveLength(100);
    const second = await a.fills({ since: NOW - 10 * DAY, limit: 100, cursor: first.next_cursor ?? undefined });
    // The second answer starts at the boundary millisecond again; the fill already returned there is skipped.
    const all = [...first.fills, ...second.fills];
    expect(new Set(all.map((f) => f.external_id)).size).toBe(all.length);
    expect(second.fills.length).toBeGreaterThanOrEqual(97);
    expect(second.fills[0].time).toBeGreaterThanOrEqual(first.fills[99].time);
  });

  it('reads the position stop and a take-profit trigger; a resting entry is not protection', async () => {
    const orders = await (await account()).protectiveOrders();
    expect(orders.map((o) => [o.order_id, o.pair, o.kind, o.trigger_price, o.amount])).toEqual([
      ['7001', 'BTC', 'stop_loss', 55000, null],
      ['7002', 'BTC', 'take_profit', 70000, 0.05],
    ]);
  });

  it('sums hourly funding since open (positive usdc is received)', async () => {
    const opened = NOW - 5 * DAY;
    const funding = await (await account()).fundingSinceOpen('BTC', opened);
    const expected = -history.funding.filter((f) => f.time >= opened).reduce((s, f) => s + Number(f.delta.usdc), 0);
    expect(funding).toEqual({ pair: 'BTC', amount: expect.closeTo(expected, 9), settle: 'USDC' });
  });
});

describe('hyperliquid market data', () => {
  it('serves candles by coin, the ticker and the hourly funding rate', async () => {
    const md = await createCcxtMarketData(common());
    const series = await md.candles({
      asset_id: 'bitcoin',
      timeframe: 'h4',
      limit: 2,
      market_type: 'derivatives',
      end: NOW,
    });
    expect(series).toMatchObject({ pair: 'BTC', market_type: 'derivatives' });
    expect([...series.candles.time]).toEqual([NOW - 8 * HOUR, NOW - 4 * HOUR]);
    const snapshot = server.requests.map(jsonBody).find((b) => b.type === 'candleSnapshot');
    expect(snapshot?.req).toMatchObject({ coin: 'BTC', interval: '4h' });
    expect(await md.ticker({ asset_id: 'bitcoin', market_type: 'derivatives' })).toMatchObject({
      pair: 'BTC',
      last: 62001.5,
      bid: 62000,
      ask: 62003,
    });
    expect(await md.fundingRate({ asset_id: 'bitcoin' })).toMatchObject({
      pair: 'BTC',
      rate: 0.0000125,
      interval_hours: 1,
      mark_price: 62000,
    });
    expect(server.unmatched).toEqual([]);
  });
});
