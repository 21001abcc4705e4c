import { SIGNAL_CONTROLS } from '@marketlens/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { FREE_SIGNAL_ROWS } from '../screener.js';

interface Body<T> {
  code: number | string;
  data: T;
}
interface AssetRef {
  id: string;
  asset_class: string;
}
interface Screener {
  asset_class: string;
  timeframe: string;
  assets_screened: number;
  breakouts: { asset: AssetRef; direction: string }[];
  oversold: { asset: AssetRef; rsi_14: number }[];
  volume_surges: { asset: AssetRef; volume_z: number | null }[];
}
interface SignalList {
  timeframe: string;
  sort: string;
  total: number;
  limit: number;
  restricted: boolean;
  rows: { asset: AssetRef; action: string; confidence: number; score: number; rsi: number | null }[];
}

let h: Harness;
let free: Record<string, string>;
let freeKey: Record<string, string>;
let pro: Record<string, string>;
let proKey: Record<string, string>;

beforeAll(async () => {
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const f = await h.signup();
  free = { 'x-session-token': f.token };
  freeKey = { 'x-api-key': await h.apiKey(f.token) };
  const p = await h.signup();
  await h.storage.users.setTier(p.userId, 'pro');
  pro = { 'x-session-token': p.token };
  proKey = { 'x-api-key': await h.apiKey(p.token) };
});

const get = async <T>(path: string, headers: Record<string, string>) => {
  const r = await h.request(path, { headers });
  return { status: r.status, body: (await r.json()) as Body<T> };
};

describe('GET /v2/assets/screener', () => {
  it('screens a class on d1 and ignores signal controls', async () => {
    const { status, body } = await get<Screener>('/v2/assets/screener', freeKey);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ asset_class: 'coins', timeframe: 'd1' });
    expect(body.data.assets_screened).toBeGreaterThan(40);
    const ids = [...body.data.breakouts, ...body.data.oversold, ...body.data.volume_surges].map((x) => x.asset);
    for (const a of ids) expect(a.asset_class).toBe('coins');
    const withControls = await get<Screener>('/v2/assets/screener?direction=buy&sort=rsi_asc&timeframe=h1', free);
    expect(withControls.status).toBe(200);
    expect(withControls.body.data).toEqual(body.data);
  });

  it('finds hits somewhere in a month of days, sorted as documented', async () => {
    const start = h.clock.now;
    let hits = 0;
    try {
      for (let d = 0; d < 30 && hits === 0; d++) {
        h.clock.now = start + d * 86_400_000;
        const { body } = await get<Screener>('/v2/assets/screener?asset_class=all', pro);
        const s = body.data;
        hits += s.breakouts.length + s.oversold.length + s.volume_surges.length;
        const rsi = s.oversold.map((o) => o.rsi_14);
        expect(rsi).toEqual([...rsi].sort((a, b) => a - b));
      }
    } finally {
      h.clock.now = start;
    }
    expect(hits).toBeGreaterThan(0);
  });

  it('answers 400 for an unknown class', async () => {
    expect((await get('/v2/assets/screener?asset_class=bonds', free)).status).toBe(400);
  });
});

describe('GET /v2/assets/signals', () => {
  it('gives a free caller the top rows by confidence, restricted', async () => {
    const { status, body } = await get<SignalList>('/v2/assets/signals?limit=50', freeKey);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ timeframe: 'd1', sort: 'confidence_desc', restricted: true });
    expect(body.data.rows).toHaveLength(FREE_SIGNAL_ROWS);
    expect(body.data.total).toBeGreaterThan(FREE_SIGNAL_ROWS);
    const c = body.data.rows.map((r) => r.confidence);
    expect(c).toEqual([...c].sort((a, b) => b - a));
  });

  it('refuses every control to a free caller with 402 SignalControlsRestricted', async () => {
    for (const spec of SIGNAL_CONTROLS) {
      const { status, body } = await get(`/v2/assets/signals?${spec.name}=x`, free);
      expect(status).toBe(402);
      expect(body.code).toBe('SignalControlsRestricted');
    }
  });

  it('lets Pro (session or API key) filter and sort, and agrees with the per-asset signal', async () => {
    const all = await get<SignalList>('/v2/assets/signals', proKey);
    expect(all.status).toBe(200);
    expect(all.body.data.restricted).toBe(false);
    expect(all.body.data.rows.length).toBe(all.body.data.total);
    expect(all.body.data.rows.some((r) => r.asset.id === 'tether')).toBe(false);
    const btc = all.body.data.rows.find((r) => r.asset.id === 'bitcoin');
    const single = await get<{ signal: { action: string; score: number } }>('/v2/analysis/bitcoin/signal', pro);
    expect(btc?.action).toBe(single.body.data.signal.action);
    expect(btc?.score).toBeCloseTo(single.body.data.signal.score, 9);

    const band = await get<SignalList>('/v2/assets/signals?rsi_band=40,60&sort=rsi_asc&timeframe=h1', pro);
    expect(band.status).toBe(200);
    expect(band.body.data.timeframe).toBe('h1');
    const rsi = band.body.data.rows.map((r) => r.rsi ?? Number.NaN);
    for (const r of rsi) expect(r >= 40 && r <= 60).toBe(true);
    expect(rsi).toEqual([...rsi].sort((a, b) => a - b));
  });

  it('answers 400 for a timeframe other than h1, m15, d1 and for a malformed control', async () => {
    for (const tf of ['m5', 'm30', 'h4', 'w1', '1h', '']) {
      expect((await get(`/v2/assets/signals?timeframe=${tf}`, pro)).status).toBe(400);
    }
    expect((await get('/v2/assets/signals?timeframe=m15', free)).status).toBe(200);
    expect((await get('/v2/assets/signals?rsi_band=70,30', pro)).status).toBe(400);
    expect((await get('/v2/assets/signals?direction=up', pro)).status).toBe(400);
  });

  it('every direction filter keeps only that action (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('buy', 'hold', 'sell'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (d, m) => {
          const { status, body } = await get<SignalList>(
            `/v2/assets/signals?direction=${d}&min_confidence=${m.toFixed(3)}`,
            pro,
          );
          expect(status).toBe(200);
          for (const r of body.data.rows) {
            expect(r.action).toBe(d);
            expect(r.confidence).toBeGreaterThanOrEqual(Number(m.toFixed(3)));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('lists on bar close', () => {
  it('screen and rank the newest closed candles, never the one still forming', async () => {
    const { runScreeners } = await import('@marketlens/core');
    const local = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    local.clock.now = Date.UTC(2026, 0, 15, 13, 21, 0);
    const { token } = await local.signup();
    const headers = { 'x-session-token': token };
    const screener = (await (await local.request('/v2/assets/screener?asset_class=coins', { headers })).json()) as Body<
      Screener & { as_of: string }
    >;
    expect(screener.data.as_of).toBe(new Date(Date.UTC(2026, 0, 14)).toISOString());
    // The same screens over the venue's candles without the live day.
    const ids = ['bitcoin', 'ethereum', 'solana'];
    const inputs = await Promise.all(
      ids.map(async (asset_id) => {
        const { candles } = await local.market.candles({
          asset_id,
          timeframe: 'd1',
          limit: 500,
          end: Date.UTC(2026, 0, 15),
        });
        return { asset_id, candles };
      }),
    );
    const expected = runScreeners(inputs);
    const got = (xs: { asset: AssetRef }[]) =>
      xs
        .map((x) => x.asset.id)
        .filter((id) => ids.includes(id))
        .sort();
    expect(got(screener.data.breakouts)).toEqual(expected.breakouts.map((x) => x.asset_id).sort());
    expect(got(screener.data.volume_surges)).toEqual(expected.volume_surges.map((x) => x.asset_id).sort());
    const list = (await (await local.request('/v2/assets/signals?timeframe=h1', { headers })).json()) as Body<
      SignalList & { as_of: string }
    >;
    expect(list.data.as_of).toBe(new Date(Date.UTC(2026, 0, 15, 12)).toISOString());
  });
});
