// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the breakout and volume-surge screens on hand-built series whose expected hits follow from
// the rules in their documentation, and runScreeners' input checks, ranking and limit.
import { describe, expect, it } from 'vitest';
import { atr } from '../indicators/atr.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { toColumns } from '../testing/props.js';
import type { Candle } from '../types.js';
import { detectBreakout, detectVolumeSurge, type PriceZone, runScreeners } from './screeners.js';

/** 25 quiet bars around 100 (high 101, low 99, volume 100), then one bar closing at `close`. */
function series(close: number, volume: number): Candle[] {
  const rows: Candle[] = Array.from({ length: 25 }, (_, i) => ({
    time: i * 60_000,
    open: 100,
    high: 101,
    low: 99,
    close: 100,
    volume: 100,
  }));
  rows.push({
    time: 25 * 60_000,
    open: 100,
    high: Math.max(100, close) + 1,
    low: Math.min(100, close) - 1,
    close,
    volume,
  });
  return rows;
}

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
    expect(notArray.message).toBe('zones must be an array of { low, high }');
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
    expect(caught(() => runScreeners('x' as unknown as [])).message).toBe('assets must be an array');
    const noId = caught(() => runScreeners([{ candles: toColumns(series(110, 300)) } as unknown as never]));
    expect([noId.field, noId.message]).toEqual(['assets', 'each asset needs an asset_id string']);
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
