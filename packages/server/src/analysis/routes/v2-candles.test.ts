import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';

interface Bar {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
interface Candles {
  asset: { id: string };
  timeframe: string;
  as_of: string;
  candles: Bar[];
  live: Bar | null;
}

describe('GET /v2/analysis/{asset_id}/candles', () => {
  it('answers the closed candles the analysis of the same query reads, and the live one apart', async () => {
    const h = harness();
    const { token } = await h.signup();
    const headers = { 'x-session-token': token };
    const res = await h.request('/v2/analysis/bitcoin/candles?limit=120', { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const data = ((await res.json()) as { data: Candles }).data;
    const analysis = (
      (await (await h.request('/v2/analysis/bitcoin?limit=120', { headers })).json()) as {
        data: { as_of: string; indicators: { close: number }; live: { price: number; time: string } | null };
      }
    ).data;
    expect(data.asset.id).toBe('bitcoin');
    expect(data.timeframe).toBe('d1');
    expect(data.candles).toHaveLength(120);
    const last = data.candles[data.candles.length - 1];
    expect(last.time).toBe(analysis.as_of);
    expect(data.as_of).toBe(analysis.as_of);
    expect(last.close).toBe(analysis.indicators.close);
    // Every candle closed by the clock; the live one is the next, and its close is the live mark.
    for (const c of data.candles) {
      expect(Date.parse(c.time) + 86_400_000).toBeLessThanOrEqual(h.clock.now);
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
    }
    for (let i = 1; i < data.candles.length; i++) {
      expect(Date.parse(data.candles[i].time) - Date.parse(data.candles[i - 1].time)).toBe(86_400_000);
    }
    expect(data.live).not.toBeNull();
    expect(Date.parse(data.live?.time ?? '')).toBe(Date.parse(last.time) + 86_400_000);
    expect(data.live?.close).toBe(analysis.live?.price);
  });

  it('applies the analysis gates and answers bad input with its ErrorResponse', async () => {
    const h = harness();
    const { token } = await h.signup();
    const headers = { 'x-session-token': token };
    const cases: [string, number, string | number][] = [
      ['/v2/analysis/bitcoin/candles?timeframe=h1', 402, 1004],
      ['/v2/analysis/bitcoin/candles?limit=2000', 402, 1005],
      ['/v2/analysis/no-such-asset/candles', 400, 'UnknownAsset'],
      ['/v2/analysis/tether/candles', 400, 'StablecoinNotAnalyzed'],
      ['/v2/analysis/bitcoin/candles?timeframe=y7', 400, 'InvalidRequest'],
      ['/v2/analysis/bitcoin/candles?limit=abc', 400, 'InvalidRequest'],
    ];
    for (const [path, status, code] of cases) {
      const res = await h.request(path, { headers });
      expect([path, res.status, ((await res.json()) as { code: string | number }).code]).toEqual([path, status, code]);
    }
    expect((await h.request('/v2/analysis/bitcoin/candles')).status).toBe(401);
  });
});
