import { Hono } from 'hono';
import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics, metricsMiddleware } from './metrics.js';

/** The value of the exposition line that starts with `series` (name and labels), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const GET_ASSET = 'method="GET",route="/v2/assets/:asset_id",status="200"';

describe('createMetrics', () => {
  it('counts requests by route pattern through the middleware, with their durations', async () => {
    const metrics = createMetrics();
    const app = new Hono();
    app.use(metricsMiddleware(metrics));
    app.get('/v2/assets/:asset_id', (c) => c.text('ok'));
    for (const asset of ['btc', 'eth', 'sol']) await app.request(`/v2/assets/${asset}`);
    await app.request('/missing');
    const text = await metrics.registry.metrics();
    expect(sample(text, `http_requests_total{${GET_ASSET}}`)).toBe(3);
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, `http_request_duration_seconds_count{${GET_ASSET}}`)).toBe(3);
    expect(sample(text, `http_request_duration_seconds_bucket{${GET_ASSET},le="+Inf"}`)).toBe(3);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).not.toMatch(/assets\/(btc|eth|sol)|\/missing/);
  });

  it('puts each duration in its bucket, cumulatively, with the sum', async () => {
    const metrics = createMetrics();
    for (const s of [0.0005, 0.001, 0.02, 0.02, 3]) metrics.request('GET', '/x', 200, s);
    const text = await metrics.registry.metrics();
    const bucket = (le: string) =>
      sample(text, `http_request_duration_seconds_bucket{method="GET",route="/x",status="200",le="${le}"}`);
    expect([bucket('0.001'), bucket('0.01'), bucket('0.025'), bucket('2.5'), bucket('10'), bucket('+Inf')]).toEqual([
      2, 2, 4, 4, 5, 5,
    ]);
    expect(sample(text, 'http_request_duration_seconds_sum{method="GET",route="/x",status="200"}')).toBeCloseTo(3.0415);
    expect(
      (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'http_request_duration_seconds')?.values,
    ).toHaveLength(15);
  });

  it('records upstream calls, cache lookups and job backlogs through its helpers', async () => {
    const metrics = createMetrics();
    metrics.upstream('binance', 'ok', 0.2);
    metrics.upstream('binance', 'ok', 0.4);
    metrics.upstream('binance', 'timeout', 10);
    metrics.cache('candles', 'hit');
    metrics.cache('candles', 'hit');
    metrics.cache('candles', 'stale');
    metrics.backlog('sync', 7);
    metrics.backlog('sync', 3);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'upstream_calls_total{source="binance",outcome="ok"}')).toBe(2);
    expect(sample(text, 'upstream_calls_total{source="binance",outcome="timeout"}')).toBe(1);
    expect(sample(text, 'upstream_call_duration_seconds_count{source="binance"}')).toBe(3);
    expect(sample(text, 'cache_requests_total{cache="candles",result="hit"}')).toBe(2);
    expect(sample(text, 'cache_requests_total{cache="candles",result="stale"}')).toBe(1);
    expect(sample(text, 'job_backlog{job="sync"}')).toBe(3);
  });

  it('records job runs and failures, the last run, schedule checks, the pool and Redis', async () => {
    const metrics = createMetrics();
    metrics.jobRun('sync-due', true, 0.05, 1_700_000_000_000);
    metrics.jobRun('sync-due', false, 0.25, 1_700_000_005_000);
    metrics.jobRun('alerts', true, 0.01, 1_700_000_001_000);
    metrics.jobSchedule('sync-due', true, false);
    metrics.jobSchedule('alerts', false, true);
    metrics.jobSchedule('alerts', false, false);
    const pool = { inUse: 3, idle: 7, waiting: 2 };
    metrics.watchPool(() => pool);
    metrics.redis(false, 0.5);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'jobs_run_total{job="sync-due"}')).toBe(2);
    expect(sample(text, 'jobs_failed_total{job="sync-due"}')).toBe(1);
    expect(sample(text, 'jobs_run_total{job="alerts"}')).toBe(1);
    expect(sample(text, 'jobs_failed_total{job="alerts"}')).toBeUndefined();
    expect(sample(text, 'jobs_last_run_timestamp_seconds{job="sync-due"}')).toBe(1_700_000_005);
    expect(sample(text, 'jobs_last_run_duration_seconds{job="sync-due"}')).toBe(0.25);
    expect(sample(text, 'jobs_schedule_missing{job="sync-due"}')).toBe(1);
    expect(sample(text, 'jobs_schedule_missing{job="alerts"}')).toBe(0);
    expect(sample(text, 'jobs_schedule_recreated_total{job="alerts"}')).toBe(1);
    expect(sample(text, 'db_pool_connections{state="in_use"}')).toBe(3);
    expect(sample(text, 'db_pool_connections{state="idle"}')).toBe(7);
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(2);
    expect(sample(text, 'redis_up')).toBe(0);
    metrics.redis(true, 0.001);
    pool.inUse = 10;
    const later = await metrics.registry.metrics();
    expect(sample(later, 'redis_up')).toBe(1);
    // read at the scrape, not when set
    expect(sample(later, 'db_pool_connections{state="in_use"}')).toBe(10);
  });

  it('uses a registry of its own, with the process metrics, and leaves the global one alone', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.request('GET', '/x', 200, 0.01);
    expect(await a.registry.metrics()).toContain('process_cpu_user_seconds_total');
    expect(
      sample(await b.registry.metrics(), 'http_requests_total{method="GET",route="/x",status="200"}'),
    ).toBeUndefined();
    expect(globalRegistry.getSingleMetric('http_requests_total')).toBeUndefined();
  });
});
