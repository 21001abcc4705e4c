import {
  ErrorResponseSchema,
  LegacyPositionsSchema,
  PositionAnalysisSchema,
  PositionsSchema,
} from '@marketlens/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { seedAccount } from '../../../test/support/account-seed.js';
import { type Harness, harness } from '../../../test/support/harness.js';
import { setUserTier } from '../../auth/admin.js';

interface Body<T = unknown> {
  success: boolean;
  code: number | string;
  data: T;
  message?: string;
}

type PositionsData = {
  positions: { id: string; pair: string; asset: { id: string } | null; current_price: number | null; notes: string }[];
  unpriced_positions?: { pair: string }[];
  totals: Record<string, number | null>;
};

let h: Harness;
let token: string;
let userId: string;

const auth = (t = token, extra: Record<string, string> = {}) => ({ headers: { 'x-session-token': t, ...extra } });

async function get<T>(path: string, init = auth()): Promise<{ status: number; body: Body<T> }> {
  const res = await h.request(path, init);
  return { status: res.status, body: (await res.json()) as Body<T> };
}

async function patch(path: string, body: unknown, t = token) {
  const res = await h.request(path, {
    method: 'PATCH',
    headers: { 'x-session-token': t, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body<{ notes: string; id: string }> };
}

beforeEach(async () => {
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  ({ token, userId } = await h.signup());
  const at = h.clock.now - 60_000;
  await seedAccount(h.storage, userId, 'bybit', {
    at,
    protectiveSynced: true,
    positions: [
      // Priced by the venue's mark.
      {
        pair: 'BTCUSDT',
        asset_id: 'bitcoin',
        side: 'long',
        size: 0.5,
        entry_price: 90_000,
        mark_price: 100_000,
        margin: 5_000,
        leverage: 10,
        liquidation_price: 81_000,
        opened_at: at - 3 * 86_400_000,
      },
      // Maps to no tracked asset and the venue gave no mark: unpriced.
      { pair: 'ZZZUSDT', asset_id: null, side: 'short', size: 10, entry_price: 2, mark_price: null },
      // Tracked but no venue mark: priced from the service's market data.
      { pair: 'ETHUSDT', asset_id: 'ethereum', side: 'short', size: 2, entry_price: 3_000, mark_price: null },
    ],
    extras: [{ stop_loss: 85_000, take_profit: 0 }],
    balances: [
      { symbol: 'USDT', asset_id: 'tether', total: 1_000, free: 900, used: 100 },
      { symbol: 'btc', asset_id: 'bitcoin', total: 0.1 },
      { symbol: 'ZZZ', asset_id: null, total: 50 },
    ],
  });
});

describe('GET /v2/positions', () => {
  it('lists every position, priced or not, with totals that count unpriced rows', async () => {
    const { status, body } = await get<PositionsData>('/v2/positions');
    expect(status).toBe(200);
    expect(PositionsSchema.safeParse(body.data).success).toBe(true);
    const byPair = new Map(body.data.positions.map((p) => [p.pair, p]));
    expect([...byPair.keys()].sort()).toEqual(['BTCUSDT', 'ETHUSDT', 'ZZZUSDT']);
    const btc = byPair.get('BTCUSDT') as unknown as Record<string, unknown>;
    expect(btc).toMatchObject({
      current_price: 100_000,
      unrealized_pnl: 5_000,
      unrealized_pnl_usd: 5_000,
      stop_loss: 85_000,
      take_profit: null,
      visible: false,
      asset: { id: 'bitcoin', asset_class: 'coins' },
    });
    const zzz = byPair.get('ZZZUSDT') as unknown as Record<string, unknown>;
    expect(zzz.asset).toBeNull();
    for (const key of ['current_price', 'market_value', 'unrealized_pnl', 'daily_pnl', 'ticker_last_updated']) {
      expect(zzz[key]).toBeNull();
    }
    const eth = byPair.get('ETHUSDT');
    expect(eth?.current_price).toBeGreaterThan(0);
    expect(body.data.totals).toMatchObject({
      open_positions_count: 3,
      open_long_positions_count: 1,
      open_short_positions_count: 2,
      priced_positions_count: 2,
      unpriced_positions_count: 1,
    });
    const ethPnl = (eth as unknown as { unrealized_pnl_usd: number }).unrealized_pnl_usd;
    expect(body.data.totals.total_unrealized_pnl_usd).toBeCloseTo(5_000 + ethPnl, 6);
  });

  it("measures daily / weekly PnL from the market's prices 24 h / 7 d ago, not by scaling a frozen venue mark", async () => {
    // The market's perpetual quote of bitcoin: its price 24 h and 7 d before its last read.
    const perp = (await h.market.markets('bitcoin')).find((m) => m.market_type === 'derivatives');
    if (perp === undefined) throw new Error('no bitcoin perpetual');
    const q = await h.market.ticker({ asset_id: 'bitcoin', pair: perp.pair });
    if (q.change_24h_pct === null || q.change_7d_pct === null) throw new Error('changes not reported');
    const ago24h = q.last / (1 + q.change_24h_pct / 100);
    const ago7d = q.last / (1 + q.change_7d_pct / 100);
    // A venue mark of 100,000 that the market has moved away from (the sync's mark, frozen since).
    expect(Math.abs(q.last - 100_000)).toBeGreaterThan(1_000);
    await seedAccount(h.storage, userId, 'okx', {
      at: h.clock.now - 60_000,
      positions: [
        {
          pair: 'BTC-USDT-SWAP',
          asset_id: 'bitcoin',
          side: 'long',
          size: 2,
          entry_price: 90_000,
          mark_price: 100_000,
          opened_at: h.clock.now - 10 * 86_400_000,
        },
      ],
    });
    const read = async () => {
      const { body } = await get<{ positions: (PositionsData['positions'][number] & Record<string, unknown>)[] }>(
        '/v2/positions',
      );
      const p = body.data.positions.find((x) => x.pair === 'BTC-USDT-SWAP');
      if (p === undefined) throw new Error('position not listed');
      return p;
    };
    const p = await read();
    expect(p.current_price).toBe(100_000);
    expect(p.daily_pnl as number).toBeCloseTo(2 * (100_000 - ago24h), 6);
    expect(p.weekly_pnl as number).toBeCloseTo(2 * (100_000 - ago7d), 6);
    // Opened 3 days ago (the seeded BTCUSDT): weekly from the entry, daily still from the market's price.
    const btc = (await get<{ positions: Record<string, unknown>[] }>('/v2/positions')).body.data.positions.find(
      (x) => x.pair === 'BTCUSDT',
    );
    expect(btc?.weekly_pnl).toBeCloseTo(0.5 * (100_000 - 90_000), 6);
    expect(btc?.daily_pnl as number).toBeCloseTo(0.5 * (100_000 - ago24h), 6);
  });

  it('filters by asset_ids and by its coin_ids alias alike', async () => {
    const a = await get<PositionsData>('/v2/positions?asset_ids=bitcoin,ethereum');
    const b = await get<PositionsData>('/v2/positions?coin_ids=bitcoin&coin_ids=ethereum');
    expect(a.body.data.positions.map((p) => p.pair).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(b.body.data).toEqual(a.body.data);
    expect(a.body.data.totals.open_positions_count).toBe(2);
  });

  it('gives builds below 3.9.26 the earlier split shape: tracked only, unpriced apart', async () => {
    const old = auth(token, { 'x-platform': 'ios', 'x-app-version': '3.9.25' });
    const { body } = await get<PositionsData>('/v2/positions', old);
    expect(LegacyPositionsSchema.strict().safeParse(body.data).success).toBe(true);
    expect(body.data.positions.every((p) => p.asset !== null && p.current_price !== null)).toBe(true);
    expect(body.data.unpriced_positions).toEqual([]);
    expect(body.data.totals.open_positions_count).toBe(2);
    const current = await get<PositionsData>(
      '/v2/positions',
      auth(token, { 'x-platform': 'ios', 'x-app-version': '3.9.26' }),
    );
    expect(current.body.data.unpriced_positions).toBeUndefined();
    expect(current.body.data.positions).toHaveLength(3);
  });

  it('is session only', async () => {
    const res = await h.request('/v2/positions');
    expect(res.status).toBe(401);
  });
});

describe('PATCH /v2/positions/{id}', () => {
  it('edits notes and refuses stop_loss, take_profit and visible with 400', async () => {
    const { body } = await get<PositionsData>('/v2/positions');
    const id = body.data.positions[0].id;
    const ok = await patch(`/v2/positions/${id}`, { notes: 'scale out at 110k' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.notes).toBe('scale out at 110k');
    const again = await get<PositionsData>('/v2/positions');
    expect(again.body.data.positions.find((p) => p.id === id)?.notes).toBe('scale out at 110k');
    for (const key of ['stop_loss', 'take_profit', 'visible']) {
      const r = await patch(`/v2/positions/${id}`, { notes: 'x', [key]: key === 'visible' ? true : 1 });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('InvalidRequest');
      expect(r.body.message).toContain(key);
    }
    const cleared = await patch(`/v2/positions/${id}`, { notes: null });
    expect(cleared.body.data.notes).toBe('');
  });

  it("answers 404 for a missing position and for another user's", async () => {
    const { body } = await get<PositionsData>('/v2/positions');
    const id = body.data.positions[0].id;
    const other = await h.signup();
    const foreign = await patch(`/v2/positions/${id}`, { notes: 'mine now' }, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('PositionNotFound');
    expect((await patch('/v2/positions/no-such-position', { notes: 'x' })).status).toBe(404);
    const analysis = await get(`/v2/positions/${id}/analysis`, auth(other.token));
    expect(analysis.status).toBe(404);
    const untouched = await get<PositionsData>('/v2/positions');
    expect(untouched.body.data.positions.find((p) => p.id === id)?.notes).toBe('');
  });
});

describe('GET /v2/positions/{id}/analysis', () => {
  const idOf = async (pair: string) =>
    (await get<PositionsData>('/v2/positions')).body.data.positions.find((p) => p.pair === pair)?.id ?? '';

  it('assesses a priced position on d1 by default', async () => {
    const { status, body } = await get<Record<string, unknown>>(`/v2/positions/${await idOf('BTCUSDT')}/analysis`);
    expect(status).toBe(200);
    expect(PositionAnalysisSchema.safeParse(body.data).success).toBe(true);
    expect(body.data).toMatchObject({
      timeframe: 'd1',
      direction: 'long',
      mark: 100_000,
      mark_source: 'venue',
      entry_price: 90_000,
      stop_loss: 85_000,
      published_at_entry: null,
    });
    expect(body.data.unrealized_r).toBeCloseTo((100_000 - 90_000) / (90_000 - 85_000), 9);
    expect(body.data.liquidation_risk).toMatchObject({ liquidation_price: 81_000 });
  });

  it("reports mark_source 'market' when the service's market data priced a position the venue gave no mark", async () => {
    const { status, body } = await get<Record<string, unknown>>(`/v2/positions/${await idOf('ETHUSDT')}/analysis`);
    expect(status).toBe(200);
    expect(PositionAnalysisSchema.safeParse(body.data).success).toBe(true);
    const eth = (await get<PositionsData>('/v2/positions')).body.data.positions.find((p) => p.pair === 'ETHUSDT');
    expect(body.data).toMatchObject({ mark: eth?.current_price, mark_source: 'market', direction: 'short' });
  });

  it('applies the timeframe gates (402 1004 and 1005) for free callers', async () => {
    const id = await idOf('BTCUSDT');
    const paid = await get(`/v2/positions/${id}/analysis?timeframe=h4`);
    expect(paid.status).toBe(402);
    expect(paid.body.code).toBe(1004);
    const deep = await get(`/v2/positions/${id}/analysis?limit=1000`);
    expect(deep.status).toBe(402);
    expect(deep.body.code).toBe(1005);
    const h1Old = await get(
      `/v2/positions/${id}/analysis?timeframe=h1`,
      auth(token, { 'x-platform': 'android', 'x-app-version': '3.9.29' }),
    );
    expect(h1Old.status).toBe(200);
    await setUserTier(h.storage, userId, 'pro');
    const pro = await get(`/v2/positions/${id}/analysis?timeframe=h4&limit=1000`);
    expect(pro.status).toBe(200);
  });

  it('answers 422 with a reason code for an unpriced position without an asset', async () => {
    const res = await get(`/v2/positions/${await idOf('ZZZUSDT')}/analysis`);
    expect(res.status).toBe(422);
    expect(ErrorResponseSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.code).toBe('PositionUnpricedWithoutAsset');
  });

  it('rejects an unknown timeframe with 400', async () => {
    const res = await get(`/v2/positions/${await idOf('BTCUSDT')}/analysis?timeframe=2h`);
    expect(res.status).toBe(400);
  });

  it('reads `1h` as h1, as every route and tool does (Pro only: 402 code 1004 for a free caller)', async () => {
    const id = await idOf('BTCUSDT');
    for (const timeframe of ['1h', 'h1']) {
      const res = await get(`/v2/positions/${id}/analysis?timeframe=${timeframe}`);
      expect(res.status).toBe(402);
      expect(res.body.code).toBe(1004);
    }
  });
});

describe('balances and summary', () => {
  it('lists balances with null USD figures when unpriced, and a summary', async () => {
    const { status, body } = await get<{
      balances: { symbol: string; balance_usd: number | null; asset: unknown }[];
      total_usd: number;
      unpriced_count: number;
    }>('/v2/balances');
    expect(status).toBe(200);
    const bySymbol = new Map(body.data.balances.map((b) => [b.symbol, b]));
    expect(bySymbol.get('USDT')?.balance_usd).toBe(1_000);
    expect(bySymbol.get('BTC')?.balance_usd).toBeGreaterThan(0);
    expect(bySymbol.get('ZZZ')?.balance_usd).toBeNull();
    expect(body.data.unpriced_count).toBe(1);
    expect(body.data.total_usd).toBeCloseTo(1_000 + (bySymbol.get('BTC')?.balance_usd ?? 0), 6);

    const legacy = await get<{ balances: { symbol: string }[]; unpriced_balances: unknown[] }>(
      '/v2/balances',
      auth(token, { 'x-platform': 'android', 'x-app-version': '3.8.0' }),
    );
    expect(legacy.body.data.balances.map((b) => b.symbol).sort()).toEqual(['BTC', 'USDT']);
    expect(legacy.body.data.unpriced_balances).toEqual([]);

    const filtered = await get<{ balances: { symbol: string }[] }>('/v2/balances?coin_ids=bitcoin');
    expect(filtered.body.data.balances.map((b) => b.symbol)).toEqual(['BTC']);

    const summary = await get<{ positions: Record<string, number>; balances: Record<string, number> }>(
      '/v2/portfolio/summary',
    );
    expect(summary.status).toBe(200);
    expect(summary.body.data.positions.open_positions_count).toBe(3);
    expect(summary.body.data.positions.unpriced_positions_count).toBe(1);
    expect(summary.body.data.balances.total_usd).toBe(body.data.total_usd);
    expect(summary.body.data).toMatchObject({ connections: { count: 1, failing_count: 0, never_synced_count: 0 } });
  });
});

describe('retired position routes', () => {
  it('answers 410 EndpointDeprecated on /v2/positions/manual/*', async () => {
    for (const path of ['/v2/positions/manual', '/v2/positions/manual/abc', '/v2/positions/manual/abc/analysis']) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await h.request(path, { ...auth(), method });
        expect(res.status).toBe(410);
        expect(((await res.json()) as Body).code).toBe('EndpointDeprecated');
      }
    }
    expect((await h.request('/v2/positions/manual/abc')).status).toBe(410);
  });

  it('no longer serves /v2/positions/public/{id}', async () => {
    const res = await h.request('/v2/positions/public/abc', auth());
    expect(res.status).toBe(404);
  });
});
