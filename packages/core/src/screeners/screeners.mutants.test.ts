// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the breakout and volume-surge screens on hand-built series whose expected hits follow from
// the rules in their documentation, and runScreeners' input checks, ranking and limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atr } from '../indicators/atr.js';
import { rsi } from '../indicators/rsi.js';
import { stoch } from '../indicators/stoch.js';
import { willr } from '../indicators/willr.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import {
  detectBreakout,
  detectOversold,
  detectVolumeSurge,
  type OversoldHit,
  type PriceZone,
  runScreeners,
} from './screeners.js';
import { quietThenBar } from './test-fixtures.js';

const series = quietThenBar;

describe('detectBreakout on hand-built series', () => {
  it('reports the farthest zone edge crossed this bar, either way', () => {
    const up = series(110, 300);
    const zonesUp: PriceZone[] = [
      { low: 107, high: 108 },
      { low: 104, high: 105 },
      { low: 111, high: 112 },
    ];
    const hit = detectBreakout(toColumns(up), { zones: zonesUp });
    const a = atr(toColumns(up), { period: 14 })[25];
    expect(hit).toMatchObject({
      direction: 'up',
      kind: 'zone',
      level: 108,
      close: 110,
      volume_z: null,
      volume_ratio: 3,
    });
    expect(hit?.distance_pct).toBeCloseTo((100 * 2) / 108, 12);
    expect(hit?.distance_atr).toBeCloseTo(2 / a, 12);
    const down = series(90, 300);
    const zonesDown: PriceZone[] = [
      { low: 95, high: 96 },
      { low: 92, high: 93 },
      { low: 88, high: 89 },
    ];
    expect(detectBreakout(toColumns(down), { zones: zonesDown })).toMatchObject({
      direction: 'down',
      kind: 'zone',
      level: 92,
    });
    // a zone the previous close was already beyond is not crossed this bar
    expect(detectBreakout(toColumns(up), { zones: [{ low: 98, high: 99 }] })).toMatchObject({ kind: 'channel' });
  });

  it('falls back to the prior Donchian channel, and needs the volume to confirm', () => {
    expect(detectBreakout(toColumns(series(110, 300)), { zones: [] })).toMatchObject({
      direction: 'up',
      kind: 'channel',
      level: 101,
    });
    expect(detectBreakout(toColumns(series(90, 300)), { zones: [] })).toMatchObject({
      direction: 'down',
      kind: 'channel',
      level: 99,
    });
    // inside the channel, or on an ordinary volume: nothing
    expect(detectBreakout(toColumns(series(100.5, 300)), { zones: [] })).toBeNull();
    expect(detectBreakout(toColumns(series(110, 149)), { zones: [] })).toBeNull();
    expect(detectBreakout(toColumns(series(110, 150)), { zones: [] })).not.toBeNull();
    // a channel longer than the history has no edge yet
    expect(detectBreakout(toColumns(series(110, 300)), { zones: [], channel: 26 })).toBeNull();
    expect(detectBreakout(toColumns(series(110, 300)), { zones: [], channel: 25 })).not.toBeNull();
    // bar 0 has no previous close
    expect(detectBreakout(toColumns(series(110, 300).slice(0, 1)), { zones: [] })).toBeNull();
  });

  it('rejects bad zones and a bad channel, naming them', () => {
    const c = toColumns(series(110, 300));
    const e = caught(() =>
      detectBreakout(c, {
        zones: [
          { low: 1, high: 2 },
          { low: 3, high: 2 },
        ],
      }),
    );
    expect([e.field, e.index, e.message]).toEqual(['zones', 1, 'zones[1] must have finite low <= high']);
    for (const z of [null, { low: Number.NaN, high: 1 }, { low: 1, high: Number.POSITIVE_INFINITY }]) {
      expect(caught(() => detectBreakout(c, { zones: [z as unknown as PriceZone] })).field).toBe('zones');
    }
    // a zone of one price is valid
    expect(detectBreakout(c, { zones: [{ low: 105, high: 105 }] })).toMatchObject({ level: 105 });
    const notArray = caught(() => detectBreakout(c, { zones: 'x' as unknown as PriceZone[] }));
    expect([notArray.code, notArray.field, notArray.message]).toEqual([
      'invalid_option',
      'zones',
      'zones must be an array of { low, high }',
    ]);
    expect(e.code).toBe('invalid_option');
    expect(caught(() => detectBreakout(c, { channel: 0 })).field).toBe('channel');
  });
});

describe('detectVolumeSurge on hand-built series', () => {
  it('counts 1.5x the mean of equal volumes as a surge, with the change of the close', () => {
    const hit = detectVolumeSurge(toColumns(series(110, 150)));
    expect(hit).toEqual({ volume: 150, volume_z: null, volume_ratio: 1.5, change_pct: expect.any(Number) });
    expect(hit?.change_pct).toBeCloseTo(10, 12);
    expect(detectVolumeSurge(toColumns(series(110, 149)))).toBeNull();
    expect(caught(() => detectVolumeSurge(toColumns(series(110, 150)), { minZ: -1 })).field).toBe('minZ');
  });

  it('reads the z-score against the previous 20 volumes when they spread', () => {
    const rows = series(110, 0).map((r, i) => ({ ...r, volume: i % 2 === 0 ? 90 : 110 }));
    // previous 20: mean 100, population sd 10
    rows[25].volume = 120;
    expect(detectVolumeSurge(toColumns(rows))).toMatchObject({ volume_z: 2, volume_ratio: 1.2 });
    rows[25].volume = 119;
    expect(detectVolumeSurge(toColumns(rows))).toBeNull();
    expect(detectVolumeSurge(toColumns(rows), { minZ: 1.9 })).toMatchObject({ volume: 119 });
  });
});

describe('runScreeners', () => {
  it('checks the list and the limit, and lists assets with bad candles as errors', () => {
    const list = caught(() => runScreeners('x' as unknown as []));
    expect([list.code, list.field, list.message]).toEqual(['invalid_option', 'assets', 'assets must be an array']);
    const noId = caught(() => runScreeners([{ candles: toColumns(series(110, 300)) } as unknown as never]));
    expect([noId.code, noId.field, noId.message]).toEqual([
      'invalid_option',
      'assets',
      'each asset needs an asset_id string',
    ]);
    expect(caught(() => runScreeners([null as unknown as never])).field).toBe('assets');
    expect(caught(() => runScreeners([], { limit: 0 })).field).toBe('limit');
    const r = runScreeners([{ asset_id: 'bad', candles: toColumns([]) }]);
    expect(r.errors).toEqual([{ asset_id: 'bad', code: 'empty_input', message: expect.any(String) }]);
  });

  it('ranks breakouts by ATR distance and surges by ratio, ties by asset_id, and cuts each list to the limit', () => {
    const assets = [
      { asset_id: 'c', candles: toColumns(series(104, 300)), zones: [] },
      { asset_id: 'a', candles: toColumns(series(110, 300)), zones: [] },
      { asset_id: 'b', candles: toColumns(series(110, 300)), zones: [] },
      { asset_id: 'd', candles: toColumns(series(100.5, 200)), zones: [] },
    ];
    const r = runScreeners(assets);
    expect(r.breakouts.map((x) => x.asset_id)).toEqual(['a', 'b', 'c']);
    expect(r.volume_surges.map((x) => x.asset_id)).toEqual(['a', 'b', 'c', 'd']);
    // zones supplied per asset reach the breakout screen
    const zoned = runScreeners([
      { asset_id: 'z', candles: toColumns(series(110, 300)), zones: [{ low: 104, high: 105 }] },
    ]);
    expect(zoned.breakouts[0]).toMatchObject({ kind: 'zone', level: 105 });
    const cut = runScreeners(assets, { limit: 2 });
    expect(cut.breakouts.map((x) => x.asset_id)).toEqual(['a', 'b']);
    expect(cut.volume_surges).toHaveLength(2);
    expect(runScreeners(assets, { limit: 10 }).breakouts).toHaveLength(3);
  });
});

/** `n` quiet bars between `mid - half` and `mid + half` (volume 100), then one bar closing at `close`. */
function quiet(n: number, mid: number, half: number, close: number, volume: number): Candle[] {
  const rows: Candle[] = Array.from({ length: n }, (_, i) => ({
    time: i * 60_000,
    open: mid,
    high: mid + half,
    low: mid - half,
    close: mid,
    volume: 100,
  }));
  rows.push({
    time: n * 60_000,
    open: mid,
    high: Math.max(mid, close) + 1,
    low: Math.min(mid, close) - 1,
    close,
    volume,
  });
  return rows;
}

/** A decline of 1.5% a bar with a small rebound every fourth bar. */
function decline(n: number, rate = 0.985): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p *= i % 4 === 3 ? 1.004 : rate;
    out.push({ time: i, open: o, close: p, high: Math.max(o, p) * 1.002, low: Math.min(o, p) * 0.998, volume: 1000 });
  }
  return out;
}

describe('detectBreakout at its edges', () => {
  const at = (close: number, zones: PriceZone[]) => detectBreakout(toColumns(series(close, 300)), { zones });

  it('crosses a zone upward when close > high >= previous close, the highest edge winning', () => {
    // a close on the zone's top has not crossed it: the channel breakout is reported
    expect(at(110, [{ low: 109, high: 110 }])).toMatchObject({ kind: 'channel', level: 101 });
    // a previous close on the top has not yet crossed it
    expect(at(110, [{ low: 99, high: 100 }])).toMatchObject({ kind: 'zone', level: 100 });
    expect(
      at(110, [
        { low: 104, high: 105 },
        { low: 107, high: 108 },
      ]),
    ).toMatchObject({ kind: 'zone', level: 108 });
  });

  it('crosses a zone downward when close < low <= previous close, the lowest edge winning', () => {
    expect(at(90, [{ low: 90, high: 91 }])).toMatchObject({ kind: 'channel', level: 99 });
    expect(at(90, [{ low: 100, high: 101 }])).toMatchObject({ direction: 'down', kind: 'zone', level: 100 });
    // the previous close was already under the zone
    expect(at(90, [{ low: 101, high: 102 }])).toMatchObject({ kind: 'channel', level: 99 });
    expect(
      at(90, [
        { low: 95, high: 96 },
        { low: 92, high: 93 },
      ]),
    ).toMatchObject({ direction: 'down', kind: 'zone', level: 92 });
    expect(
      at(90, [
        { low: 92, high: 93 },
        { low: 95, high: 96 },
      ]),
    ).toMatchObject({ direction: 'down', kind: 'zone', level: 92 });
  });

  it('needs the close strictly beyond the prior channel', () => {
    expect(at(101, [])).toBeNull();
    expect(at(99, [])).toBeNull();
    expect(at(101.01, [])).toMatchObject({ direction: 'up', level: 101 });
    expect(at(98.99, [])).toMatchObject({ direction: 'down', level: 99 });
  });

  it('checks the zones even when nothing breaks out', () => {
    const bad = [{ low: 2, high: 1 }];
    expect(caught(() => detectBreakout(toColumns(series(100, 100)), { zones: bad })).field).toBe('zones');
    expect(caught(() => detectBreakout(toColumns(series(100, 100)), { zones: bad, asOf: 0 })).field).toBe('zones');
    expect(caught(() => detectOversold(toColumns(series(100, 100)), { zones: bad })).field).toBe('zones');
  });
});

/** detectOversold recomputed from its documentation, with the batch indicators. */
function oversoldByHand(rows: Candle[], zones: PriceZone[], maxDist: number, minOsc: number): OversoldHit | null {
  const cols = toColumns(rows);
  const i = rows.length - 1;
  const r = rsi(cols.close, { period: 14 })[i];
  if (!(r <= 30)) return null;
  const k = stoch(cols, { kPeriod: 14, kSmooth: 3, dPeriod: 3 }).k[i];
  const w = willr(cols, { period: 14 })[i];
  const low = 1 + (k <= 20 ? 1 : 0) + (w <= -80 ? 1 : 0);
  if (low < minOsc) return null;
  const a = atr(cols, { period: 14 })[i];
  const c = cols.close[i];
  const inside = zones.find((z) => z.low <= c && c <= z.high);
  const below = zones.filter((z) => z.high < c).sort((x, y) => y.high - x.high)[0];
  let support: number;
  let kind: 'zone' | 'channel' = 'zone';
  if (inside) support = inside.low;
  else if (below) support = below.high;
  else {
    // the prior 20-bar low, which needs 20 prior bars
    if (i < 20) return null;
    support = Math.min(...rows.slice(i - 20, i).map((x) => x.low));
    kind = 'channel';
  }
  const d = c - support;
  if (Math.abs(d) > maxDist * a) return null;
  return {
    rsi_14: r,
    stoch_k: Number.isFinite(k) ? k : null,
    williams_r: Number.isFinite(w) ? w : null,
    oscillators_low: low,
    support,
    support_kind: kind,
    distance_pct: (100 * d) / Math.abs(support),
    distance_atr: d / a,
  };
}

describe('detectOversold against its documentation', () => {
  it('matches the conditions recomputed from RSI, Stoch %K, Williams %R, ATR and the supports', () => {
    // a decline of 0 to 3% a bar with rebounds to 0.8%, lifted by up to 1.5% a bar in some draws
    // (integers scaled down: fc.double draws mostly near 0)
    const falling = fc
      .tuple(
        fc.constantFrom(0, 0, 50, 100, 150),
        fc.array(
          fc.record({
            step: fc.integer({ min: -300, max: 80 }),
            up: fc.integer({ min: 0, max: 100 }).map((x) => x / 10_000),
            down: fc.integer({ min: 0, max: 100 }).map((x) => x / 10_000),
          }),
          { minLength: 15, maxLength: 50 },
        ),
      )
      .map(([lift, steps]) => {
        let p = 100;
        return steps.map(({ step, up, down }, i) => {
          const o = p;
          p *= 1 + (step + lift) / 10_000;
          return {
            time: i,
            open: o,
            close: p,
            high: Math.max(o, p) * (1 + up),
            low: Math.min(o, p) * (1 - down),
            volume: 1,
          };
        });
      });
    // zones as fractions of the last close, sorted and paired so that they do not overlap
    const edges = fc.array(
      fc.integer({ min: 850, max: 1020 }).map((x) => x / 1000),
      { maxLength: 6 },
    );
    let hits = 0;
    fc.assert(
      fc.property(
        falling,
        edges,
        fc.constantFrom(0, 0.25, 1, 2.5),
        fc.constantFrom(1, 2, 3),
        (rows, fr, maxDist, minOsc) => {
          const c = rows[rows.length - 1].close;
          const e = fr.map((f) => f * c).sort((x, y) => x - y);
          const zones: PriceZone[] = [];
          for (let j = 0; j + 1 < e.length; j += 2) zones.push({ low: e[j], high: e[j + 1] });
          const got = detectOversold(toColumns(rows), { zones, maxDistanceAtr: maxDist, minOscillators: minOsc });
          // as on the wire: a %R of -0 (close at the top of a flat window) reads 0
          const json = (x: unknown) => JSON.parse(JSON.stringify(x));
          const want = oversoldByHand(rows, zones, maxDist, minOsc);
          expect(json(got)).toEqual(json(want));
          if (want !== null) hits++;
        },
      ),
      { numRuns: 300 },
    );
    // about 90 of the 300 draws are oversold: the property tests hits as well as misses
    expect(hits).toBeGreaterThan(30);
  });

  it('counts each oscillator on its own, and always needs RSI <= 30', () => {
    /** `n - 1` bars moving by `rate` (a 0.4% rebound every fourth), then one bar moving by `last`. */
    const path = (rate: number, n: number, last: number): Candle[] => {
      let p = 100;
      return Array.from({ length: n }, (_, i) => {
        const o = p;
        p *= i === n - 1 ? 1 + last : i % 4 === 3 ? 1.004 : rate;
        return { time: i, open: o, close: p, high: Math.max(o, p) * 1.002, low: Math.min(o, p) * 0.998, volume: 1 };
      });
    };
    // [RSI <= 30, %K <= 20, %R <= -80] of the last bar, and the series
    const cases: [boolean, boolean, boolean, Candle[]][] = [
      [true, true, true, path(0.97, 30, -0.05)],
      [true, true, false, path(0.97, 30, 0.08)],
      [true, false, true, path(1, 30, -0.05)],
      [false, true, false, path(0.985, 30, 0.08)],
      [false, false, true, path(1, 30, -0.03)],
      [false, false, false, path(0.985, 45, 0.08)],
    ];
    for (const [lowRsi, lowK, lowR, rows] of cases) {
      const c = toColumns(rows);
      const i = rows.length - 1;
      expect(rsi(c.close, { period: 14 })[i] <= 30).toBe(lowRsi);
      expect(stoch(c, { kPeriod: 14, kSmooth: 3, dPeriod: 3 }).k[i] <= 20).toBe(lowK);
      expect(willr(c, { period: 14 })[i] <= -80).toBe(lowR);
      const close = c.close[i];
      const zones = [{ low: close * 0.99, high: close * 1.01 }];
      for (const minOsc of [1, 2, 3]) {
        const got = detectOversold(c, { zones, maxDistanceAtr: 1000, minOscillators: minOsc });
        const low = 1 + (lowK ? 1 : 0) + (lowR ? 1 : 0);
        expect(got?.oscillators_low ?? null, `${lowRsi} ${lowK} ${lowR} ${minOsc}`).toBe(
          lowRsi && low >= minOsc ? low : null,
        );
        expect(got).toEqual(oversoldByHand(rows, zones, 1000, minOsc));
      }
    }
  });

  it('counts a close on the support as near at any distance, and names bad options', () => {
    const rows = decline(60);
    const c = rows[59].close;
    const on = detectOversold(toColumns(rows), { zones: [{ low: c, high: c * 1.01 }], maxDistanceAtr: 0 });
    expect(on).toMatchObject({ support: c, support_kind: 'zone', distance_atr: 0, distance_pct: 0 });
    expect(caught(() => detectOversold(toColumns(rows), { maxDistanceAtr: -1 })).field).toBe('maxDistanceAtr');
    expect(caught(() => detectOversold(toColumns(rows), { minOscillators: 0 })).field).toBe('minOscillators');
  });
});

describe('runScreeners ranking', () => {
  it('ranks breakouts by |distance_atr|, then |distance_pct|', () => {
    // narrow: 9 above a 101 channel over an ATR near 2; wide: 10 above 105 over an ATR near 10
    const narrow = { asset_id: 'n', candles: toColumns(quiet(25, 100, 1, 110, 300)), zones: [] };
    const wide = { asset_id: 'm', candles: toColumns(quiet(25, 100, 5, 115, 300)), zones: [] };
    const r = runScreeners([wide, narrow]);
    expect(r.breakouts.map((x) => x.asset_id)).toEqual(['n', 'm']);
    expect(Math.abs(r.breakouts[0].distance_pct)).toBeLessThan(Math.abs(r.breakouts[1].distance_pct));
    // the same bars 100 higher: the same ATR distance, a smaller percentage, so ranked after
    const higher = { asset_id: 'a', candles: toColumns(quiet(25, 200, 1, 210, 300)), zones: [] };
    const lower = { asset_id: 'z', candles: toColumns(quiet(25, 100, 1, 110, 300)), zones: [] };
    const t = runScreeners([higher, lower]);
    expect(t.breakouts[0].distance_atr).toBe(t.breakouts[1].distance_atr);
    expect(t.breakouts.map((x) => x.asset_id)).toEqual(['z', 'a']);
  });

  it('ranks volume surges by z-score, then ratio, ties by asset id', () => {
    const surge = (id: string, lo: number, hi: number, v: number) => {
      const rows = series(100, v).map((x, i) => ({ ...x, volume: i === 25 ? v : i % 2 === 0 ? lo : hi }));
      return { asset_id: id, candles: toColumns(rows), zones: [] };
    };
    // z = (v - 100) / sd over the previous 20 (population): a 3 (ratio 1.3), b 2.8 (2.4), c 3 (1.6)
    const r = runScreeners([surge('b', 50, 150, 240), surge('a', 90, 110, 130), surge('c', 80, 120, 160)]);
    expect(r.volume_surges.map((x) => [x.asset_id, x.volume_z])).toEqual([
      ['c', 3],
      ['a', 3],
      ['b', 2.8],
    ]);
    expect(
      runScreeners([surge('y', 90, 110, 130), surge('x', 90, 110, 130)]).volume_surges.map((x) => x.asset_id),
    ).toEqual(['x', 'y']);
  });

  it('lists oversold assets lowest RSI first, with the oversold options and zones, cut to the limit', () => {
    const slow = { asset_id: 'a', candles: toColumns(decline(60)) };
    const steep = { asset_id: 'b', candles: toColumns(decline(60, 0.97)) };
    const r = runScreeners([slow, steep]);
    expect(r.oversold.map((x) => x.asset_id)).toEqual(['b', 'a']);
    expect(r.oversold[0].rsi_14).toBeLessThan(r.oversold[1].rsi_14);
    expect(runScreeners([slow, steep], { limit: 1 }).oversold.map((x) => x.asset_id)).toEqual(['b']);
    expect(runScreeners([slow, steep], { oversold: { maxDistanceAtr: 0 } }).oversold).toEqual([]);
    expect(runScreeners([{ ...slow, zones: [{ low: 1, high: 2 }] }]).oversold).toEqual([]);
  });

  it('lets an error that is not about the candles through', () => {
    const candles = toColumns(series(110, 300));
    const broken = Object.defineProperty({ ...candles }, 'close', {
      get() {
        throw new RangeError('boom');
      },
    });
    expect(() => runScreeners([{ asset_id: 'x', candles: broken }])).toThrow(RangeError);
  });
});
