import { VenueError } from '../errors.js';
import type { MarketSource } from './source.js';

/** How calls to one source are bounded. */
export interface SourceGuardOptions {
  /** A call slower than this fails with `timeout`; default 10 000 ms. */
  timeoutMs?: number;
  /** Further attempts of a retryable failure; default 2. */
  retries?: number;
  /** First backoff delay, doubled per attempt with full jitter; default 250 ms. */
  backoffBaseMs?: number;
  /** Largest backoff delay; default 4 000 ms. A `retry-after` above it fails the call at once. */
  backoffMaxMs?: number;
  /** Consecutive failed calls that open the circuit; default 5. */
  breakerFailures?: number;
  /** How long an open circuit refuses calls before one trial call; default 30 000 ms. */
  breakerCooldownMs?: number;
  /** Calls started per second at most (a token bucket of one second); default unlimited. */
  ratePerSecond?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
  /** Waits; default `setTimeout` (tests pass an instant one). */
  sleep?: (ms: number) => Promise<void>;
  /** Random numbers in [0, 1) for the jitter; default `Math.random`. */
  random?: () => number;
  /** Told about every upstream call: its outcome and duration. */
  onCall?: (event: UpstreamCall) => void;
}

/** One upstream call as the guard saw it. */
export interface UpstreamCall {
  source: string;
  method: string;
  outcome: 'ok' | 'error' | 'timeout' | 'rejected';
  ms: number;
}

/** The circuit of a source: `closed` (calls go through), `open` (refused), `half-open` (one trial). */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** A guarded source, with its health. */
export interface GuardedSource extends MarketSource {
  /** Circuit state and the time of the last successful call (ms UTC, null: none yet). */
  health(): { breaker: BreakerState; last_success_at: number | null; consecutive_failures: number };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Wraps a source so that every upstream call has a deadline, retryable failures (rate limits,
 * timeouts, 5xx, network) are retried with exponential backoff and full jitter (honouring a
 * venue's `retry-after` when it is short), calls are spaced to a rate, and a circuit breaker stops
 * calling a source that keeps failing, so that a dead upstream costs nothing per request and the
 * caller falls back to stored data at once. Non-retryable failures (unknown asset) pass through.
 */
export function guardSource(source: MarketSource, options: SourceGuardOptions = {}): GuardedSource {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 2;
  const baseMs = options.backoffBaseMs ?? 250;
  const maxMs = options.backoffMaxMs ?? 4_000;
  const breakerFailures = options.breakerFailures ?? 5;
  const cooldownMs = options.breakerCooldownMs ?? 30_000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  let failures = 0;
  let openedAt: number | null = null;
  let trial = false;
  let lastSuccess: number | null = null;
  // Token bucket: `tokens` calls may start now; refilled at `ratePerSecond`.
  const rate = options.ratePerSecond;
  let tokens = rate ?? 0;
  let refilledAt = now();

  const state = (): BreakerState => {
    if (openedAt === null) return 'closed';
    return now() - openedAt >= cooldownMs ? 'half-open' : 'open';
  };

  async function takeToken(): Promise<void> {
    if (rate === undefined) return;
    for (;;) {
      const t = now();
      tokens = Math.min(rate, tokens + ((t - refilledAt) / 1000) * rate);
      refilledAt = t;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - tokens) / rate) * 1000));
    }
  }

  function withDeadline<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new VenueError('timeout', `${source.source} did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }

  async function once<T>(method: string, run: () => Promise<T>): Promise<T> {
    const s = state();
    if (s === 'open' || (s === 'half-open' && trial)) {
      options.onCall?.({ source: source.source, method, outcome: 'rejected', ms: 0 });
      throw new VenueError('network', `${source.source} is failing; calls are paused for a while`, {
        venue: source.venue,
        retryAfterMs: openedAt === null ? cooldownMs : Math.max(0, cooldownMs - (now() - openedAt)),
      });
    }
    if (s === 'half-open') trial = true;
    await takeToken();
    const started = now();
    try {
      const value = await withDeadline(run());
      options.onCall?.({ source: source.source, method, outcome: 'ok', ms: now() - started });
      failures = 0;
      openedAt = null;
      lastSuccess = now();
      return value;
    } catch (err) {
      const venueError = err instanceof VenueError ? err : null;
      options.onCall?.({
        source: source.source,
        method,
        outcome: venueError?.code === 'timeout' ? 'timeout' : 'error',
        ms: now() - started,
      });
      // Only failures of the source count against it; an unknown asset is a correct answer.
      if (venueError === null || venueError.retryable) {
        failures++;
        if (failures >= breakerFailures || s === 'half-open') openedAt = now();
      }
      throw err instanceof Error ? err : new VenueError('network', String(err), { venue: source.venue });
    } finally {
      if (s === 'half-open') trial = false;
    }
  }

  async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(method, run);
      } catch (err) {
        if (!(err instanceof VenueError) || !err.retryable || attempt >= retries || state() !== 'closed') throw err;
        const backoff = random() * Math.min(maxMs, baseMs * 2 ** attempt);
        if (err.retryAfterMs !== undefined && err.retryAfterMs > maxMs) throw err;
        await sleep(Math.max(backoff, err.retryAfterMs ?? 0));
      }
    }
  }

  return {
    source: source.source,
    venue: source.venue,
    candles: (request) => call('candles', () => source.candles(request)),
    ticker: (request) => call('ticker', () => source.ticker(request)),
    fundingRate: (request) => call('fundingRate', () => source.fundingRate(request)),
    markets: (asset_id) => call('markets', () => source.markets(asset_id)),
    listAssets: () => call('listAssets', () => source.listAssets()),
    health: () => ({ breaker: state(), last_success_at: lastSuccess, consecutive_failures: failures }),
  };
}
