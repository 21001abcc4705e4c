import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppDeps, AppEnv } from '../../env.js';
import { AppError } from '../../errors/app-error.js';
import { PlatformResponse } from './response.js';
import { weightOf } from './weights.js';

/** One key's window: its start and the units spent in it (mutated in place, never reallocated). */
interface Window {
  start: number;
  used: number;
}

/** Fixed-window weighted budget per key (the client IP), in memory, swept once per window. */
export class WeightedBudget {
  readonly #windows = new Map<string, Window>();
  #lastSweep = 0;
  /** When the window of the last {@link take} resets. */
  resetAt = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /**
   * Spends `weight` from the window of `key`: the units used after it, or `-1 - used` (nothing
   * spent) when it does not fit. Sets {@link resetAt}. No allocation once the key has a window.
   */
  take(key: string, weight: number, now: number): number {
    if (now - this.#lastSweep >= this.windowMs) this.#sweep(now);
    let w = this.#windows.get(key);
    if (w === undefined) {
      w = { start: now, used: 0 };
      this.#windows.set(key, w);
    } else if (now - w.start >= this.windowMs) {
      w.start = now;
      w.used = 0;
    }
    this.resetAt = w.start + this.windowMs;
    const used = w.used + weight;
    if (used > this.limit) return -1 - w.used;
    w.used = used;
    return used;
  }

  /** {@link take}, as a record: `allowed` false (and nothing spent) when over. */
  spend(key: string, weight: number, now: number): { allowed: boolean; used: number; resetAt: number } {
    const r = this.take(key, weight, now);
    return r >= 0
      ? { allowed: true, used: r, resetAt: this.resetAt }
      : { allowed: false, used: -1 - r, resetAt: this.resetAt };
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [k, w] of this.#windows) if (now - w.start >= this.windowMs) this.#windows.delete(k);
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
  #limitText = '';
  #windowText = '';
  readonly #weights = new WeakMap<RouterRoute, number>();

  /**
   * Spends the request's weight from the budget of `ip`, writes the headers; throws when over.
   * `weight` is the operation's, when resolved at registration; otherwise it is looked up from
   * the matched route.
   */
  spend(c: Context<AppEnv>, deps: AppDeps, ip: string, weight?: number): void {
    const { limit, windowMs } = deps.config.rateLimit;
    let budget = this.#budget;
    if (budget === null || budget.limit !== limit || budget.windowMs !== windowMs) {
      budget = this.#budget = new WeightedBudget(limit, windowMs);
      this.#limitText = String(limit);
      this.#windowText = String(Math.round(windowMs / 1000));
    }
    const now = deps.now();
    const taken = budget.take(ip, weight ?? matchedWeight(c, this.#weights), now);
    const used = taken >= 0 ? taken : -1 - taken;
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
    if (taken < 0) {
      throw new AppError('RateLimited', `Request budget of ${limit} units per ${windowMs / 1000} s is spent`, {
        'retry-after': String(Math.max(1, Math.ceil((budget.resetAt - now) / 1000))),
      });
    }
  }
}
