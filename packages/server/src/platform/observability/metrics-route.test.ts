import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientIpOf } from '../client-ip.js';
import type { AppEnv } from '../deps.js';
import { createMetrics } from './metrics.js';
import { metricsRoute } from './metrics-route.js';

/** An app serving /metrics with the platform's client address (the socket peer, no trusted proxy). */
function app(allow: readonly string[]) {
  const metrics = createMetrics();
  metrics.request('GET', '/v2/config', 200, 0.002);
  const a = new Hono<AppEnv>();
  a.get(
    '/metrics',
    metricsRoute<AppEnv>(metrics, allow, (c) => clientIpOf(c, [])),
  );
  return (remoteAddress: string) => a.request('/metrics', {}, { incoming: { socket: { remoteAddress } } });
}

describe('metricsRoute', () => {
  it('serves the Prometheus text format to loopback when no allow list is configured', async () => {
    const scrape = app([]);
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const r = await scrape(address);
      expect(r.status, address).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(await r.text()).toContain('http_requests_total{method="GET",route="/v2/config",status="200"} 1');
    }
  });

  it('refuses any other address with a 403 ErrorResponse', async () => {
    const r = await app([])('203.0.113.7');
    expect(r.status).toBe(403);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toEqual({ success: false, code: 'Forbidden', message: expect.any(String) });
  });

  it('serves the addresses and blocks of the allow list, IPv6 CIDR included, and no longer loopback', async () => {
    const scrape = app(['2001:db8:1::/48', '10.0.0.0/8']);
    expect((await scrape('2001:db8:1:ff::9')).status).toBe(200);
    expect((await scrape('10.20.30.40')).status).toBe(200);
    expect((await scrape('::ffff:10.20.30.40')).status).toBe(200);
    expect((await scrape('2001:db8:2::9')).status).toBe(403);
    expect((await scrape('127.0.0.1')).status).toBe(403);
  });

  it('throws when the allow list has a malformed entry', () => {
    expect(() => app(['10.0.0.0/40'])).toThrow(/prefix/i);
  });
});
