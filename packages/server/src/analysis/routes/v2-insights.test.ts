import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { aboveAverage } from '../insights.js';

interface Body<T> {
  code: number | string;
  data: T;
}
interface Insights {
  venue: string;
  prices: { asset: { id: string }; price: number | null; volume_24h_usd: number | null }[];
  funding: {
    markets: number;
    positive: number;
    negative: number;
    average_rate: number | null;
    top: { asset: { id: string }; funding_rate: number | null }[];
  };
  breadth: {
    assets: number;
    above_sma: number;
    below_sma: number;
    above_sma_share: number | null;
    advancers: number;
    decliners: number;
    unchanged: number;
  };
}
interface FgRow {
  asset: { id: string };
  is_stablecoin: boolean;
  score: number | null;
  zone: string | null;
  change_24h_pct: number | null;
  volume_24h_usd: number | null;
  funding_rate: number | null;
}
interface FgList {
  total: number;
  limit: number;
  assets: FgRow[];
}

let h: Harness;
let session: Record<string, string>;
let key: Record<string, string>;

beforeAll(async () => {
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const { token } = await h.signup();
  session = { 'x-session-token': token };
  key = { 'x-api-key': await h.apiKey(token) };
});

const get = async <T>(path: string, headers = session) => {
  const r = await h.request(path, { headers });
  return { status: r.status, body: (await r.json()) as Body<T> };
};

describe('GET /v2/insights', () => {
  it('has live prices, funding and breadth of the coins', async () => {
    const { status, body } = await get<Insights>('/v2/insights', key);
    expect(status).toBe(200);
    const d = body.data;
    expect(d.prices).toHaveLength(10);
    expect(d.prices.map((p) => p.asset.id)).not.toContain('tether');
    const v = d.prices.map((p) => p.volume_24h_usd ?? 0);
    expect(v).toEqual([...v].sort((a, b) => b - a));
    expect(d.funding.markets).toBeGreaterThan(10);
    expect(d.funding.positive + d.funding.negative).toBeLessThanOrEqual(d.funding.markets);
    expect(d.funding.top.length).toBe(10);
    for (const f of d.funding.top) expect(typeof f.funding_rate).toBe('number');
    const b = d.breadth;
    expect(b.assets).toBeGreaterThan(40);
    expect(b.above_sma + b.below_sma).toBe(b.assets);
    expect(b.above_sma_share).toBeCloseTo(b.above_sma / b.assets, 12);
    expect(b.advancers + b.decliners + b.unchanged).toBeGreaterThan(40);
  });

  it('needs a credential', async () => {
    expect((await get('/v2/insights', {})).status).toBe(401);
  });
});

describe('aboveAverage', () => {
  it('is null below the period and compares the last close with the mean', () => {
    expect(aboveAverage([1, 2, 3], 5)).toBeNull();
    expect(aboveAverage([1, 1, 1, 1, 5], 5)).toBe(true);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 3, maxLength: 80 }), (xs) => {
        const r = aboveAverage(xs, 3);
        const tail = xs.slice(-3);
        const mean = tail.reduce((s, x) => s + x, 0) / 3;
        expect(r).toBe((xs.at(-1) ?? 0) > mean);
      }),
    );
  });
});

describe('GET /v2/insights/fear_greed', () => {
  it('ranks coins by score, stablecoins excluded by default, 50 at most', async () => {
    const { status, body } = await get<FgList>('/v2/insights/fear_greed', key);
    expect(status).toBe(200);
    const rows = body.data.assets;
    expect(body.data.limit).toBe(50);
    expect(rows.length).toBeLessThanOrEqual(50);
    expect(rows.some((r) => r.is_stablecoin)).toBe(false);
    const s = rows.map((r) => r.score ?? -1);
    expect(s).toEqual([...s].sort((a, b) => b - a));
    expect(rows.find((r) => r.asset.id === 'bitcoin')?.funding_rate).toEqual(expect.any(Number));

    const withStables = await get<FgList>('/v2/insights/fear_greed?exclude_stables=false&limit=100');
    expect(withStables.body.data.assets.some((r) => r.is_stablecoin)).toBe(true);
    expect(withStables.body.data.total).toBeGreaterThan(body.data.total);
  });

  it('agrees with the analysis of the asset', async () => {
    const rows = (await get<FgList>('/v2/insights/fear_greed?limit=100')).body.data.assets;
    const a = await get<{ fear_greed: { score: number | null } }>('/v2/analysis/ethereum');
    expect(rows.find((r) => r.asset.id === 'ethereum')?.score).toBe(a.body.data.fear_greed.score);
  });

  it('clamps limit to 100', async () => {
    const { status, body } = await get<FgList>('/v2/insights/fear_greed?limit=1000&exclude_stables=false');
    expect(status).toBe(200);
    expect(body.data.limit).toBe(100);
    expect(body.data.assets.length).toBe(Math.min(100, body.data.total));
    expect((await get<FgList>('/v2/insights/fear_greed?limit=3')).body.data.assets).toHaveLength(3);
  });

  it('filters by zone and volume and sorts either way (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('volume', 'score', 'change_24h'),
        fc.constantFrom('asc', 'desc'),
        fc.option(fc.constantFrom('extreme_fear', 'fear', 'neutral', 'greed', 'extreme_greed'), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 5_000_000_000 }), { nil: undefined }),
        async (sort, dir, zone, minVolume) => {
          const q = new URLSearchParams({ sort, sort_dir: dir, limit: '100' });
          if (zone) q.set('zone', zone);
          if (minVolume !== undefined) q.set('min_volume', String(minVolume));
          const { status, body } = await get<FgList>(`/v2/insights/fear_greed?${q}`);
          expect(status).toBe(200);
          const rows = body.data.assets;
          for (const r of rows) {
            if (zone) expect(r.zone).toBe(zone);
            if (minVolume !== undefined) expect(r.volume_24h_usd ?? -1).toBeGreaterThanOrEqual(minVolume);
          }
          const key = (r: FgRow) =>
            sort === 'volume' ? r.volume_24h_usd : sort === 'score' ? r.score : r.change_24h_pct;
          const values = rows.map(key).filter((x): x is number => x !== null);
          const sorted = [...values].sort((a, b) => (dir === 'asc' ? a - b : b - a));
          expect(values).toEqual(sorted);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('answers 400 for bad parameters', async () => {
    for (const q of [
      'zone=panic',
      'sort=name',
      'sort_dir=up',
      'limit=0',
      'limit=abc',
      'min_volume=-1',
      'exclude_stables=yes',
    ]) {
      const { status, body } = await get(`/v2/insights/fear_greed?${q}`);
      expect(status, q).toBe(400);
      expect(body.code).toBe('InvalidRequest');
    }
  });
});
