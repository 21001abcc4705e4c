import type { MarketData } from '@marketlens/exchanges';
import { AppError } from '../platform/errors/app-error.js';

/** How much of the server one real venue may hold: calls in flight, calls waiting, time per call. */
export interface VenueLimits {
  concurrency: number;
  queue: number;
  timeoutMs: number;
}

/** Defaults for a venue read through the `connection` parameter. */
export const DEFAULT_VENUE_LIMITS: VenueLimits = { concurrency: 8, queue: 32, timeoutMs: 15_000 };

const busy = (venue: string) =>
  new AppError('ServiceUnavailable', `Market data from ${venue} is busy; retry later`, { 'retry-after': '1' });

/**
 * `market` behind a bulkhead: at most `concurrency` calls in flight and `queue` waiting (more are
 * refused at once with 503), and each call given up after `timeoutMs` (503), so a slow or hung
 * venue holds a bounded share of the server instead of every request that names it. A call given
 * up on keeps its slot until the venue answers, so a hung venue fills its own slots, not others'.
 */
export function guardVenue(market: MarketData, limits: VenueLimits = DEFAULT_VENUE_LIMITS): MarketData {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  const call = <T>(read: () => Promise<T>): Promise<T> => {
    if (inFlight >= limits.concurrency && waiting.length >= limits.queue) return Promise.reject(busy(market.venue));
    return new Promise<T>((resolve, reject) => {
      let done = false;
      // The deadline covers the wait for a slot and the call itself.
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        const i = waiting.indexOf(start);
        if (i >= 0) waiting.splice(i, 1);
        reject(new AppError('ServiceUnavailable', `Market data from ${market.venue} timed out; retry later`));
      }, limits.timeoutMs);
      function start(): void {
        // The slot frees when the venue answers, whatever the caller saw.
        let running: Promise<T>;
        try {
          running = read();
        } catch (err) {
          running = Promise.reject(err);
        }
        running.then(release, release);
        running.then(
          (value) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            resolve(value);
          },
          (err: unknown) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            reject(err);
          },
        );
      }
      if (inFlight < limits.concurrency) {
        inFlight++;
        start();
      } else {
        waiting.push(start);
      }
    });
  };
  const universe = (market as { universe?: unknown }).universe;
  return {
    // A simulated venue's own universe (see `universeOf`) stays visible through the guard.
    ...(universe === undefined ? {} : { universe }),
    venue: market.venue,
    candles: (request) => call(() => market.candles(request)),
    ticker: (request) => call(() => market.ticker(request)),
    fundingRate: (request) => call(() => market.fundingRate(request)),
    markets: (assetId) => call(() => market.markets(assetId)),
  };
}
