import { normalizePositions, type PositionExtended, portfolioTotals } from '@marketlens/core';
import {
  createCcxtAccountData,
  createSimulatedVenue,
  SIMULATED_VENUE_ID,
  verifyCcxtCredentials,
} from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bybitHistory, bybitMarkets, bybitRoutes } from '../../../exchanges/src/ccxt/testing/fixtures/bybit.js';
import { NOW as BYBIT_NOW } from '../../../exchanges/src/ccxt/testing/fixtures/common.js';
import { startVenueServer, type VenueServer } from '../../../exchanges/src/ccxt/testing/venue-server.js';
import { createApp } from '../app.js';
import { type AppDeps, DEFAULT_CONFIG } from '../platform/deps.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { openConnection } from './connections.js';
import { legacyPositions, type PositionsView } from './portfolio.js';
import { syncConnection } from './sync/job.js';

interface Body<T> {
  success: boolean;
  code: number | string;
  data: T;
}

/** An app whose clock, market data and account access are set per venue path. */
function appAt(now: number, extra: Partial<AppDeps> = {}) {
  const storage = createSqliteStorage(':memory:');
  const clock = { now };
  const deps: AppDeps = {
    storage,
    config: { ...DEFAULT_CONFIG, rateLimit: { limit: 1_000_000, windowMs: 60_000 } },
    now: () => clock.now,
    market: createSimulatedVenue({ now: () => clock.now }),
    // createApp copies deps, so the key must be explicit for the sync (run outside the app) to read credentials.
    credentialsKey: new Uint8Array(32).fill(7),
    ...extra,
  };
  const app = createApp(deps, { logError: () => {} });
  const request = async <T>(path: string, token: string, init: RequestInit = {}) => {
    const res = await app.request(
      path,
      { ...init, headers: { 'x-session-token': token, 'content-type': 'application/json', ...init.headers } },
      { incoming: { socket: { remoteAddress: '203.0.113.9' } } },
    );
    return { status: res.status, body: (await res.json()) as Body<T> };
  };
  const signup = async () => {
    const res = await app.request(
      '/v1/auth/signup',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `e2e-${Math.random()}@example.com`, password: 'password-123' }),
      },
      { incoming: { socket: { remoteAddress: '203.0.113.9' } } },
    );
    return ((await res.json()) as Body<{ session_token: string }>).data.session_token;
  };
  /** Connects through the route, then runs one sync of the new connection as the background job would. */
  const connectAndSync = async (token: string, body: Record<string, unknown>) => {
    const connected = await request<{ id: string }>('/v1/connections/user', token, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect(connected.status).toBe(200);
    const record = await storage.connections.byId(connected.body.data.id);
    if (record === null) throw new Error('connection not stored');
    const result = await syncConnection(
      { storage, now: deps.now, config: deps.config.sync, open: (c) => openConnection(deps, c) },
      record,
    );
    expect(result).toMatchObject({ ok: true, error: null });
    return { id: record.id, result };
  };
  return { app, storage, clock, deps, request, signup, connectAndSync };
}

/** The reads every venue path must answer consistently. */
async function readEverything(env: ReturnType<typeof appAt>, token: string) {
  const positions = await env.request<PositionsView>('/v2/positions', token);
  const balances = await env.request<{ balances: { symbol: string; balance_usd: number | null }[]; total_usd: number }>(
    '/v2/balances',
    token,
  );
  const summary = await env.request<{ positions: Record<string, number>; balances: { total_usd: number } }>(
    '/v2/portfolio/summary',
    token,
  );
  const orders = await env.request<{ orders: { fills: unknown[]; asset_id: string | null }[]; total: number }>(
    '/v1/orders?limit=500',
    token,
  );
  const trades = await env.request<{ trades: { asset_id: string | null; coin_id: string | null }[]; total: number }>(
    '/v1/trades?limit=500',
    token,
  );
  for (const r of [positions, balances, summary, orders, trades]) expect(r.status).toBe(200);
  // Totals agree with the lists they summarise.
  expect(summary.body.data.positions).toEqual(positions.body.data.totals);
  expect(summary.body.data.balances.total_usd).toBe(balances.body.data.total_usd);
  expect(positions.body.data.totals.open_positions_count).toBe(positions.body.data.positions.length);
  // Every fill is in exactly one order: walk the order pages (limit is clamped to 200).
  let fillsInOrders = 0;
  for (let offset = 0; offset < orders.body.data.total; offset += 200) {
    const page = await env.request<{ orders: { fills: unknown[] }[] }>(`/v1/orders?limit=200&offset=${offset}`, token);
    fillsInOrders += page.body.data.orders.reduce((n, o) => n + o.fills.length, 0);
  }
  expect(orders.body.data.orders).toHaveLength(Math.min(200, orders.body.data.total));
  expect(fillsInOrders).toBe(trades.body.data.total);
  for (const t of trades.body.data.trades) expect(t.coin_id).toBe(t.asset_id);
  for (const p of positions.body.data.positions) {
    if (p.current_price === null) expect(p.unrealized_pnl).toBeNull();
    else expect(p.current_price).toBeGreaterThan(0);
  }
  return { positions, balances, summary, orders, trades };
}

describe('end to end: simulated venue', () => {
  it('connects, syncs and reads positions, balances, summary, orders, trades and an analysis', async () => {
    const env = appAt(Date.UTC(2026, 0, 15, 12, 0, 0));
    const token = await env.signup();
    const { result } = await env.connectAndSync(token, { exchange_id: SIMULATED_VENUE_ID });
    expect(result.positions).toBeGreaterThan(0);
    const read = await readEverything(env, token);
    const positions: PositionExtended[] = read.positions.body.data.positions;
    expect(positions.length).toBe(result.positions);
    expect(read.trades.body.data.total).toBeGreaterThan(0);
    const tracked = positions.find((p) => p.asset !== null);
    if (tracked === undefined) throw new Error('the demo account holds no tracked position');
    const analysis = await env.request<{ direction: string; mark: number; timing: { bars_held_at_least: number } }>(
      `/v2/positions/${tracked.id}/analysis`,
      token,
    );
    expect(analysis.status).toBe(200);
    expect(analysis.body.data.direction).toBe(tracked.side);
    expect(analysis.body.data.mark).toBeGreaterThan(0);
    // Re-syncing (the venue re-reads its fills window) changes neither positions' ids nor the fills.
    const record = await env.storage.connections.byId(positions[0].user_connection_id);
    if (record === null) throw new Error('connection gone');
    await syncConnection(
      {
        storage: env.storage,
        now: env.deps.now,
        config: env.deps.config.sync,
        open: (c) => openConnection(env.deps, c),
      },
      record,
    );
    const again = await readEverything(env, token);
    expect(again.trades.body.data.total).toBe(read.trades.body.data.total);
    expect(again.positions.body.data.positions.map((p) => p.id).sort()).toEqual(positions.map((p) => p.id).sort());
  });
});

describe('end to end: a real ccxt client against the local venue server (bybit)', () => {
  let server: VenueServer;
  beforeAll(async () => {
    server = await startVenueServer();
    server.routes(bybitRoutes(bybitHistory()));
  });
  afterAll(() => server.close());

  it('connects, syncs and reads everything, with the unpriced rows null', async () => {
    const ccxt = { proxyUrl: server.proxyUrl, markets: bybitMarkets, rateLimit: false, timeoutMs: 5000 };
    const env = appAt(BYBIT_NOW, {
      verifyCredentials: (venue, credentials) =>
        verifyCcxtCredentials({ ...ccxt, venue, credentials, now: () => BYBIT_NOW }) as Promise<void>,
      accountFor: (connection, credentials) =>
        createCcxtAccountData({
          ...ccxt,
          venue: connection.venue,
          connection: connection.id,
          credentials,
          now: () => BYBIT_NOW,
        }),
    });
    const token = await env.signup();
    const { result } = await env.connectAndSync(token, { exchange_id: 'bybit', apiKey: 'key', secret: 'secret' });
    expect(result.positions).toBe(1);
    const read = await readEverything(env, token);
    const [btc] = read.positions.body.data.positions;
    expect(btc).toMatchObject({
      pair: 'BTCUSDT',
      side: 'long',
      size: 0.25,
      entry_price: 58000,
      current_price: 62000.1,
      asset: { id: 'bitcoin', asset_class: 'coins' },
      visible: false,
    });
    expect(btc.unrealized_pnl).toBeCloseTo(0.25 * (62000.1 - 58000), 9);
    const symbols = read.balances.body.data.balances.map((b) => b.symbol).sort();
    expect(symbols).toEqual(['BTC', 'USDT', 'USDT']);
    expect(read.trades.body.data.total).toBeGreaterThan(0);

    // Filters and the legacy shape on real synced data.
    const btcOnly = await env.request<{ trades: { asset_id: string | null }[] }>('/v1/trades?coin_id=bitcoin', token);
    expect(btcOnly.body.data.trades.every((t) => t.asset_id === 'bitcoin')).toBe(true);
    const old = await env.request<{ trades: { asset_id: string | null }[]; total: number }>(
      '/v1/trades?limit=200',
      token,
      { headers: { 'x-platform': 'ios', 'x-app-version': '3.9.0' } },
    );
    expect(old.body.data.trades.every((t) => t.asset_id !== null)).toBe(true);

    const analysis = await env.request<{ mark: number; mark_source: string; entry_price: number }>(
      `/v2/positions/${btc.id}/analysis`,
      token,
    );
    expect(analysis.status).toBe(200);
    expect(analysis.body.data).toMatchObject({ mark: 62000.1, mark_source: 'venue', entry_price: 58000 });
  });
});

describe('legacyPositions', () => {
  it('keeps tracked rows only, splits off the unpriced ones and totals what remains', () => {
    const asset = { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: null, asset_class: 'coins' as const };
    const row = (id: string, tracked: boolean, mark: number | null) => ({
      id,
      user_connection_id: 'c',
      connection_id: 'bybit',
      pair: 'BTCUSDT',
      asset: tracked ? asset : null,
      side: 'long' as const,
      size: 1,
      entry_price: 100,
      mark_price: mark,
      usd_rate: 1,
    });
    const positions = normalizePositions([
      row('a', true, 110),
      row('b', true, null),
      row('c', false, 120),
      row('d', false, null),
    ]);
    const legacy = legacyPositions({ positions, totals: portfolioTotals(positions) });
    expect(legacy.positions.map((p) => p.id)).toEqual(['a']);
    expect(legacy.unpriced_positions.map((p) => p.id)).toEqual(['b']);
    expect(legacy.totals).toMatchObject({
      open_positions_count: 2,
      unpriced_positions_count: 1,
      total_unrealized_pnl_usd: 10,
    });
  });
});
