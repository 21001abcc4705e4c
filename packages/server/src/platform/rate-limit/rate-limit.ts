import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppDeps, AppEnv } from '../deps.js';
import { AppError } from '../errors/app-error.js';
import { PlatformResponse } from './response.js';
import { weightOf } from './weights.js';

/**
 * One key's admitted requests of the last window, oldest first: a ring of arrival times and
 * weights (requests of the same millisecond share an entry) and their sum. It grows by doubling
 * and holds at most one entry per admitted request of the window, so its size follows the
 * traffic actually served, never the traffic refused.
 */
interface Log {
  times: Float64Array;
  weights: Float64Array;
  head: number;
  size: number;
  used: number;
}

const INITIAL_ENTRIES = 8;

/**
 * Sliding-window weighted budget per key (the client IP), in memory: a request of weight `w` at
 * `now` is admitted when the units admitted in `(now - windowMs, now]` plus `w` stay within
 * `limit`. Any span of `windowMs` therefore admits at most `limit` units, at a window boundary too
 * (a fixed window admits twice the limit across one), and a steady client under the rate is never
 * refused (a token bucket or GCRA with a full-window burst would admit up to twice the limit in
 * one window). Exact, not an estimate: the log keeps each admitted request until it leaves the
 * window. Keys idle for a window are swept once per window.
 */
export class WeightedBudget {
  readonly #logs = new Map<string, Log>();
  #lastSweep = 0;
  /** When the last refused {@link take} would fit: the time enough of its key's units leave the window. */
  retryAt = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Keys held (their logs): what the budget costs in memory; an idle key is dropped within two windows. */
  get keys(): number {
    return this.#logs.size;
  }

  /**
   * Spends `weight` from the budget of `key`: the units used in the window after it, or
   * `-1 - used` (nothing spent) when it does not fit, then {@link retryAt} is set. No allocation
   * once the key's log has room.
   */
  take(key: string, weight: number, now: number): number {
    if (now - this.#lastSweep >= this.windowMs) this.#sweep(now);
    let log = this.#logs.get(key);
    if (log === undefined) {
      log = {
        times: new Float64Array(INITIAL_ENTRIES),
        weights: new Float64Array(INITIAL_ENTRIES),
        head: 0,
        size: 0,
        used: 0,
      };
      this.#logs.set(key, log);
    } else {
      this.#expire(log, now - this.windowMs);
    }
    const used = log.used + weight;
    if (used > this.limit) {
      this.retryAt = this.#fitsAt(log, weight);
      return -1 - log.used;
    }
    log.used = used;
    const cap = log.times.length;
    if (log.size > 0) {
      const last = (log.head + log.size - 1) % cap;
      if (log.times[last] === now) {
        log.weights[last] += weight;
        return used;
      }
    }
    if (log.size === cap) this.#grow(log);
    const at = (log.head + log.size) % log.times.length;
    log.times[at] = now;
    log.weights[at] = weight;
    log.size++;
    return used;
  }

  /** {@link take}, as a record: `allowed` false (nothing spent, `retryAt` set) when over. */
  spend(key: string, weight: number, now: number): { allowed: boolean; used: number; retryAt: number } {
    const r = this.take(key, weight, now);
    return r >= 0 ? { allowed: true, used: r, retryAt: now } : { allowed: false, used: -1 - r, retryAt: this.retryAt };
  }

  /** Drops the entries at or before `horizon` (they left the window). */
  #expire(log: Log, horizon: number): void {
    const cap = log.times.length;
    while (log.size > 0 && log.times[log.head] <= horizon) {
      log.used -= log.weights[log.head];
      log.head = (log.head + 1) % cap;
      log.size--;
    }
    if (log.size === 0) log.used = 0;
  }

  /** When enough of the oldest entries leave the window for `weight` to fit (a window away if it never fits). */
  #fitsAt(log: Log, weight: number): number {
    const cap = log.times.length;
    let used = log.used;
    for (let i = 0; i < log.size; i++) {
      const at = (log.head + i) % cap;
      used -= log.weights[at];
      if (used + weight <= this.limit) return log.times[at] + this.windowMs;
    }
    const newest = log.size > 0 ? log.times[(log.head + log.size - 1) % cap] : 0;
    return newest + this.windowMs;
  }

  #grow(log: Log): void {
    const cap = log.times.length;
    const times = new Float64Array(cap * 2);
    const weights = new Float64Array(cap * 2);
    for (let i = 0; i < log.size; i++) {
      times[i] = log.times[(log.head + i) % cap];
      weights[i] = log.weights[(log.head + i) % cap];
    }
    log.times = times;
    log.weights = weights;
    log.head = 0;
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    const horizon = now - this.windowMs;
    for (const [k, log] of this.#logs) {
      if (log.size === 0 || log.times[(log.head + log.size - 1) % log.times.length] <= horizon) this.#logs.delete(k);
    }
  }
}

/** The Node response @hono/node-server passes as `c.env.outgoing` (absent under app.request). */
interface NodeBindings {
  outgoing?: { headersSent: boolean; setHeader(name: string, value: string): unknown };
}

type RouterRoute = ReturnType<typeof matchedRoutes>[number];

/** A route's path in hono syntax (`{key_id}` -> `:key_id`), as @hono/zod-openapi registers it. */
export function honoPath(openapiPath: string): string {
  return openapiPath.replaceAll(/\/{(.+?)}/g, '/:$1');
}

/**
 * Weight of the request's operation when it was not resolved at registration: the last matched
 * route that is not `ALL` (middleware), resolved against the weight table once per route and
 * remembered; unmatched requests (404) are weighed by their path.
 */
function matchedWeight(c: Context<AppEnv>, memo: WeakMap<RouterRoute, number>): number {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const r = routes[i];
    if (r.method === 'ALL') continue;
    let w = memo.get(r);
    if (w === undefined) {
      w = weightOf(r.method, r.path);
      memo.set(r, w);
    }
    return w;
  }
  return weightOf(c.req.method, c.req.path);
}

/** x-ratelimit-* on every response; 429 `RateLimited` with retry-after once the budget is spent. */
export class RateLimiter {
  #budget: WeightedBudget | null = null;
  #limit = -1;
  #windowMs = -1;
  #limitText = '';
  #windowText = '';
  readonly #weights = new WeakMap<RouterRoute, number>();

  /**
   * Spends the request's weight from the budget of `ip`, writes the headers; throws when over.
   * `weight` is the operation's, when resolved at registration; otherwise it is looked up from
   * the matched route. With shared state (Redis) the budget is every instance's and the result
   * a promise (rejecting with 503 `ServiceUnavailable` while Redis is unreachable); in process it
   * is synchronous.
   */
  spend(c: Context<AppEnv>, deps: AppDeps, ip: string, weight?: number): Promise<void> | undefined {
    const { limit, windowMs } = deps.config.rateLimit;
    if (this.#limit !== limit || this.#windowMs !== windowMs) {
      this.#limit = limit;
      this.#windowMs = windowMs;
      this.#budget = null;
      this.#limitText = String(limit);
      this.#windowText = String(Math.round(windowMs / 1000));
    }
    const now = deps.now();
    const w = weight ?? matchedWeight(c, this.#weights);
    if (deps.shared !== undefined) {
      return deps.shared
        .budget(limit, windowMs)
        .spend(ip, w, now)
        .then((r) => this.#answer(c, r.allowed, r.used, r.retryAt, now));
    }
    let budget = this.#budget;
    if (budget === null) budget = this.#budget = new WeightedBudget(limit, windowMs);
    const taken = budget.take(ip, w, now);
    this.#answer(c, taken >= 0, taken >= 0 ? taken : -1 - taken, budget.retryAt, now);
    return undefined;
  }

  /** Writes the headers of `used` units; throws 429 when the request was not admitted. */
  #answer(c: Context<AppEnv>, admitted: boolean, used: number, retryAt: number, now: number): void {
    const limit = this.#limit;
    const usedText = `${used}`;
    const remainingText = used >= limit ? '0' : `${limit - used}`;
    const out = (c.env as NodeBindings | undefined)?.outgoing;
    if (out instanceof PlatformResponse) {
      // The marketlens server: the values join the record the response is written with.
      out.rateLimitHeaders = {
        'x-ratelimit-limit': this.#limitText,
        'x-ratelimit-remaining': remainingText,
        'x-ratelimit-used': usedText,
        'x-ratelimit-window': this.#windowText,
      };
    } else if (out !== undefined && !out.headersSent) {
      // Another Node server: onto the Node response, which merges them into whatever the app
      // answers (at a cost, see PlatformResponse). Through hono's c.header every response would
      // carry a WHATWG Headers object instead, which on a trivial route costs as much as the route.
      out.setHeader('x-ratelimit-limit', this.#limitText);
      out.setHeader('x-ratelimit-remaining', remainingText);
      out.setHeader('x-ratelimit-used', usedText);
      out.setHeader('x-ratelimit-window', this.#windowText);
    } else {
      c.header('x-ratelimit-limit', this.#limitText);
      c.header('x-ratelimit-remaining', remainingText);
      c.header('x-ratelimit-used', usedText);
      c.header('x-ratelimit-window', this.#windowText);
    }
    if (!admitted) {
      throw new AppError('RateLimited', `Request budget of ${limit} units per ${this.#windowMs / 1000} s is spent`, {
        'retry-after': String(Math.max(1, Math.ceil((retryAt - now) / 1000))),
      });
    }
  }
}
