import { createSimulatedVenue, type MarketData } from '@marketlens/exchanges';
import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { guardVenue } from './venue-guard.js';

/** A venue whose every call waits until `open()` (or forever). */
function slowVenue() {
  const sim = createSimulatedVenue({ now: () => Date.UTC(2026, 0, 15) });
  let gate: () => void = () => {};
  let opened = new Promise<void>((r) => {
    gate = r;
  });
  let calls = 0;
  const wait = async <T>(f: () => Promise<T>) => {
    calls++;
    await opened;
    return f();
  };
  const market: MarketData = {
    venue: 'binance',
    candles: (r) => wait(() => sim.candles(r)),
    ticker: (r) => wait(() => sim.ticker(r)),
    fundingRate: (r) => wait(() => sim.fundingRate(r)),
    markets: (a) => wait(() => sim.markets(a)),
  };
  return {
    market,
    calls: () => calls,
    open: () => gate(),
    reset: () => {
      opened = new Promise<void>((r) => {
        gate = r;
      });
    },
  };
}

describe('guardVenue', () => {
  it('caps calls in flight, bounds the queue and refuses the rest at once with 503', async () => {
    const v = slowVenue();
    const g = guardVenue(v.market, { concurrency: 2, queue: 3, timeoutMs: 60_000 });
    const results = Array.from({ length: 10 }, () =>
      g.markets('bitcoin').then(
        () => 'ok',
        (e: unknown) => e,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(v.calls()).toBe(2); // only the slots reached the venue
    const settled = await Promise.race([Promise.all(results.slice(5)), new Promise((r) => setTimeout(r, 50))]);
    expect(settled).toHaveLength(5); // the five beyond slots + queue were refused without waiting
    for (const e of settled as unknown[]) expect(e).toMatchObject({ code: 'ServiceUnavailable', status: 503 });
    v.open();
    expect(await Promise.all(results.slice(0, 5))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(v.calls()).toBe(5);
  });

  it('gives up on a hung venue after the timeout, and the hung call keeps only its own slot', async () => {
    const v = slowVenue();
    const g = guardVenue(v.market, { concurrency: 1, queue: 0, timeoutMs: 30 });
    await expect(g.markets('bitcoin')).rejects.toMatchObject({ code: 'ServiceUnavailable' });
    await expect(g.markets('bitcoin')).rejects.toMatchObject({ message: /busy/ }); // slot still held
    v.open();
    await new Promise((r) => setTimeout(r, 5));
    expect((await g.markets('bitcoin')).length).toBeGreaterThan(0);
  });

  it('keeps the server answering other requests while a named venue hangs', async () => {
    const v = slowVenue();
    const h = harness({ venueLimits: { concurrency: 2, queue: 2, timeoutMs: 200 } }, undefined, {
      marketFor: () => v.market,
    });
    const key = await h.apiKey((await h.signup()).token);
    const headers = { 'x-api-key': key };
    const started = Date.now();
    const hung = await Promise.all(
      Array.from({ length: 8 }, () => h.request('/v2/analysis/bitcoin/markets?connection=binance', { headers })),
    );
    expect(hung.map((r) => r.status).every((s) => s === 503)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    const other = await h.request('/v2/analysis/bitcoin/markets', { headers });
    expect(other.status).toBe(200);
    v.open();
  });
});
