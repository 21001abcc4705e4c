import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../../env.js';
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

function routeKey(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const r = routes[i];
    if (r.method !== 'ALL') return r.path;
  }
  return c.req.path;
}

/** x-ratelimit-* on every response; 429 `RateLimited` with retry-after once the budget is spent. */
export function rateLimit(): MiddlewareHandler<AppEnv> {
  let budget: WeightedBudget | null = null;
  return async (c, next) => {
    const { limit, windowMs } = c.var.deps.config.rateLimit;
    if (!budget || budget.limit !== limit || budget.windowMs !== windowMs) budget = new WeightedBudget(limit, windowMs);
    const now = c.var.deps.now();
    const weight = weightOf(c.req.method, routeKey(c));
    const r = budget.spend(c.var.clientIp, weight, now);
    c.header('x-ratelimit-limit', String(limit));
    c.header('x-ratelimit-remaining', String(Math.max(0, limit - r.used)));
    c.header('x-ratelimit-used', String(r.used));
    c.header('x-ratelimit-window', String(Math.round(windowMs / 1000)));
    if (!r.allowed) {
      throw new AppError('RateLimited', `Request budget of ${limit} units per ${windowMs / 1000} s is spent`, {
        'retry-after': String(Math.max(1, Math.ceil((r.resetAt - now) / 1000))),
      });
    }
    await next();
  };
}
