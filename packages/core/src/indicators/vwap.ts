import { InputError } from '../errors.js';
import type { CandleLike, HLCV } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace } from './internal/validate.js';

const FIELDS = ['time', 'high', 'low', 'close', 'volume'] as const;
const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** 1970-01-05T00:00:00Z, the first Monday after the epoch (a Thursday). */
const FIRST_MONDAY = 4 * DAY;

/** The session a VWAP accumulates over before it resets. */
export type VwapAnchor = 'day' | 'week' | 'month';

/** Candle columns that {@link vwap} reads: high, low, close, volume and the open time. */
export interface VwapCandles extends HLCV {
  /** Candle open time in milliseconds since the Unix epoch (UTC). */
  time: ArrayLike<number>;
}

/** Options of {@link vwap}. */
export interface VwapOptions {
  /** Session: a UTC day, a week from Monday 00:00 UTC, or a UTC calendar month. Default 'day'. */
  anchor?: VwapAnchor;
}

function anchorOf(options?: VwapOptions): VwapAnchor {
  const anchor = options?.anchor ?? 'day';
  if (anchor !== 'day' && anchor !== 'week' && anchor !== 'month') {
    throw new InputError('invalid_option', `anchor must be 'day', 'week' or 'month', got ${String(anchor)}`, 'anchor');
  }
  return anchor;
}

/**
 * The UTC session `[start, end)` that contains `time`, written into `bounds`. Called only when
 * a bar falls outside the current session, so at most once per session.
 */
function sessionOf(anchor: VwapAnchor, time: number, bounds: Float64Array): void {
  let start: number;
  let end: number;
  if (anchor === 'day') {
    start = Math.floor(time / DAY) * DAY;
    end = start + DAY;
  } else if (anchor === 'week') {
    start = Math.floor((time - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY;
    end = start + WEEK;
  } else {
    const d = new Date(time);
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth();
    start = Date.UTC(year, month, 1);
    end = Date.UTC(year, month + 1, 1);
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw new InputError('non_finite', `time ${time} is outside the range of dates`, 'time');
  }
  bounds[0] = start;
  bounds[1] = end;
}

/**
 * Volume-weighted average price of the typical price, anchored to a UTC session.
 *
 * Formula (the anchored VWAP of TradingView's built-in VWAP on `hlc3`, with its 'Session' anchor
 * taken as the UTC day, as for 24-hour markets; exchange-local sessions are not modelled.
 * technicalindicators `VWAP` is the same sum, never reset): with `tp = (h + l + c) / 3`,
 * `vwap = sum(tp * v) / sum(v)` over the bars of the current session so far. A bar belongs to
 * the session that contains its open `time`; the sums restart whenever a bar falls outside the
 * previous bar's session (a new UTC day, a week from Monday 00:00 UTC, or a UTC month).
 * While a session's volume so far is 0 (its first bars, or a feed without volume such as an
 * index), the VWAP reads that bar's typical price instead of 0 / 0 (TradingView shows na).
 * Default anchor 'day'. Lookback: 0.
 */
export const vwap = /* @__PURE__ */ withLookback(
  function vwap(candles: VwapCandles, options?: VwapOptions): Float64Array {
    const anchor = anchorOf(options);
    const n = checkColumns(candles, FIELDS);
    const { time, high, low, close, volume } = candles;
    const out = new Float64Array(n);
    const bounds = new Float64Array(2);
    sessionOf(anchor, time[0], bounds);
    let start = bounds[0];
    let end = bounds[1];
    let pv = 0;
    let vol = 0;
    for (let i = 0; i < n; i++) {
      const t = time[i];
      if (t >= end || t < start) {
        sessionOf(anchor, t, bounds);
        start = bounds[0];
        end = bounds[1];
        pv = 0;
        vol = 0;
      }
      const tp = (high[i] + low[i] + close[i]) / 3;
      const v = volume[i];
      pv += tp * v;
      vol += v;
      out[i] = vol === 0 ? tp : pv / vol;
    }
    return out;
  },
  (options?: VwapOptions) => {
    anchorOf(options);
    return 0;
  },
);

/** Streaming {@link vwap}; takes candles with `time`, `high`, `low`, `close` and `volume`. */
export class VWAP extends StreamBase<CandleLike, number> {
  readonly anchor: VwapAnchor;
  private readonly bounds = new Float64Array(2);
  private pv = 0;
  private vol = 0;
  private start = Number.NaN;
  private end = Number.NaN;
  private pPv = 0;
  private pVol = 0;
  private pStart = Number.NaN;
  private pEnd = Number.NaN;

  constructor(options?: VwapOptions) {
    super(0, Number.NaN);
    this.anchor = anchorOf(options);
  }

  protected override save(): void {
    this.pPv = this.pv;
    this.pVol = this.vol;
    this.pStart = this.start;
    this.pEnd = this.end;
  }

  protected override restore(): void {
    this.pv = this.pPv;
    this.vol = this.pVol;
    this.start = this.pStart;
    this.end = this.pEnd;
  }

  update(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): number {
    const t = candle.time as number;
    if (this.n === 1 || t >= this.end || t < this.start) {
      sessionOf(this.anchor, t, this.bounds);
      this.start = this.bounds[0];
      this.end = this.bounds[1];
      this.pv = 0;
      this.vol = 0;
    }
    const tp = ((candle.high as number) + (candle.low as number) + (candle.close as number)) / 3;
    const v = candle.volume as number;
    this.pv += tp * v;
    this.vol += v;
    return this.vol === 0 ? tp : this.pv / this.vol;
  }
}
