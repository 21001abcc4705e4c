import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';

interface Row {
  id: string;
  asset_class: string;
  price: number | null;
  change_1h_pct: number | null;
  change_24h_pct: number | null;
  change_7d_pct: number | null;
  volume_24h_usd: number | null;
  market_type: string | null;
  favorites?: number;
}
interface Body<T> {
  code: number | string;
  data: T;
}

let h: Harness;
let session: Record<string, string>;
let key: Record<string, string>;

beforeAll(async () => {
  h = harness();
  const { token } = await h.signup();
  session = { 'x-session-token': token };
  key = { 'x-api-key': await h.apiKey(token) };
});

const get = async <T>(path: string, headers = session) => {
  const r = await h.request(path, { headers });
  return { status: r.status, body: (await r.json()) as Body<T> };
};
const send = async <T>(method: string, path: string, body?: unknown, headers = session) => {
  const r = await h.request(path, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as Body<T> };
};

describe('GET /v2/assets/', () => {
  it('lists coins by 24h volume with the three change columns', async () => {
    const { status, body } = await get<Row[]>('/v2/assets/', key);
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThan(20);
    expect(new Set(body.data.map((r) => r.asset_class))).toEqual(new Set(['coins']));
    const btc = body.data.find((r) => r.id === 'bitcoin');
    for (const k of ['price', 'change_1h_pct', 'change_24h_pct', 'change_7d_pct'] as const) {
      expect(typeof btc?.[k]).toBe('number');
    }
    const volumes = body.data.map((r) => r.volume_24h_usd).filter((v): v is number => v !== null);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
  });

  it('filters by class; all includes fx; stocks without spot are priced from derivatives', async () => {
    const stocks = (await get<Row[]>('/v2/assets/?asset_class=stocks')).body.data;
    expect(new Set(stocks.map((r) => r.asset_class))).toEqual(new Set(['stocks']));
    expect(stocks.find((r) => r.id === 'stock-coin')).toMatchObject({ market_type: 'derivatives' });
    expect(stocks.find((r) => r.id === 'stock-coin')?.price).toEqual(expect.any(Number));
    const all = (await get<Row[]>('/v2/assets/?asset_class=all&limit=500')).body.data;
    expect(new Set(all.map((r) => r.asset_class))).toEqual(new Set(['coins', 'stocks', 'fx', 'external']));
    expect((await get('/v2/assets/?asset_class=bonds')).status).toBe(400);
  });

  it('sorts by a change column either way and honours limit', async () => {
    const rows = (await get<Row[]>('/v2/assets/?sort=change_24h&sort_dir=asc&limit=5')).body.data;
    expect(rows).toHaveLength(5);
    const v = rows.map((r) => r.change_24h_pct ?? Number.POSITIVE_INFINITY);
    expect(v).toEqual([...v].sort((a, b) => a - b));
  });
});

describe('favorites (idempotent)', () => {
  it('starts with the three defaults, and adding or removing twice succeeds', async () => {
    const local = await h.signup();
    const s = { 'x-session-token': local.token };
    const ids = async () => (await get<Row[]>('/v2/assets/favorites', s)).body.data.map((r) => r.id).sort();
    expect(await ids()).toEqual(['bitcoin', 'ethereum', 'solana']);

    for (let i = 0; i < 2; i++) {
      const r = await send('POST', '/v2/assets/favorites', { asset_id: 'stock-aapl' }, s);
      expect([r.status, r.body.data]).toEqual([200, { asset_id: 'stock-aapl', is_favorite: true }]);
    }
    expect(await ids()).toEqual(['bitcoin', 'ethereum', 'solana', 'stock-aapl']);
    expect((await get<Row[]>('/v2/assets/favorites?asset_class=stocks', s)).body.data.map((r) => r.id)).toEqual([
      'stock-aapl',
    ]);

    for (let i = 0; i < 2; i++) {
      const r = await send('DELETE', '/v2/assets/favorites/bitcoin', undefined, s);
      expect([r.status, r.body.data]).toEqual([200, { asset_id: 'bitcoin', is_favorite: false }]);
    }
    expect(await ids()).toEqual(['ethereum', 'solana', 'stock-aapl']);
  });

  it('404s an unknown asset and refuses API keys and missing bodies', async () => {
    const unknown = await send('POST', '/v2/assets/favorites', { asset_id: 'no-such-coin' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'UnknownAsset']);
    expect((await send('POST', '/v2/assets/favorites', {})).status).toBe(400);
    expect((await get('/v2/assets/favorites', key)).status).toBe(401);
    expect((await send('POST', '/v2/assets/favorites', { asset_id: 'bitcoin' }, key)).status).toBe(401);
  });

  it('ranks /v2/assets/popular by favorites count', async () => {
    const local = harness();
    for (let i = 0; i < 3; i++) {
      const { token } = await local.signup();
      const s = { 'x-session-token': token, 'content-type': 'application/json' };
      if (i < 2)
        await local.request('/v2/assets/favorites', { method: 'POST', headers: s, body: '{"asset_id":"fx-eurusd"}' });
      if (i === 0) await local.request('/v2/assets/favorites/solana', { method: 'DELETE', headers: s });
    }
    const { token } = await local.signup();
    const r = await local.request('/v2/assets/popular?limit=4', { headers: { 'x-session-token': token } });
    const rows = ((await r.json()) as Body<Row[]>).data;
    // Four users hold the defaults (one dropped solana); two favorited EUR/USD.
    expect(rows.map((x) => [x.id, x.favorites])).toEqual([
      ['bitcoin', 4],
      ['ethereum', 4],
      ['solana', 3],
      ['fx-eurusd', 2],
    ]);
  });
});

describe('legacy /v1/assets/coins/favorite', () => {
  it('reads and writes the same list, coins only on read', async () => {
    const local = await h.signup();
    const s = { 'x-session-token': local.token };
    expect((await send('POST', '/v1/assets/coins/favorite', { coin_id: 'dogecoin' }, s)).status).toBe(200);
    expect((await send('POST', '/v1/assets/coins/favorite', { asset_id: 'dogecoin' }, s)).status).toBe(200);
    expect((await send('POST', '/v1/assets/coins/favorite', { asset_id: 'stock-aapl' }, s)).status).toBe(200);
    expect((await send('POST', '/v1/assets/coins/favorite', {}, s)).status).toBe(400);
    const coins = (await get<Row[]>('/v1/assets/coins/favorite', s)).body.data.map((r) => r.id).sort();
    expect(coins).toEqual(['bitcoin', 'dogecoin', 'ethereum', 'solana']);
    expect((await send('DELETE', '/v1/assets/coins/favorite/dogecoin', undefined, s)).status).toBe(200);
    expect((await send('DELETE', '/v1/assets/coins/favorite/dogecoin', undefined, s)).status).toBe(200);
    const v2 = (await get<Row[]>('/v2/assets/favorites', s)).body.data.map((r) => r.id).sort();
    expect(v2).toEqual(['bitcoin', 'ethereum', 'solana', 'stock-aapl']);
  });
});
