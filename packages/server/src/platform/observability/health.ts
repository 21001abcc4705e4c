import { Hono } from 'hono';

/** One dependency's state; `detail` says what is wrong (or what was checked). */
export interface CheckResult {
  ok: boolean;
  detail?: string;
}

/** Whether the server can serve, and each dependency's state. */
export interface Readiness {
  ok: boolean;
  checks: Record<string, CheckResult>;
}

/** What {@link healthRoutes} asks before answering `/readyz`. */
export interface HealthCheck {
  ready(): Promise<Readiness>;
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `GET /healthz` (liveness): 200 `{ status: 'ok' }` whenever the process answers at all, so a
 * failing dependency never gets the process restarted. `GET /readyz` (readiness): 200
 * `{ status: 'ok', checks }` when `check.ready()` says ok, else 503 `{ status: 'unavailable',
 * checks }`, so a load balancer stops sending traffic (while starting, draining, or when storage
 * is gone); a `ready()` that throws is a failed check named `ready`. Neither is cached. Mount with
 * `app.route('/', healthRoutes(check))`.
 */
export function healthRoutes(check: HealthCheck): Hono {
  const routes = new Hono();
  routes.get('/healthz', (c) => c.json({ status: 'ok' }, 200, NO_STORE));
  routes.get('/readyz', async (c) => {
    let readiness: Readiness;
    try {
      readiness = await check.ready();
    } catch (err) {
      readiness = {
        ok: false,
        checks: { ready: { ok: false, detail: err instanceof Error ? err.message : String(err) } },
      };
    }
    const { ok, checks } = readiness;
    return c.json({ status: ok ? 'ok' : 'unavailable', checks }, ok ? 200 : 503, NO_STORE);
  });
  return routes;
}
