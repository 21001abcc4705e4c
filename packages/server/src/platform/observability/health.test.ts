import { describe, expect, it } from 'vitest';
import { type HealthCheck, healthRoutes, type Readiness } from './health.js';

const checkOf = (readiness: Readiness | Error): HealthCheck => ({
  ready: () => (readiness instanceof Error ? Promise.reject(readiness) : Promise.resolve(readiness)),
});

describe('healthRoutes', () => {
  it('answers /healthz 200 even when not ready', async () => {
    const r = await healthRoutes(checkOf({ ok: false, checks: {} })).request('/healthz');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 with each check when ready', async () => {
    const checks = { storage: { ok: true }, market: { ok: true, detail: 'binance' } };
    const r = await healthRoutes(checkOf({ ok: true, checks })).request('/readyz');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'ok', checks });
  });

  it('answers /readyz 503 with each check when one fails', async () => {
    const checks = { storage: { ok: true }, market: { ok: false, detail: 'circuit open' } };
    const r = await healthRoutes(checkOf({ ok: false, checks })).request('/readyz');
    expect(r.status).toBe(503);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'unavailable', checks });
  });

  it('answers /readyz 503 when the check itself throws', async () => {
    const r = await healthRoutes(checkOf(new Error('database is locked'))).request('/readyz');
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({
      status: 'unavailable',
      checks: { ready: { ok: false, detail: 'database is locked' } },
    });
  });
});
