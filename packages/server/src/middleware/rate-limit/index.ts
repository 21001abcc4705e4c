import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppDeps, AppEnv } from '../../env.js';
import { AppError } from '../../errors/app-error.js';
import { weightOf } from './weights.js';

interface Window {
  start: number;
  used: number;
}

/** Fixed-window weighted budget per key (the client IP), in memory, swept once per window. */
export class WeightedBudget {
  readonly #windows = new Map<string, Window>();
  #lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Spends `weight`; returns the state after, with `allowed` false (and nothing spent) if over. */
  spend(key: string, weight: number, now: number): { allowed: boolean; used: number; resetAt: number } {
    if (now - this.#lastSweep >= this.windowMs) this.#sweep(now);
    let w = this.#windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, used: 0 };
      this.#windows.set(key, w);
    }
    const allowed = w.used + weight <= this.limit;
    if (allowed) w.used += weight;
    return { allowed, used: w.used, resetAt: w.start + this.windowMs };
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

/**
 * Weight of the request's operation: the last matched route that is not `ALL` (middleware),
 * resolved against the weight table once per route and remembered; unmatched requests (404)
 * are weighed by their path.
 */
function routeWeight(c: Context<AppEnv>, memo: WeakMap<RouterRoute, number>): number {
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

  /** Spends the request's weight from the budget of `ip`, writes the headers; throws when over. */
  spend(c: Context<AppEnv>, deps: AppDeps, ip: string): void {
    const { limit, windowMs } = deps.config.rateLimit;
    let budget = this.#budget;
    if (!budget || budget.limit !== limit || budget.windowMs !== windowMs) {
      budget = this.#budget = new WeightedBudget(limit, windowMs);
      this.#limitText = String(limit);
      this.#windowText = String(Math.round(windowMs / 1000));
    }
    const now = deps.now();
    const r = budget.spend(ip, routeWeight(c, this.#weights), now);
    const remaining = String(Math.max(0, limit - r.used));
    const used = String(r.used);
    const out = (c.env as NodeBindings | undefined)?.outgoing;
    if (out && !out.headersSent) {
      // On @hono/node-server the headers go straight onto the Node response, which merges them
      // into whatever the app answers. Through hono's c.header every response would carry a
      // WHATWG Headers object instead, which on a trivial route costs as much as the route.
      out.setHeader('x-ratelimit-limit', this.#limitText);
      out.setHeader('x-ratelimit-remaining', remaining);
      out.setHeader('x-ratelimit-used', used);
      out.setHeader('x-ratelimit-window', this.#windowText);
    } else {
      c.header('x-ratelimit-limit', this.#limitText);
      c.header('x-ratelimit-remaining', remaining);
      c.header('x-ratelimit-used', used);
      c.header('x-ratelimit-window', this.#windowText);
    }
    if (!r.allowed) {
      throw new AppError('RateLimited', `Request budget of ${limit} units per ${windowMs / 1000} s is spent`, {
        'retry-after': String(Math.max(1, Math.ceil((r.resetAt - now) / 1000))),
      });
    }
  }
}
