import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candleOpenTime } from '../ports.js';
import { aggregate, type OhlcvRow, readCandles } from './candles.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.UTC(2025, 0, 15, 12, 30); // a Wednesday, mid-candle

/** A venue serving `step` candles opened at multiples of `step` plus `offset`, forward from `since`. */
function venue(steps: Record<string, number>, offset = 0, maxPage = 1000) {
  const calls: { tf: string; since: number; limit: number; until: number }[] = [];
  const fetch = async (tf: string, since: number, limit: number, until: number): Promise<OhlcvRow[]> => {
    calls.push({ tf, since, limit, until });
    const step = steps[tf];
    const rows: OhlcvRow[] = [];
    for (
      let t = Math.ceil((since - offset) / step) * step + offset;
      t <= Math.min(until, NOW) && rows.length < Math.min(limit, maxPage);
      t += step
    ) {
      rows.push([t, t / H, t / H + 2, t / H - 2, t / H + 1, 1]);
    }
    return rows;
  };
  return { fetch, calls };
}

describe('readCandles', () => {
  it('serves the newest candles up to the live one, paging forward', async () => {
    const v = venue({ '1h': H }, 0, 4);
    const c = await readCandles(v.fetch, {
      timeframe: 'h1',
      limit: 10,
      end: undefined,
      now: NOW,
      supported: { '1h': '1h' },
      pageSize: 4,
    });
    expect([...c.time]).toEqual(Array.from({ length: 10 }, (_, i) => candleOpenTime('h1', NOW) - (9 - i) * H));
    expect(v.calls.length).toBe(3);
  });

  it('`end` is exclusive', async () => {
    const v = venue({ '1h': H });
    const end = Date.UTC(2025, 0, 15, 6);
    const c = await readCandles(v.fetch, {
      timeframe: 'h1',
      limit: 2,
      end,
      now: NOW,
      supported: { '1h': '1h' },
      pageSize: 100,
    });
    expect([...c.time]).toEqual([end - 2 * H, end - H]);
  });

  it('builds a missing timeframe from the next shorter one', async () => {
    const v = venue({ '1h': H });
    const c = await readCandles(v.fetch, {
      timeframe: 'h4',
      limit: 3,
      end: undefined,
      now: NOW,
      supported: { '1h': '1h' },
      pageSize: 1000,
    });
    const last = candleOpenTime('h4', NOW);
    expect([...c.time]).toEqual([last - 8 * H, last - 4 * H, last]);
    // The live 4h candle holds the hourly candles opened so far.
    expect(c.close[2]).toBe(candleOpenTime('h1', NOW) / H + 1);
    expect(v.calls.every((call) => call.tf === '1h')).toBe(true);
  });

  it('rebuckets a venue whose weeks start on Thursday into Monday weeks', async () => {
    const v = venue({ '1w': 7 * D, '1d': D });
    const c = await readCandles(v.fetch, {
      timeframe: 'w1',
      limit: 2,
      end: undefined,
      now: NOW,
      supported: { '1w': 10080, '1d': 1440 },
      pageSize: 1000,
    });
    expect([...c.time].map((t) => new Date(t).getUTCDay())).toEqual([1, 1]);
    expect(c.time[1]).toBe(candleOpenTime('w1', NOW));
    expect(v.calls.map((x) => x.tf)).toEqual(['1w', '1d']);
  });

  it('an empty venue gives empty candles', async () => {
    const c = await readCandles(async () => [], {
      timeframe: 'h1',
      limit: 5,
      end: undefined,
      now: NOW,
      supported: { '1h': 1 },
      pageSize: 10,
    });
    expect(c.time.length).toBe(0);
  });
});

describe('aggregate', () => {
  it('folds finer candles: first open, max high, min low, last close, summed volume; drops a leading partial bucket', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.double({ min: 1, max: 100, noNaN: true }), { minLength: 4, maxLength: 40 }),
        (skip, closes) => {
          const start = Date.UTC(2025, 0, 6) + skip * H;
          const rows = closes.map((c, i) => ({
            time: start + i * H,
            open: c,
            high: c + 1,
            low: c - 1,
            close: c,
            volume: 1,
          }));
          const out = aggregate(rows, 'h4');
          for (const bucket of out) {
            const members = rows.filter((r) => candleOpenTime('h4', r.time) === bucket.time);
            expect(members[0].time).toBe(bucket.time);
            expect(bucket.open).toBe(members[0].open);
            expect(bucket.close).toBe(members[members.length - 1].close);
            expect(bucket.high).toBe(Math.max(...members.map((m) => m.high)));
            expect(bucket.low).toBe(Math.min(...members.map((m) => m.low)));
            expect(bucket.volume).toBe(members.length);
          }
          if (skip > 0) expect(out[0]?.time ?? Number.POSITIVE_INFINITY).toBeGreaterThan(start);
        },
      ),
    );
  });
});
