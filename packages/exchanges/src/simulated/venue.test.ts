import type { Candles } from '@marketlens/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VenueError } from '../errors.js';
import { TIMEFRAME_MS, TIMEFRAMES, type Timeframe } from '../ports.js';
import { defaultUniverse, resolveInstrument } from '../universe/universe.js';
import { createSimulatedAccount, HISTORY_START } from './account.js';
import { type Bar, createSimModel, GENESIS } from './model.js';
import { type SimParams, simParams } from './params.js';
import { tradingParts } from './session.js';
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

const NEW_YORK = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  weekday: 'short',
  hour: 'numeric',
  minute: 'numeric',
});

/** New York wall clock of a time: weekday (0 Sunday) and minutes since midnight. */
function newYork(t: number): { weekday: number; minutes: number } {
  const f = NEW_YORK.formatToParts(t);
  const part = (type: string) => f.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(part('weekday'));
  return { weekday, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
}

/** Checks that `coarse` candles are exactly the aggregates of the `fine` candles inside them. */
function expectAggregated(coarse: Candles, fine: Candles, step: number): void {
  let j = 0;
  for (let i = 0; i < coarse.time.length; i++) {
    const start = coarse.time[i];
    if (start < fine.time[0]) continue; // before the finer window, or only partly inside it
    while (j < fine.time.length && fine.time[j] < start) j++;
    const j0 = j;
    let hi = Number.NEGATIVE_INFINITY;
    let lo = Number.POSITIVE_INFINITY;
    let vol = 0;
    while (j < fine.time.length && fine.time[j] < start + step) {
      hi = Math.max(hi, fine.high[j]);
      lo = Math.min(lo, fine.low[j]);
      vol += fine.volume[j];
      j++;
    }
    const at = new Date(start).toISOString();
    expect(j, `no finer candle in ${at}`).toBeGreaterThan(j0);
    expect([fine.open[j0], hi, lo, fine.close[j - 1]], at).toEqual([
      coarse.open[i],
      coarse.high[i],
      coarse.low[i],
      coarse.close[i],
    ]);
    expect(vol, at).toBeCloseTo(coarse.volume[i], 6);
  }
}

describe('simulated venue: a demo venue that looks like a market', () => {
  const venue = createSimulatedVenue({ now: () => NOW });
  const H8 = 8 * 3_600_000;

  it('centres funding near the usual 0.01% per 8 h, dispersed, sometimes negative', () => {
    const perps = venue.listMarkets().filter((m) => m.market_type === 'derivatives');
    const rates: number[] = [];
    const btc: number[] = [];
    for (const m of perps) {
      for (let k = 0; k < 3 * 90; k++) {
        const r = venue.fundingRateAt(m.pair, NOW - k * H8);
        if (r === null) continue;
        rates.push(r);
        if (m.pair === 'BTC/USDT:USDT') btc.push(r);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(rates.length).toBe(perps.length * 270);
    expect(mean(rates)).toBeGreaterThan(0.00005);
    expect(mean(rates)).toBeLessThan(0.00015);
    expect(mean(btc)).toBeGreaterThan(0.00005);
    expect(mean(btc)).toBeLessThan(0.00015);
    const negative = rates.filter((r) => r < 0).length / rates.length;
    expect(negative).toBeGreaterThan(0.02);
    expect(negative).toBeLessThan(0.3);
    // Dispersed: not pinned at the baseline, rarely beyond 0.1% per interval.
    const sd = Math.sqrt(mean(rates.map((r) => (r - mean(rates)) ** 2)));
    expect(sd).toBeGreaterThan(0.00003);
    expect(sd).toBeLessThan(0.0003);
    expect(rates.filter((r) => Math.abs(r) > 0.001).length / rates.length).toBeLessThan(0.01);
  });

  it('reports every 24 h volume in USD: base volume times the price in dollars', async () => {
    // Prices are in the quote currency for fx, in dollars for everything else (an on-chain pool
    // too, as on-chain sources report it).
    const usdOf: Record<string, () => number> = {
      JPY: () => 1 / (venue.priceAt('USD/JPY', NOW) ?? Number.NaN),
      CAD: () => 1 / (venue.priceAt('USD/CAD', NOW) ?? Number.NaN),
      CHF: () => 1 / (venue.priceAt('USD/CHF', NOW) ?? Number.NaN),
      GBP: () => venue.priceAt('GBP/USD', NOW) ?? Number.NaN,
    };
    const markets = new Map(venue.listMarkets().map((m) => [m.pair, m]));
    for (const t of await venue.tickers()) {
      const m = markets.get(t.pair);
      const fx = m?.asset_id?.startsWith('fx-') === true && m.market_type === 'spot';
      const usd = fx ? (usdOf[m.quote]?.() ?? 1) : 1;
      const volume = t.volume_24h ?? Number.NaN;
      const quoteUsd = t.quote_volume_usd ?? Number.NaN;
      if (volume === 0) {
        expect(quoteUsd, t.pair).toBe(0);
        continue;
      }
      const ratio = quoteUsd / (volume * t.last * usd);
      expect(ratio, t.pair).toBeGreaterThan(0.7);
      expect(ratio, t.pair).toBeLessThan(1.4);
    }
    const brett = await venue.ticker({ asset_id: 'onchain-base-brett' });
    expect(brett.pair).toBe('BRETT/WETH');
    expect(brett.quote_volume_usd ?? Number.POSITIVE_INFINITY).toBeLessThan(1e8);
  });

  it('trades stock spot in NYSE hours only, on every timeframe, with the clock change', async () => {
    for (const [timeframe, limit] of [
      ['m5', 3000],
      ['m15', 2000],
      ['h1', 2000],
    ] as const) {
      const s = await venue.candles({ asset_id: 'stock-aapl', timeframe, limit });
      expect(s.candles.time.length).toBe(limit);
      const step = TIMEFRAME_MS[timeframe];
      for (const t of s.candles.time) {
        const first = newYork(t);
        const last = newYork(t + step - 60_000);
        const at = `${timeframe} ${new Date(t).toISOString()}`;
        expect(first.weekday, at).toBeGreaterThanOrEqual(1);
        expect(first.weekday, at).toBeLessThanOrEqual(5);
        // The candle overlaps 09:30-16:00 New York time.
        expect(last.minutes, at).toBeGreaterThanOrEqual(9 * 60 + 30);
        expect(first.minutes, at).toBeLessThan(16 * 60);
      }
    }
    // A full session: 09:30-16:00 is 13:30-20:00 UTC in summer, 14:30-21:00 UTC in winter.
    const summer = await venue.candles({
      asset_id: 'stock-aapl',
      timeframe: 'm15',
      limit: 26,
      end: Date.UTC(2025, 6, 16),
    });
    expect([summer.candles.time[0], summer.candles.time[25]]).toEqual([
      Date.UTC(2025, 6, 15, 13, 30),
      Date.UTC(2025, 6, 15, 19, 45),
    ]);
    const winter = await venue.candles({
      asset_id: 'stock-aapl',
      timeframe: 'h1',
      limit: 7,
      end: Date.UTC(2025, 0, 16),
    });
    expect([...winter.candles.time]).toEqual([14, 15, 16, 17, 18, 19, 20].map((h) => Date.UTC(2025, 0, 15, h)));
    const daily = await venue.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 500 });
    for (const t of daily.candles.time)
      expect([0, 6], new Date(t).toISOString()).not.toContain(new Date(t).getUTCDay());
    // The tokenized perpetual trades around the clock.
    const perp = await venue.candles({
      asset_id: 'stock-aapl',
      timeframe: 'd1',
      limit: 14,
      market_type: 'derivatives',
    });
    expect(perp.candles.time.some((t) => new Date(t).getUTCDay() === 6)).toBe(true);
  });

  it('trades fx spot from Sunday 22:00 to Friday 22:00 UTC', async () => {
    const h1 = await venue.candles({ asset_id: 'fx-eurusd', timeframe: 'h1', limit: 2000 });
    for (const t of h1.candles.time) {
      const d = new Date(t);
      const at = d.toISOString();
      expect(d.getUTCDay(), at).not.toBe(6);
      if (d.getUTCDay() === 5) expect(d.getUTCHours(), at).toBeLessThan(22);
      if (d.getUTCDay() === 0) expect(d.getUTCHours(), at).toBeGreaterThanOrEqual(22);
    }
    // Five trading days a week: 120 hourly candles from Sunday 22:00 to Friday 22:00.
    const week = await venue.candles({
      asset_id: 'fx-eurusd',
      timeframe: 'h1',
      limit: 120,
      end: Date.UTC(2025, 10, 14, 22),
    });
    expect([week.candles.time[0], week.candles.time[119]]).toEqual([
      Date.UTC(2025, 10, 9, 22),
      Date.UTC(2025, 10, 14, 21),
    ]);
    const d1 = await venue.candles({ asset_id: 'fx-eurusd', timeframe: 'd1', limit: 300 });
    expect(d1.candles.time.some((t) => new Date(t).getUTCDay() === 6)).toBe(false);
  });

  it('keeps a session market consistent across timeframes', async () => {
    const end = Date.UTC(2025, 10, 17);
    for (const id of ['stock-aapl', 'fx-usdjpy']) {
      const m5 = await venue.candles({ asset_id: id, timeframe: 'm5', limit: 5000, end });
      const m15 = await venue.candles({ asset_id: id, timeframe: 'm15', limit: 2000, end });
      const h1 = await venue.candles({ asset_id: id, timeframe: 'h1', limit: 600, end });
      const h4 = await venue.candles({ asset_id: id, timeframe: 'h4', limit: 150, end });
      const d1 = await venue.candles({ asset_id: id, timeframe: 'd1', limit: 25, end });
      const w1 = await venue.candles({ asset_id: id, timeframe: 'w1', limit: 3, end });
      expectAggregated(m15.candles, m5.candles, TIMEFRAME_MS.m15);
      expectAggregated(h1.candles, m15.candles, TIMEFRAME_MS.h1);
      expectAggregated(h4.candles, h1.candles, TIMEFRAME_MS.h4);
      expectAggregated(d1.candles, h1.candles, TIMEFRAME_MS.d1);
      expectAggregated(w1.candles, d1.candles, TIMEFRAME_MS.w1);
    }
  });

  it('holds a closed market at its last close: ticker, prices and no fills', async () => {
    const saturday = Date.UTC(2025, 10, 22, 15);
    const weekend = createSimulatedVenue({ now: () => saturday });
    const d1 = await weekend.candles({ asset_id: 'stock-aapl', timeframe: 'd1', limit: 1 });
    expect(d1.candles.time[0]).toBe(Date.UTC(2025, 10, 21));
    const friday = d1.candles.close[0];
    const t = await weekend.ticker({ asset_id: 'stock-aapl' });
    expect(t.pair).toBe('AAPL/USD');
    expect(t.last).toBe(friday);
    expect(t.change_1h_pct).toBe(0);
    expect(weekend.priceAt('AAPL/USD', saturday)).toBe(friday);
    expect(weekend.isTrading('AAPL/USD', saturday)).toBe(false);
    expect(weekend.isTrading('AAPLX/USDT:USDT', saturday)).toBe(true);
    expect(weekend.isTrading('AAPL/USD', Date.UTC(2025, 10, 21, 14, 30))).toBe(true);
    expect(weekend.isTrading('AAPL/USD', Date.UTC(2025, 10, 21, 21))).toBe(false);
    const sunday = createSimulatedVenue({ now: () => Date.UTC(2025, 10, 23, 20) });
    expect((await sunday.ticker({ asset_id: 'stock-aapl' })).volume_24h).toBe(0);
    expect((await sunday.ticker({ asset_id: 'fx-eurusd' })).change_24h_pct).toBe(0);
    const fills = await createSimulatedAccount(venue, { connection: 'demo-1' }).fills({
      since: NOW - 60 * 86_400_000,
      limit: 500,
    });
    const aapl = fills.fills.filter((f) => f.pair === 'AAPL/USD');
    expect(aapl.length).toBeGreaterThan(0);
    for (const f of aapl) expect(venue.isTrading('AAPL/USD', f.time), new Date(f.time).toISOString()).toBe(true);
  });

  it('models open interest per perpetual and sums it for the catalog', async () => {
    const markets = venue.listMarkets();
    const perps = markets.filter((m) => m.market_type === 'derivatives');
    let sum = 0;
    for (const m of perps) {
      const oi = venue.openInterestAt(m.pair, NOW);
      expect(oi, m.pair).toBeGreaterThan(0);
      sum += oi ?? 0;
    }
    expect(venue.openInterestAt('BTC/USDT', NOW)).toBeNull();
    const btc = venue.openInterestAt('BTC/USDT:USDT', NOW) ?? 0;
    expect(btc).toBeGreaterThan(1e9);
    expect(btc).toBeLessThan(2e10);
    expect(await venue.summary()).toEqual({
      spot_pairs: markets.length - perps.length,
      futures_pairs: perps.length,
      open_interest_usd: sum,
    });
    // It moves with the clock, smoothly.
    const later = venue.openInterestAt('BTC/USDT:USDT', NOW + 3_600_000) ?? 0;
    expect(later).not.toBe(btc);
    expect(Math.abs(later / btc - 1)).toBeLessThan(0.05);
  });
});

const simulated: SimParams[] = defaultUniverse.assets.map(simParams).filter((p): p is SimParams => p !== null);
const freshModel = createSimModel(simulated);

/**
 * The candles of a spot market (no basis, no volume factor) built read by read from a model of
 * its own, the way the venue built every read before it kept finished candles.
 */
function uncachedSpot(assetId: string, timeframe: Timeframe, limit: number, end: number, t: number): Candles {
  const p = simulated.find((x) => x.id === assetId);
  if (p === undefined) throw new Error(assetId);
  const step = TIMEFRAME_MS[timeframe];
  const lastOpen = Math.floor((end - 1 - GENESIS) / step) * step + GENESIS;
  if (p.spotSession === 'always') return freshModel.candles(assetId, timeframe, lastOpen - (limit - 1) * step, end, t);
  const rows: Bar[] = [];
  const opens: number[] = [];
  for (let open = lastOpen; open >= GENESIS && rows.length < limit; open -= step) {
    let acc: Bar | null = null;
    for (const [a, b] of tradingParts(p.spotSession, open, open + step)) {
      const part = freshModel.aggregate(assetId, a, b, t);
      if (part === null) continue;
      acc =
        acc === null
          ? part
          : {
              open: acc.open,
              high: part.high > acc.high ? part.high : acc.high,
              low: part.low < acc.low ? part.low : acc.low,
              close: part.close,
              volume: acc.volume + part.volume,
            };
    }
    if (acc === null) continue;
    rows.unshift(acc);
    opens.unshift(open);
  }
  const round = (x: number): number => freshModel.round(assetId, x);
  return {
    time: Float64Array.from(opens),
    open: Float64Array.from(rows, (b) => round(b.open)),
    high: Float64Array.from(rows, (b) => round(b.high)),
    low: Float64Array.from(rows, (b) => round(b.low)),
    close: Float64Array.from(rows, (b) => round(b.close)),
    volume: Float64Array.from(rows, (b) => b.volume),
  };
}

/** Where two series differ, bit for bit (-0 is not 0); null when they are the same. */
function difference(a: Candles, b: Candles): string | null {
  for (const k of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) {
    if (a[k].length !== b[k].length) return `${k}: ${a[k].length} vs ${b[k].length} candles`;
    for (let i = 0; i < a[k].length; i++)
      if (!Object.is(a[k][i], b[k][i])) return `${k}[${i}]: ${a[k][i]} vs ${b[k][i]}`;
  }
  return null;
}

describe('simulated venue: repeated reads', () => {
  const markets = [
    { asset_id: 'bitcoin', market_type: 'spot' },
    { asset_id: 'bitcoin', market_type: 'derivatives' },
    { asset_id: 'stock-aapl', market_type: 'spot' },
    { asset_id: 'stock-aapl', market_type: 'derivatives' },
    { asset_id: 'fx-eurusd', market_type: 'spot' },
    { asset_id: 'fx-usdjpy', market_type: 'spot' },
  ] as const;
  const DAY = 86_400_000;
  // Reads of a few series per run, so that windows overlap: again, deeper, later, earlier.
  const read = fc.record({
    series: fc.nat({ max: 2 }),
    limit: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 4 },
      { arbitrary: fc.integer({ min: 495, max: 505 }), weight: 1 },
    ),
    // How many candles before now the window ends, when it does not end now.
    back: fc.option(fc.double({ min: 0, max: 60, noNaN: true }), { nil: undefined }),
    // The clock's move after the read.
    advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 900_000 }), fc.integer({ min: 0, max: 10 * DAY })),
  });
  const series = fc.record({
    market: fc.constantFrom(...markets),
    timeframe: fc.constantFrom(...TIMEFRAMES),
  });

  it('serves what a fresh venue and the model read by read serve, bit for bit, over any reads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(series, { minLength: 3, maxLength: 3 }),
        fc.array(read, { minLength: 1, maxLength: 10 }),
        async (pool, reads) => {
          const c = clock();
          // The default budget, and one so small that series are dropped and rebuilt all the time.
          const venues = [createSimulatedVenue({ now: c.now }), createSimulatedVenue({ now: c.now, candleCache: 600 })];
          for (const r of reads) {
            const { market, timeframe } = pool[r.series];
            const back = r.back === undefined ? undefined : Math.round(r.back * TIMEFRAME_MS[timeframe]);
            const request = {
              ...market,
              timeframe,
              limit: r.limit,
              ...(back === undefined ? {} : { end: c.now() - back }),
            };
            const want = (await createSimulatedVenue({ now: c.now }).candles(request)).candles;
            if (market.market_type === 'spot') {
              const spot = uncachedSpot(market.asset_id, timeframe, r.limit, request.end ?? c.now() + 1, c.now());
              expect(difference(want, spot)).toBeNull();
            }
            for (const venue of venues) {
              const got = (await venue.candles(request)).candles;
              expect(difference(got, want), JSON.stringify(request)).toBeNull();
              // What a caller does with its arrays is its own business.
              for (const col of Object.values(got)) col.fill(-1);
            }
            c.advance(r.advance);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('serves overlapping windows as the clock moves: deeper, later, across a candle close', async () => {
    const c = clock(Date.UTC(2025, 10, 21, 19, 58));
    const venue = createSimulatedVenue({ now: c.now });
    for (let k = 0; k < 12; k++) {
      for (const market of markets) {
        for (const timeframe of ['m5', 'h1', 'd1'] as const) {
          const request = { ...market, timeframe, limit: 100 + k };
          const got = (await venue.candles(request)).candles;
          const want = (await createSimulatedVenue({ now: c.now }).candles(request)).candles;
          expect(difference(got, want), `${k} ${JSON.stringify(request)}`).toBeNull();
        }
      }
      c.advance(61_000);
    }
  });
});
