import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, nanArray } from './internal/validate.js';

const FIELDS = ['high', 'low', 'close'] as const;

/** Options of {@link ichimoku}. */
export interface IchimokuOptions {
  /** Period of the conversion line (tenkan-sen). Default 9. */
  conversion?: number;
  /** Period of the base line (kijun-sen). Default 26. */
  base?: number;
  /** Period of leading span B (senkou span B). Default 52. */
  spanB?: number;
  /** How far ahead the leading spans (and how far back the lagging span) are drawn. Default 26. */
  displacement?: number;
}

/** Output of {@link ichimoku}: columns aligned with the input. */
export type IchimokuResult<T = Float64Array> = {
  /** Tenkan-sen: midpoint of the highest high and lowest low of the last `conversion` bars. */
  conversion: T;
  /** Kijun-sen: the same midpoint over the last `base` bars. */
  base: T;
  /** Senkou span A as computed at this bar: `(conversion + base) / 2`; a chart draws it ahead. */
  spanA: T;
  /** Senkou span B as computed at this bar: the midpoint over `spanB` bars; drawn ahead. */
  spanB: T;
  /** The span A value a chart shows at this bar: `spanA[i - (displacement - 1)]`. */
  spanAPlotted: T;
  /** The span B value a chart shows at this bar: `spanB[i - (displacement - 1)]`. */
  spanBPlotted: T;
  /** Chikou span: this bar's close (a chart draws it `displacement - 1` bars back). */
  lagging: T;
};

interface Params {
  conversion: number;
  base: number;
  spanB: number;
  displacement: number;
  lookback: number;
}

function paramsOf(options?: IchimokuOptions): Params {
  const conversion = checkInt('conversion', options?.conversion ?? 9, 1);
  const base = checkInt('base', options?.base ?? 26, 1);
  const spanB = checkInt('spanB', options?.spanB ?? 52, 1);
  const displacement = checkInt('displacement', options?.displacement ?? 26, 1);
  const lookback = Math.max(conversion, base, spanB) - 1 + displacement - 1;
  return { conversion, base, spanB, displacement, lookback };
}

/**
 * Writes `(highest high + lowest low) / 2` of each `period`-bar window into `out` (from index
 * `period - 1`): TA-Lib `MIDPRICE`, in O(n) by remembering where the extremes are and
 * rescanning the window only when one of them leaves it (as TA-Lib's `MAX`/`MIN` do).
 */
function midpointInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  n: number,
  period: number,
  out: Float64Array,
): void {
  let hiIdx = -1;
  let loIdx = -1;
  let hi = 0;
  let lo = 0;
  for (let i = period - 1; i < n; i++) {
    const trailing = i - period + 1;
    const h = high[i];
    if (hiIdx < trailing) {
      hiIdx = trailing;
      hi = high[trailing];
      for (let j = trailing + 1; j <= i; j++) {
        if (high[j] >= hi) {
          hiIdx = j;
          hi = high[j];
        }
      }
    } else if (h >= hi) {
      hiIdx = i;
      hi = h;
    }
    const l = low[i];
    if (loIdx < trailing) {
      loIdx = trailing;
      lo = low[trailing];
      for (let j = trailing + 1; j <= i; j++) {
        if (low[j] <= lo) {
          loIdx = j;
          lo = low[j];
        }
      }
    } else if (l <= lo) {
      loIdx = i;
      lo = l;
    }
    out[i] = (hi + lo) / 2;
  }
}

/**
 * Ichimoku Kinko Hyo (Hosoda) without look-ahead: every output at bar `i` uses bars `0..i` only.
 *
 * Formula (as TradingView's built-in Ichimoku Cloud): `mid(p)` is the midpoint of the highest
 * high and lowest low of the last `p` bars (TA-Lib `MIDPRICE`). `conversion = mid(conversion)`,
 * `base = mid(base)`, `spanA = (conversion + base) / 2`, `spanB = mid(spanB)`, `lagging = close`.
 * `spanA`/`spanB` are the values computed at bar `i`, which a chart draws ahead; TradingView
 * plots them with `offset = displacement - 1`, so the cloud shown AT bar `i` is
 * `spanAPlotted[i] = spanA[i - displacement + 1]` and `spanBPlotted[i] = spanB[i - displacement + 1]`
 * (use these to compare price with the cloud). `lagging[i]` is `close[i]`, which TradingView
 * draws `displacement - 1` bars back; it is not shifted here, since that would need future bars.
 * Defaults 9, 26, 52, displacement 26.
 * Lookback: `max(conversion, base, spanB) - 1 + displacement - 1` (76 with the defaults), for
 * every column, so that all of them are defined from the same bar: the plotted spans need it;
 * the other columns, defined earlier, read NaN before it too. With `displacement: 1` the
 * plotted spans equal the computed ones and the lookback is `max(conversion, base, spanB) - 1`.
 */
export const ichimoku = /* @__PURE__ */ withLookback(
  function ichimoku(candles: HLC, options?: IchimokuOptions): IchimokuResult {
    const { conversion: pc, base: pb, spanB: ps, displacement, lookback } = paramsOf(options);
    const n = checkColumns(candles, FIELDS);
    const { high, low, close } = candles;
    const conversion = nanArray(n);
    const base = nanArray(n);
    const spanA = nanArray(n);
    const spanB = nanArray(n);
    const spanAPlotted = nanArray(n);
    const spanBPlotted = nanArray(n);
    const lagging = nanArray(n);
    midpointInto(high, low, n, pc, conversion);
    midpointInto(high, low, n, pb, base);
    midpointInto(high, low, n, ps, spanB);
    for (let i = Math.max(pc, pb) - 1; i < n; i++) spanA[i] = (conversion[i] + base[i]) / 2;
    const shift = displacement - 1;
    for (let i = lookback; i < n; i++) {
      spanAPlotted[i] = spanA[i - shift];
      spanBPlotted[i] = spanB[i - shift];
      lagging[i] = close[i];
    }
    const end = Math.min(lookback, n);
    conversion.fill(Number.NaN, 0, end);
    base.fill(Number.NaN, 0, end);
    spanA.fill(Number.NaN, 0, end);
    spanB.fill(Number.NaN, 0, end);
    return { conversion, base, spanA, spanB, spanAPlotted, spanBPlotted, lagging };
  },
  (options?: IchimokuOptions) => paramsOf(options).lookback,
);

/** Streaming {@link ichimoku}; takes candles with `high`, `low` and `close`. */
export class Ichimoku extends StreamBase<CandleLike, IchimokuResult<number>> {
  readonly conversion: number;
  readonly base: number;
  readonly spanB: number;
  readonly displacement: number;
  private readonly lookback: number;
  /** Highs and lows of the last `size` bars, at slot `index % size`. */
  private readonly size: number;
  private readonly highs: Float64Array;
  private readonly lows: Float64Array;
  /** Per period (conversion, base, span B): index and value of the highest high, of the lowest low. */
  private readonly track = new Float64Array(12).fill(-1);
  private readonly pTrack = new Float64Array(12);
  /** Spans computed over the last `displacement` bars, at slot `index % displacement`. */
  private readonly pastA: Float64Array;
  private readonly pastB: Float64Array;

  constructor(options?: IchimokuOptions) {
    const p = paramsOf(options);
    const nan = Number.NaN;
    const empty = {
      conversion: nan,
      base: nan,
      spanA: nan,
      spanB: nan,
      spanAPlotted: nan,
      spanBPlotted: nan,
      lagging: nan,
    };
    super(p.lookback, empty);
    this.conversion = p.conversion;
    this.base = p.base;
    this.spanB = p.spanB;
    this.displacement = p.displacement;
    this.lookback = p.lookback;
    this.size = Math.max(p.conversion, p.base, p.spanB);
    this.highs = new Float64Array(this.size);
    this.lows = new Float64Array(this.size);
    this.pastA = new Float64Array(p.displacement);
    this.pastB = new Float64Array(p.displacement);
  }

  protected override save(): void {
    this.pTrack.set(this.track);
  }

  protected override restore(): void {
    // The ring slots of the replaced bar are simply overwritten: the bar they held before the
    // update is older than every window, so nothing else needs restoring.
    this.track.set(this.pTrack);
  }

  update(candle: CandleLike): IchimokuResult<number> {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): IchimokuResult<number> {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): IchimokuResult<number> {
    const i = this.n - 1;
    const slot = i % this.size;
    this.highs[slot] = candle.high as number;
    this.lows[slot] = candle.low as number;
    const conversion = this.midpoint(0, this.conversion, i);
    const base = this.midpoint(4, this.base, i);
    const spanB = this.midpoint(8, this.spanB, i);
    const spanA = (conversion + base) / 2;
    const d = this.displacement;
    this.pastA[i % d] = spanA;
    this.pastB[i % d] = spanB;
    if (i < this.lookback) {
      const nan = Number.NaN;
      return this.result(nan, nan, nan, nan, nan, nan, nan);
    }
    const then = (i - d + 1) % d;
    const close = candle.close as number;
    return this.result(conversion, base, spanA, spanB, this.pastA[then], this.pastB[then], close);
  }

  /** The midpoint of the last `period` bars ending at bar `i`, tracked at `track[at..at+3]`. */
  private midpoint(at: number, period: number, i: number): number {
    if (i < period - 1) return Number.NaN;
    const t = this.track;
    const size = this.size;
    const trailing = i - period + 1;
    const h = this.highs[i % size];
    if (t[at] < trailing) {
      t[at] = trailing;
      t[at + 1] = this.highs[trailing % size];
      for (let j = trailing + 1; j <= i; j++) {
        const x = this.highs[j % size];
        if (x >= t[at + 1]) {
          t[at] = j;
          t[at + 1] = x;
        }
      }
    } else if (h >= t[at + 1]) {
      t[at] = i;
      t[at + 1] = h;
    }
    const l = this.lows[i % size];
    if (t[at + 2] < trailing) {
      t[at + 2] = trailing;
      t[at + 3] = this.lows[trailing % size];
      for (let j = trailing + 1; j <= i; j++) {
        const x = this.lows[j % size];
        if (x <= t[at + 3]) {
          t[at + 2] = j;
          t[at + 3] = x;
        }
      }
    } else if (l <= t[at + 3]) {
      t[at + 2] = i;
      t[at + 3] = l;
    }
    return (t[at + 1] + t[at + 3]) / 2;
  }

  private result(
    conversion: number,
    base: number,
    spanA: number,
    spanB: number,
    spanAPlotted: number,
    spanBPlotted: number,
    lagging: number,
  ): IchimokuResult<number> {
    return { conversion, base, spanA, spanB, spanAPlotted, spanBPlotted, lagging };
  }
}
