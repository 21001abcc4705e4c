import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, DEFAULT_CONFIG, openDataDir } from '@marketlens/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, marketlens } from '../testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

/** Calls `fn` with a REST app over the data folder, as `marketlens serve` would run on it. */
async function withApp<T>(
  dir: string,
  fn: (request: (path: string, init?: RequestInit) => Promise<Response>) => Promise<T>,
) {
  const storage = openDataDir(dir);
  try {
    const app = createApp({ storage, config: DEFAULT_CONFIG, now: () => Date.now() }, { logError: () => {} });
    return await fn((path, init = {}) =>
      Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: '198.51.100.7' } } })),
    );
  } finally {
    await storage.close();
  }
}

describe('admin promotion --json', () => {
  it('prints the promotion REST serves, then the admin-only fields', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-promo-wire-'));
    const env = { MARKETLENS_DATA_DIR: dir };
    const token = await withApp(dir, async (request) => {
      const signup = await request('/v1/auth/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'wire@example.com', password: 'password-123' }),
      });
      return ((await signup.json()) as { data: { session_token: string } }).data.session_token;
    });

    const args = ['--title', 'Trade on Bybit', '--description', 'Get Pro', '--value', '30 days of Pro'];
    const created = marketlens(['admin', 'promotion', 'create', 'bybit', ...args, '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const printed = (JSON.parse(created.stdout) as { promotion: Record<string, unknown> }).promotion;
    const listed = JSON.parse(marketlens(['admin', 'promotion', 'list', '--json'], env).stdout) as {
      promotions: unknown[];
    };
    expect(listed.promotions).toEqual([printed]);

    const data = await withApp(dir, async (request) => {
      const res = await request('/v1/promotions/bybit', { headers: { 'x-session-token': token } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Record<string, unknown> }).data;
    });
    const { created_at, invited, claimed, ...promotion } = printed;
    expect(promotion).toEqual(data);
    expect([typeof created_at, invited, claimed]).toEqual(['number', 0, 0]);
  });

  it('admin campaign --json prints the campaign REST serves, then created_at and live', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-campaign-wire-'));
    const env = { MARKETLENS_DATA_DIR: dir };
    const token = await withApp(dir, async (request) => {
      const signup = await request('/v1/auth/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'campaign@example.com', password: 'password-123' }),
      });
      return ((await signup.json()) as { data: { session_token: string } }).data.session_token;
    });
    const created = marketlens(
      [
        'admin',
        'campaign',
        'create',
        'spring-cup',
        '--url',
        'https://example.com/c',
        '--video-url',
        'https://example.com/v.mp4',
        '--icon-url',
        'https://example.com/i.svg',
        '--icon-alt',
        'Bybit',
        '--close',
        '2099-01-01T00:00:00Z',
        '--json',
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const printed = (JSON.parse(created.stdout) as { campaign: Record<string, unknown> }).campaign;
    const data = await withApp(dir, async (request) => {
      const res = await request('/v1/promotions/campaigns', { headers: { 'x-session-token': token } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Record<string, unknown>[] }).data;
    });
    const { created_at, live, ...campaign } = printed;
    expect([campaign]).toEqual(data);
    expect([typeof created_at, live]).toEqual(['number', true]);
  });
});
