/** Production mode and bad configurations, end to end on the built server main. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, runMain, startMain, stop } from '../../test/support/main-process.js';

const SECRET = Buffer.alloc(32, 9).toString('base64');
const PRODUCTION = {
  MARKETLENS_ENV: 'production',
  MARKETLENS_SECRET_KEY: SECRET,
  MARKETLENS_PUBLIC_URL: 'https://api.example.com',
  // Sign-up mails a link in production: a mail server (or an owner-only mail file) is required.
  MARKETLENS_SMTP_URL: 'smtp://127.0.0.1:2525',
};

/** One line, no stack trace. */
function oneLine(output: string): string {
  const lines = output.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /m);
  return lines[0];
}

describe('a start that cannot run stops at once, in one line', () => {
  it('names the missing production secret, the public URL, a bad source and a bad file', async () => {
    const noSecret = await runMain({ MARKETLENS_ENV: 'production' });
    expect(noSecret.code).toBe(1);
    expect(oneLine(noSecret.output)).toMatch(/MARKETLENS_SECRET_KEY/);
    const noUrl = await runMain({ MARKETLENS_ENV: 'production', MARKETLENS_SECRET_KEY: SECRET });
    expect(oneLine(noUrl.output)).toMatch(/MARKETLENS_PUBLIC_URL/);
    const venue = await runMain({ MARKETLENS_MARKET: 'ccxt:nowhere' });
    expect(oneLine(venue.output)).toMatch(/MARKETLENS_MARKET: 'ccxt:nowhere': unknown venue 'nowhere'; one of binance/);
    const folder = await runMain({ MARKETLENS_MARKET: 'files:/nonexistent/candles' });
    expect(folder.code).toBe(1);
    expect(oneLine(folder.output)).toMatch(/files:\/nonexistent\/candles: the folder cannot be read/);
    const file = await runMain({ MARKETLENS_CONFIG: '/nonexistent/marketlens.json' });
    expect(oneLine(file.output)).toMatch(/config file \/nonexistent\/marketlens.json cannot be read/);
  });
});

describe('production mode', () => {
  let server: Running;
  beforeAll(async () => {
    server = await startMain({ metricsAllow: ['127.0.0.1'] }, PRODUCTION);
  }, 60_000);
  afterAll(() => stop(server));

  it('seeds and prints no demo user, and keeps its files owner-only', async () => {
    expect(server.output()).not.toMatch(/demo user|session token|api key/);
    const data = join(server.dir, 'data');
    expect(statSync(data).mode & 0o777).toBe(0o700);
    // The credentials key comes from MARKETLENS_SECRET_KEY in production: no key file is written.
    for (const name of ['marketlens.sqlite', 'marketlens.sqlite-wal']) {
      expect(statSync(join(data, name)).mode & 0o777, name).toBe(0o600);
    }
    const res = await fetch(`${server.url}/v2/config`);
    expect(res.status).toBe(200);
  });

  it('logs one JSON line per request with its request id', async () => {
    const res = await fetch(`${server.url}/v2/config`, { headers: { 'x-request-id': 'trace-42' } });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    const generated = await fetch(`${server.url}/v2/config`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 200));
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.requestId === 'trace-42' || l.request_id === 'trace-42' || l.reqId === 'trace-42')).toBe(
      true,
    );
  });

  it('answers /healthz and /readyz, and /metrics to allowed addresses', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok' });
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/http_requests_total\{[^}]*route="\/v2\/config"/);
  });

  it('refuses /metrics to an address outside the allow list', async () => {
    const other = await startMain({ metricsAllow: ['10.0.0.0/8'] }, PRODUCTION);
    try {
      const res = await fetch(`${other.url}/metrics`);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, code: 'Forbidden' });
    } finally {
      await stop(other);
    }
  });

  it('exits cleanly on SIGTERM', async () => {
    const other = await startMain({}, PRODUCTION);
    const code = await stop(other);
    expect(code, other.output()).toBe(0);
  });
});
