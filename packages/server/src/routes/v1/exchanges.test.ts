import { EXCHANGE_CATALOG, SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../testing/harness.js';

interface Volume {
  spot_24h_usd: number | null;
  total_24h_usd: number | null;
}
interface Exchange {
  id: string;
  connected: boolean;
  volume: Volume;
  spot_pairs: number;
  futures_pairs: number;
  spot_tickers: { pair: string; market_type: string }[];
  futures_tickers: { pair: string; funding_rate: number | null }[];
}

let h: Harness;
let key: Record<string, string>;
beforeAll(async () => {
  h = harness();
  key = { 'x-api-key': await h.apiKey((await h.signup()).token) };
});

const get = async <T>(path: string) => {
  const r = await h.request(path, { headers: key });
  return { status: r.status, body: (await r.json()) as { code: number | string; data: T } };
};

describe('/v1/exchanges', () => {
  it('lists the catalog; the simulated venue carries live volumes', async () => {
    const { status, body } = await get<Exchange[]>('/v1/exchanges');
    expect(status).toBe(200);
    expect(body.data.map((e) => e.id)).toEqual(EXCHANGE_CATALOG.map((e) => e.id));
    const sim = body.data.find((e) => e.id === SIMULATED_VENUE_ID);
    expect(sim?.volume.total_24h_usd).toBeGreaterThan(0);
    const other = body.data.find((e) => e.id !== SIMULATED_VENUE_ID);
    expect(other?.volume.total_24h_usd).toBeNull();
    expect(body.data.every((e) => e.connected === false)).toBe(true);
  });

  it('details the simulated venue with its tickers', async () => {
    const { body } = await get<Exchange>(`/v1/exchanges/${SIMULATED_VENUE_ID}`);
    expect(body.data.spot_pairs).toBe(body.data.spot_tickers.length);
    expect(body.data.futures_pairs).toBe(body.data.futures_tickers.length);
    expect(body.data.spot_tickers.map((t) => t.pair)).toContain('BTC/USDT');
    expect(body.data.futures_tickers.find((t) => t.pair === 'BTC/USDT:USDT')?.funding_rate).toEqual(expect.any(Number));
  });

  it('404s an unknown exchange', async () => {
    const { status, body } = await get('/v1/exchanges/no-such-venue');
    expect([status, body.code]).toEqual([404, 'UnknownExchange']);
  });
});
