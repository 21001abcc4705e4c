import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import type { Candles } from '../types.js';
import { prefixCandles } from './internal.js';

/** One price row of a {@link VolumeProfile}. */
export interface VolumeBin {
  low: number;
  high: number;
  /** Volume traded inside `[low, high]` (candle counts when the profile's basis is `'time'`). */
  volume: number;
}

/** Volume at price over a window of candles. */
export interface VolumeProfile {
  /** Point of control: the middle of the row with the most volume. */
  poc: number;
  /** Bottom of the value area (the rows around the POC holding `valueArea` of the volume). */
  value_area_low: number;
  /** Top of the value area. */
  value_area_high: number;
  /** Sum of the window's volume (0 when the venue reports none). */
  total_volume: number;
  /** `'volume'`, or `'time'` when the window has no volume and each candle counts 1 (a TPO profile). */
  basis: 'volume' | 'time';
  /** Rows from the lowest price up. */
  bins: VolumeBin[];
}

/** Options of {@link volumeProfile}. */
export interface VolumeProfileOptions {
  /** Number of price rows. Default 24 (TradingView's Volume Profile "row size"). */
  bins?: number;
  /** Share of the volume the value area holds, in (0, 1]. Default 0.7. */
  valueArea?: number;
  /** Number of candles, ending at `asOf`, the profile covers. Default: all of them. */
  window?: number;
  /** Profile as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
}

/**
 * Row volumes of candles `start..end` into `out` (length = rows) over `[lo, lo + rows * step]`.
 * Each candle's volume is spread uniformly over its `[low, high]` range and split between the rows
 * it overlaps; a candle with no range puts it all in its row. When `byTime`, each candle weighs 1.
 * @internal
 */
export function binVolumes(
  candles: Candles,
  start: number,
  end: number,
  lo: number,
  step: number,
  byTime: boolean,
  out: Float64Array,
): void {
  const { high, low, volume } = candles;
  const rows = out.length;
  const last = rows - 1;
  for (let i = start; i <= end; i++) {
    const v = byTime ? 1 : volume[i];
    if (v === 0) continue;
    const l = low[i];
    const h = high[i];
    let a = step > 0 ? Math.floor((l - lo) / step) : 0;
    let b = step > 0 ? Math.floor((h - lo) / step) : 0;
    if (a > last) a = last;
    if (b > last) b = last;
    if (a < 0) a = 0;
    if (b < 0) b = 0;
    if (a === b || !(h > l)) {
      out[a] += v;
      continue;
    }
    const perPrice = v / (h - l);
    for (let k = a; k <= b; k++) {
      const edgeLo = k === a ? l : lo + k * step;
      const edgeHi = k === b ? h : lo + (k + 1) * step;
      if (edgeHi > edgeLo) out[k] += perPrice * (edgeHi - edgeLo);
    }
  }
}

/** Index of the row with the most volume; ties go to the row whose middle is nearest `mark`, then the lower. */
function pocRow(vol: Float64Array, lo: number, step: number, mark: number): number {
  let best = 0;
  let bestDist = Math.abs(lo + 0.5 * step - mark);
  for (let k = 1; k < vol.length; k++) {
    if (vol[k] < vol[best]) continue;
    const dist = Math.abs(lo + (k + 0.5) * step - mark);
    if (vol[k] > vol[best] || dist < bestDist) {
      best = k;
      bestDist = dist;
    }
  }
  return best;
}

/**
 * The value area around `poc`: the rows added one at a time on the side with the larger next row
 * (both on a tie) until they hold `share` of `total`. Returns `[first, last]` row indices.
 * @internal
 */
export function valueAreaRows(vol: Float64Array, poc: number, total: number, share: number): [number, number] {
  const target = share * total;
  let a = poc;
  let b = poc;
  let acc = vol[poc];
  while (acc < target) {
    const up = b + 1 < vol.length ? vol[b + 1] : -1;
    const down = a > 0 ? vol[a - 1] : -1;
    if (up < 0 && down < 0) break;
    if (up >= down) {
      b++;
      acc += up;
    }
    if (down >= up) {
      a--;
      acc += down;
    }
  }
  return [a, b];
}

/** The profile of candles `start..end` (already validated). @internal */
export function profileOf(candles: Candles, start: number, end: number, rows: number, share: number): VolumeProfile {
  const { high, low, close, volume } = candles;
  let lo = low[start];
  let hi = high[start];
  let total = 0;
  for (let i = start; i <= end; i++) {
    if (low[i] < lo) lo = low[i];
    if (high[i] > hi) hi = high[i];
    total += volume[i];
  }
  const byTime = !(total > 0);
  const mark = close[end];
  const count = hi > lo ? rows : 1;
  const step = (hi - lo) / count;
  const vol = new Float64Array(count);
  binVolumes(candles, start, end, lo, step, byTime, vol);
  const weight = byTime ? end - start + 1 : total;
  const poc = pocRow(vol, lo, step, mark);
  const [a, b] = valueAreaRows(vol, poc, weight, share);
  const edge = (k: number): number => (k === count ? hi : lo + k * step);
  const bins: VolumeBin[] = new Array(count);
  for (let k = 0; k < count; k++) bins[k] = { low: edge(k), high: edge(k + 1), volume: vol[k] };
  return {
    poc: count === 1 ? (lo + hi) / 2 : lo + (poc + 0.5) * step,
    value_area_low: edge(a),
    value_area_high: edge(b + 1),
    total_volume: total,
    basis: byTime ? 'time' : 'volume',
    bins,
  };
}

/**
 * Volume profile (volume at price) with point of control and value area (Steidlmayer's Market
 * Profile value area, the CBOT convention of 70%).
 *
 * The price range of the window (lowest low to highest high) is split into `bins` equal rows;
 * each candle's volume is spread uniformly over its own high-low range and credited to the rows it
 * overlaps pro rata. The POC is the middle of the fullest row (ties: the row nearest the last close).
 * The value area starts at the POC row and adds the larger neighbouring row, one row at a time
 * (both on a tie), until it holds `valueArea` of the volume. A window without any volume (some fx
 * feeds) counts each candle as 1 (`basis: 'time'`, a TPO profile); a window with a single price has
 * one row. Defaults: bins 24, valueArea 0.7, the whole series up to `asOf`.
 */
export function volumeProfile(candles: Candles, options?: VolumeProfileOptions): VolumeProfile {
  const rows = checkInt('bins', options?.bins ?? 24, 1, 10_000);
  const share = checkNumber('valueArea', options?.valueArea ?? 0.7, Number.MIN_VALUE, 1);
  const window = options?.window === undefined ? Number.POSITIVE_INFINITY : checkInt('window', options.window, 1, 1e9);
  const { view, end } = prefixCandles(candles, options?.asOf, window);
  const start = Math.max(0, end - window + 1);
  return profileOf(view, start, end, rows, share);
}
