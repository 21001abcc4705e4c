import { describe, expect, it } from 'vitest';
import { VenueError } from '../errors.js';
import { resolveInstrument } from '../universe/universe.js';
import { createSimulatedAccount, HISTORY_START } from './account.js';
import { createSimulatedVenue, MAX_CANDLES } from './venue.js';

const NOW = Date.UTC(2025, 10, 21, 13, 37, 12, 345);

function clock(start = NOW): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

async function venueError(p: Promise<unknown>): Promise<VenueError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof VenueError) return e;
    throw e;
  }
  throw new Error('expected a VenueError');
}

describe('simulated venue: market data', () => {
  const venue = createSimulatedVenue({ now: () => NOW });

  it('serves 1,000 d1 candles ending with the live one', async () => {
    const s = await venue.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 1000 });
    expect(s).toMatchObject({ asset_id: 'bitcoin', venue: 'marketlens-sim', pair: 'BTC/USDT', market_type: 'spot' });
    expect(s.candles.time.length).toBe(1000);
    expect(s.candles.time[999]).toBe(Date.UTC(2025, 10, 21));
    expect(s.candles.close[999]).toBeGreaterThan(10_000);
  });

  it('serves a window ending before now', async () => {
    const end = Date.UTC(2024, 0, 10);
    const s = await venue.candles({ asset_id: 'ethereum', timeframe: 'h1', limit: 24, end });
    expect(s.candles.time[23]).toBe(end - 3_600_000);
    expect(s.candles.time[0]).toBe(end - 24 * 3_600_000);
  });

  it('falls back to derivatives for a stock listed only as a tokenized perpetual', async () => {
    const s = await venue.candles({ asset_id: 'stock-mstr', timeframe: 'h1', limit: 10, market_type: 'spot' });
    expect(s.market_type).toBe('derivatives');
    expect(s.pair).toBe('MSTRX/USDT:USDT');
    const markets = await venue.markets('stock-mstr');
    expect(markets.map((m) => m.market_type)).toEqual(['derivatives']);
    const aapl = await venue.markets('stock-aapl');
    expect(aapl.map((m) => m.pair)).toEqual(['AAPL/USD', 'AAPLX/USDT:USDT']);
  });

  it('serves the derivatives market on request, at a small basis and larger volume', async () => {
    const spot = await venue.candles({ asset_id: 'solana', timeframe: 'd1', limit: 5 });
    const perp = await venue.candles({ asset_id: 'solana', timeframe: 'd1', limit: 5, market_type: 'derivatives' });
    expect(perp.pair).toBe('SOL/USDT:USDT');
    const basis = perp.candles.close[2] / spot.candles.close[2] - 1;
    expect(Math.abs(basis)).toBeLessThan(0.003);
    expect(perp.candles.volume[2]).toBe(spot.candles.volume[2] * 4);
  });

  it('lists markets whose names map back to their asset', () => {
    const markets = venue.listMarkets();
    expect(markets.length).toBeGreaterThan(150);
    for (const m of markets) {
      if (m.asset_id?.startsWith('onchain-')) continue; // on-chain pools are named by the source, not matched by symbol
      expect(resolveInstrument(m.pair), m.pair).toBe(m.asset_id);
    }
    const classes = new Set(markets.map((m) => venue.universe.get(m.asset_id ?? '')?.asset_class));
    expect([...classes].sort()).toEqual(['coins', 'external', 'fx', 'stocks']);
  });

  it('quotes tickers with spread, changes and USD volume', async () => {
    const t = await venue.ticker({ asset_id: 'bitcoin' });
    expect(t.bid).not.toBeNull();
    expect(t.ask).not.toBeNull();
    expect(t.bid ?? 0).toBeLessThan(t.last);
    expect(t.ask ?? 0).toBeGreaterThan(t.last);
    for (const k of ['change_1h_pct', 'change_24h_pct', 'change_7d_pct', 'volume_24h', 'quote_volume_usd'] as const) {
      expect(Number.isFinite(t[k])).toBe(true);
    }
    expect(t.quote_volume_usd ?? 0).toBeGreaterThan(1e8);
    const jpy = await venue.ticker({ asset_id: 'fx-usdjpy' });
    expect(jpy.quote_volume_usd ?? 0).toBeGreaterThan(1e8);
    const usdt = await venue.ticker({ asset_id: 'tether' });
    expect(Math.abs(usdt.last - 1)).toBeLessThan(0.01);
    const all = await venue.tickers();
    expect(all.length).toBe(venue.listMarkets().length);
  });

  it('moves prices with the injected clock', async () => {
    const c = clock();
    const live = createSimulatedVenue({ now: c.now });
    const a = await live.ticker({ asset_id: 'ethereum' });
    c.advance(150_000);
    const b = await live.ticker({ asset_id: 'ethereum' });
    expect(b.time).toBe(a.time + 150_000);
    expect(b.last).not.toBe(a.last);
    const ca = await live.candles({ asset_id: 'ethereum', timeframe: 'm5', limit: 3 });
    expect(ca.candles.close[2]).toBe(b.last);
  });

  it('reports funding for perpetuals only', async () => {
    const f = await venue.fundingRate({ asset_id: 'bitcoin' });
    expect(f).not.toBeNull();
    expect(f?.pair).toBe('BTC/USDT:USDT');
    expect(Math.abs(f?.rate ?? 1)).toBeLessThan(0.0076);
    expect(f?.interval_hours).toBe(8);
    expect((f?.next_funding_time ?? 0) - NOW).toBeLessThanOrEqual(8 * 3_600_000);
    expect(await venue.fundingRate({ asset_id: 'tether' })).toBeNull();
    // Funding varies across intervals.
    const rates = new Set<number | null>();
    for (let k = 0; k < 30; k++) rates.add(venue.fundingRateAt('BTC/USDT:USDT', NOW - k * 8 * 3_600_000));
    expect(rates.size).toBeGreaterThan(10);
  });

  it('answers unknown assets, unknown markets and bad requests with typed errors', async () => {
    expect((await venueError(venue.candles({ asset_id: 'nope', timeframe: 'd1', limit: 5 }))).code).toBe(
      'unknown_asset',
    );
    expect((await venueError(venue.markets('nope'))).code).toBe('unknown_asset');
    expect((await venueError(venue.ticker({ asset_id: 'bitcoin', pair: 'ETH/USDT' }))).code).toBe('unknown_market');
    expect(
      (await venueError(venue.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: MAX_CANDLES + 1 }))).code,
    ).toBe('bad_request');
    expect((await venueError(venue.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 0 }))).retryable).toBe(false);
  });
});

describe('simulated venue: demo account', () => {
  const venue = createSimulatedVenue({ now: () => NOW });
  const account = createSimulatedAccount(venue, { connection: 'demo-1' });

  it('has positions, one on an instrument that maps to no asset', async () => {
    const positions = await account.positions();
    expect(positions.length).toBe(6);
    const unmapped = positions.filter((p) => p.asset_id === null);
    expect(unmapped.map((p) => p.pair)).toEqual(['FARTCOIN/USDT:USDT']);
    expect(unmapped[0].mark_price).toBeNull();
    expect(unmapped[0].unrealized_pnl).toBeNull();
    const btc = positions.find((p) => p.pair === 'BTC/USDT:USDT');
    expect(btc).toMatchObject({ asset_id: 'bitcoin', side: 'long', size: 0.25, leverage: 5, connection: 'demo-1' });
    expect(btc?.opened_at ?? NOW).toBeLessThan(NOW);
    expect(btc?.entry_price).toBe(venue.priceAt('BTC/USDT:USDT', btc?.opened_at ?? 0));
    expect(btc?.liquidation_price ?? 0).toBeLessThan(btc?.entry_price ?? 0);
    expect(positions.find((p) => p.pair === 'AAPLX/USDT:USDT')?.asset_id).toBe('stock-aapl');
    expect(positions.find((p) => p.pair === 'EUR/USDT:USDT')?.asset_id).toBe('fx-eurusd');
  });

  it('has balances keyed on (symbol, account), one in a currency that maps to no asset', async () => {
    const balances = await account.balances();
    const keys = balances.map((b) => `${b.symbol}/${b.account}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const b of balances) expect(b.symbol).toBe(b.symbol.toUpperCase());
    expect(balances.filter((b) => b.asset_id === null).map((b) => b.symbol)).toEqual(['HMSTR']);
    expect(balances.find((b) => b.symbol === 'BTC')?.asset_id).toBe('bitcoin');
  });

  it('pages fills without gaps or duplicates, oldest first', async () => {
    const since = NOW - 40 * 86_400_000;
    const whole = await account.fills({ since, limit: 500 });
    expect(whole.next_cursor).toBeNull();
    expect(whole.fills.length).toBeGreaterThan(100);
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const page = await account.fills({ since, limit: 17, cursor });
      paged.push(...page.fills.map((f) => f.external_id));
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    expect(paged).toEqual(whole.fills.map((f) => f.external_id));
    for (let i = 1; i < whole.fills.length; i++)
      expect(whole.fills[i].time).toBeGreaterThanOrEqual(whole.fills[i - 1].time);
    expect(whole.fills.every((f) => f.time >= since && f.time <= NOW)).toBe(true);
    const kinds = new Set(whole.fills.map((f) => f.market_type));
    expect([...kinds].sort()).toEqual(['derivatives', 'spot']);
    expect(whole.fills.some((f) => f.asset_id === null)).toBe(true);
    expect(whole.fills.some((f) => f.realized_pnl !== null && f.realized_pnl !== 0)).toBe(true);
  });

  it('never rewrites history as the clock moves', async () => {
    const c = clock();
    const v = createSimulatedVenue({ now: c.now });
    const acc = createSimulatedAccount(v, { connection: 'demo-1' });
    const since = HISTORY_START;
    const before = await acc.fills({ since: NOW - 20 * 86_400_000, limit: 500 });
    c.advance(5 * 86_400_000);
    const after = await acc.fills({ since: NOW - 20 * 86_400_000, limit: 500 });
    expect(after.fills.slice(0, before.fills.length)).toEqual(before.fills);
    expect(after.fills.length).toBeGreaterThan(before.fills.length);
    expect(since).toBeLessThan(NOW);
  });

  it('has protective orders with an unset leg left out', async () => {
    const orders = await account.protectiveOrders();
    const btc = orders.filter((o) => o.pair === 'BTC/USDT:USDT');
    expect(btc.map((o) => o.kind).sort()).toEqual(['stop_loss', 'take_profit']);
    expect(btc.every((o) => o.side === 'sell')).toBe(true);
    const eth = orders.filter((o) => o.pair === 'ETH/USDT:USDT');
    expect(eth.map((o) => [o.kind, o.side])).toEqual([['stop_loss', 'buy']]);
    const positions = await account.positions();
    const ethPos = positions.find((p) => p.pair === 'ETH/USDT:USDT');
    expect(eth[0].trigger_price).toBeGreaterThan(ethPos?.entry_price ?? Number.POSITIVE_INFINITY);
  });

  it('reports funding since open, null for the instrument it cannot price', async () => {
    const positions = await account.positions();
    const btc = positions.find((p) => p.pair === 'BTC/USDT:USDT');
    const f = await account.fundingSinceOpen('BTC/USDT:USDT', btc?.opened_at ?? NOW);
    expect(f.settle).toBe('USDT');
    expect(Number.isFinite(f.amount)).toBe(true);
    expect(f.amount).not.toBe(0);
    expect((await account.fundingSinceOpen('FARTCOIN/USDT:USDT', NOW - 86_400_000)).amount).toBeNull();
  });
});
