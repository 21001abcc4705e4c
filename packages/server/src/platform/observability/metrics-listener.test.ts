import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';
import { type MetricsListener, startMetricsListener } from './metrics-listener.js';

const open: MetricsListener[] = [];
afterEach(async () => {
  for (const l of open.splice(0)) await l.close();
});

describe('startMetricsListener', () => {
  it("serves the process's metrics to loopback, /healthz, and 404 for the rest", async () => {
    const metrics = createMetrics();
    metrics.jobRun('sync-connection', false, 0.2, 1_700_000_000_000);
    const l = await startMetricsListener(metrics, { host: '127.0.0.1', port: 0, allow: [] });
    open.push(l);
    const res = await fetch(`${l.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('jobs_failed_total{job="sync-connection"} 1');
    expect((await fetch(`${l.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${l.url}/v2/config`)).status).toBe(404);
    expect((await fetch(`${l.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('refuses an address outside the allow list', async () => {
    const l = await startMetricsListener(createMetrics(), { host: '127.0.0.1', port: 0, allow: ['10.0.0.0/8'] });
    open.push(l);
    expect((await fetch(`${l.url}/metrics`)).status).toBe(403);
  });
});
