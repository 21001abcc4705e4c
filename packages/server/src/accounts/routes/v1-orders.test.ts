import { OrdersSchema, TradesSchema } from '@marketlens/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedAccount } from '../../../test/support/account-seed.js';
import { type Harness, harness } from '../../../test/support/harness.js';

interface Trade {
  external_id: string;
  asset: { id: string } | null;
  asset_id: string | null;
  coin_id: string | null;
  executed_at: string;
  user_connection_id: string;
}
interface Order {
  id: string;
  price: number;
  size: number;
  fills_count: number;
  last_fill_at: string;
  asset_id: string | null;
}

let h: Harness;
let token: string;
let bybitId: string;
let okxId: string;
const T0 = Date.UTC(2026, 0, 10, 0, 0, 0);
const hour = 3_600_000;

async function get<T>(path: string, headers: Record<string, string> = {}) {
  const res = await h.request(path, { headers: { 'x-session-token': token, ...headers } });
  return { status: res.status, body: (await res.json()) as { data: T; code: string | number } };
}

beforeAll(async () => {
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const user = await h.signup();
  token = user.token;
  bybitId = await seedAccount(h.storage, user.userId, 'bybit', {
    at: h.clock.now,
    fills: [
      // Order o1: two fills, 1 @ 100 and 3 @ 104 -> avg 103.
      { external_id: 'f1', order_id: 'o1', time: T0, price: 100, amount: 1, fee: 0.1, fee_currency: 'usdt' },
      { external_id: 'f2', order_id: 'o1', time: T0 + hour, price: 104, amount: 3, fee: 0.3, fee_currency: 'USDT' },
      { external_id: 'f3', order_id: 'o2', time: T0 + 2 * hour, side: 'sell', price: 110, amount: 2 },
      // A fill on a pair that maps to no tracked asset.
      { external_id: 'f4', order_id: 'o3', time: T0 + 3 * hour, pair: 'ZZZUSDT', asset_id: null, price: 1, amount: 5 },
    ],
  });
  okxId = await seedAccount(h.storage, user.userId, 'okx', {
    at: h.clock.now,
    fills: [
      {
        external_id: 'g1',
        order_id: null,
        time: T0 + 4 * hour,
        pair: 'ETH-USDT-SWAP',
        asset_id: 'ethereum',
        price: 3000,
        amount: 1,
      },
    ],
  });
  // Another user's fills never show.
  const other = await h.signup();
  await seedAccount(h.storage, other.userId, 'bybit', {
    at: h.clock.now,
    fills: [{ external_id: 'x1', time: T0 + hour }],
  });
});

describe('GET /v1/orders', () => {
  it('aggregates fills into orders, newest first, with the total', async () => {
    const { status, body } = await get<{ orders: Order[]; total: number }>('/v1/orders');
    expect(status).toBe(200);
    expect(OrdersSchema.safeParse(body.data).success).toBe(true);
    expect(body.data.total).toBe(4);
    expect(body.data.orders.map((o) => o.id)).toEqual(['g1', 'o3', 'o2', 'o1']);
    const o1 = body.data.orders[3];
    expect(o1).toMatchObject({ price: 103, size: 4, fills_count: 2, fee: 0.4, fee_currency: 'USDT' });
  });

  it('carries the account asset block on orders and their fills (null when the pair maps to none)', async () => {
    const { body } = await get<{ orders: (Order & { asset: unknown; fills: { asset: unknown }[] })[] }>('/v1/orders');
    const byId = new Map(body.data.orders.map((o) => [o.id, o]));
    const btc = { id: 'bitcoin', symbol: 'BTC', asset_class: 'coins' };
    expect(byId.get('o1')?.asset).toMatchObject(btc);
    expect(byId.get('o1')?.fills.map((f) => f.asset)).toEqual([byId.get('o1')?.asset, byId.get('o1')?.asset]);
    expect(byId.get('g1')?.asset).toMatchObject({ id: 'ethereum' });
    expect(byId.get('o3')?.asset).toBeNull();
    expect(byId.get('o3')?.fills[0].asset).toBeNull();
    expect(byId.get('o1')?.asset_id).toBe('bitcoin');
    expect(OrdersSchema.safeParse(body.data).success).toBe(true);
  });

  it('pages orders with limit and offset, clamping limit to 0..200', async () => {
    const page = await get<{ orders: Order[]; total: number }>('/v1/orders?limit=2&offset=1');
    expect(page.body.data.orders.map((o) => o.id)).toEqual(['o3', 'o2']);
    expect(page.body.data.total).toBe(4);
    const zero = await get<{ orders: Order[]; total: number }>('/v1/orders?limit=-4');
    expect(zero.body.data).toEqual({ orders: [], total: 4 });
    const big = await get<{ orders: Order[]; total: number }>('/v1/orders?limit=100000');
    expect(big.status).toBe(200);
    expect(big.body.data.orders).toHaveLength(4);
    expect((await get('/v1/orders?limit=abc')).status).toBe(400);
  });

  it('filters by connection, account, pair, side and asset (coin_id alias)', async () => {
    const ids = async (qs: string) =>
      (await get<{ orders: Order[] }>(`/v1/orders?${qs}`)).body.data.orders.map((o) => o.id);
    expect(await ids('connection_id=okx')).toEqual(['g1']);
    expect(await ids(`user_connection_id=${bybitId}`)).toEqual(['o3', 'o2', 'o1']);
    expect(await ids(`user_connection_id=${okxId}`)).toEqual(['g1']);
    expect(await ids('pair=ZZZUSDT')).toEqual(['o3']);
    expect(await ids('side=sell')).toEqual(['o2']);
    expect(await ids('asset_id=bitcoin')).toEqual(['o2', 'o1']);
    expect(await ids('coin_id=bitcoin')).toEqual(['o2', 'o1']);
    expect((await get('/v1/orders?asset_id=bitcoin&coin_id=ethereum')).status).toBe(400);
  });

  it('selects orders with a fill inside start..end (inclusive) and builds each from all its fills', async () => {
    const iso = (t: number) => encodeURIComponent(new Date(t).toISOString());
    const { body } = await get<{ orders: Order[]; total: number }>(
      `/v1/orders?start=${iso(T0 + hour)}&end=${iso(T0 + 2 * hour)}`,
    );
    // o1's fills straddle the window (f1 before it, f2 inside): o1 is still the whole order.
    expect(body.data.orders.map((o) => [o.id, o.fills_count])).toEqual([
      ['o2', 1],
      ['o1', 2],
    ]);
    expect(body.data.orders[1]).toMatchObject({
      price: 103,
      size: 4,
      fee: 0.4,
      first_fill_at: new Date(T0).toISOString(),
    });
    expect(body.data.total).toBe(2);
    // An order with no fill in the window is not listed.
    const before = await get<{ orders: Order[] }>(`/v1/orders?end=${iso(T0)}`);
    expect(before.body.data.orders.map((o) => [o.id, o.fills_count])).toEqual([['o1', 2]]);
    // The same instant given with an offset is the same bound.
    const offset = await get<{ total: number }>(
      `/v1/orders?start=${encodeURIComponent('2026-01-10T02:00:00+01:00')}&end=${iso(T0 + hour)}`,
    );
    expect(offset.body.data.total).toBe(1);
    expect((await get(`/v1/orders?start=${iso(T0 + hour)}&end=${iso(T0)}`)).status).toBe(400);
    expect((await get('/v1/orders?start=yesterday')).status).toBe(400);
  });

  it('shows builds below 3.9.26 tracked fills only', async () => {
    const old = { 'x-platform': 'ios', 'x-app-version': '3.9.0' };
    const { body } = await get<{ orders: Order[]; total: number }>('/v1/orders', old);
    expect(body.data.orders.map((o) => o.id)).toEqual(['g1', 'o2', 'o1']);
    expect(body.data.total).toBe(3);
  });
});

describe('GET /v1/trades', () => {
  it('lists fills newest first with the total, asset_id and its coin_id alias', async () => {
    const { status, body } = await get<{ trades: Trade[]; total: number }>('/v1/trades');
    expect(status).toBe(200);
    expect(TradesSchema.safeParse(body.data).success).toBe(true);
    expect(body.data.total).toBe(5);
    expect(body.data.trades.map((t) => t.external_id)).toEqual(['g1', 'f4', 'f3', 'f2', 'f1']);
    for (const t of body.data.trades) expect(t.coin_id).toBe(t.asset_id);
    expect(body.data.trades.find((t) => t.external_id === 'f4')?.asset_id).toBeNull();
    // The account asset block, as positions and balances carry it; null for a pair that maps to none.
    const assets = new Map(body.data.trades.map((t) => [t.external_id, t.asset]));
    expect(assets.get('f1')).toMatchObject({ id: 'bitcoin', symbol: 'BTC', asset_class: 'coins' });
    expect(assets.get('g1')).toMatchObject({ id: 'ethereum' });
    expect(assets.get('f4')).toBeNull();
  });

  it('pages fills and applies the same filters', async () => {
    const page = await get<{ trades: Trade[]; total: number }>('/v1/trades?limit=2&offset=2&connection_id=bybit');
    expect(page.body.data.trades.map((t) => t.external_id)).toEqual(['f2', 'f1']);
    expect(page.body.data.total).toBe(4);
    const iso = (t: number) => encodeURIComponent(new Date(t).toISOString());
    const window = await get<{ trades: Trade[] }>(`/v1/trades?start=${iso(T0)}&end=${iso(T0 + hour)}`);
    expect(window.body.data.trades.map((t) => t.external_id)).toEqual(['f2', 'f1']);
    const none = await get<{ trades: Trade[]; total: number }>('/v1/trades?limit=0');
    expect(none.body.data).toEqual({ trades: [], total: 5 });
  });

  it('shows builds below 3.9.26 tracked fills only', async () => {
    const old = { 'x-platform': 'android', 'x-app-version': '3.9.25' };
    const { body } = await get<{ trades: Trade[]; total: number }>('/v1/trades?limit=2', old);
    expect(body.data.total).toBe(4);
    expect(body.data.trades.map((t) => t.external_id)).toEqual(['g1', 'f3']);
  });
});
