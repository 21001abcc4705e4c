import { InputError } from '../errors.js';
import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace, nanArray } from './internal/validate.js';

/** How the levels are derived from the previous bar's high, low and close. */
export type PivotMethod = 'classic' | 'fibonacci' | 'camarilla' | 'woodie';

/** Candle columns that {@link pivotPoints} reads; `open` only for Woodie with `woodieOpen`. */
export interface PivotCandles extends HLC {
  open?: ArrayLike<number>;
}

/** Options of {@link pivotPoints}. */
export interface PivotOptions {
  /** Default 'classic' (floor pivots). */
  method?: PivotMethod;
  /**
   * Woodie only: take the pivot from the current bar's open, `pp = (H + L + 2 * open) / 4`
   * (Woodie's original and TradingView's Woodie), instead of the previous close. Needs `open`.
   * Ignored by the other methods. Default false.
   */
  woodieOpen?: boolean;
}

/** Support and resistance levels, as columns or as one bar's values. */
export type PivotLevels<T = Float64Array> = {
  /** The pivot point. */
  pp: T;
  r1: T;
  r2: T;
  r3: T;
  s1: T;
  s2: T;
  s3: T;
};

/** Camarilla levels: {@link PivotLevels} plus the fourth resistance and support. */
export type CamarillaLevels<T = Float64Array> = PivotLevels<T> & {
  r4: T;
  s4: T;
};

const METHODS: readonly PivotMethod[] = ['classic', 'fibonacci', 'camarilla', 'woodie'];
const HLC_FIELDS = ['high', 'low', 'close'] as const;
const HLCO_FIELDS = ['high', 'low', 'close', 'open'] as const;

interface Params {
  method: PivotMethod;
  /** The pivot reads the current bar's open (Woodie with woodieOpen). */
  useOpen: boolean;
}

function paramsOf(options?: PivotOptions): Params {
  const method = options?.method ?? 'classic';
  if (!METHODS.includes(method)) {
    throw new InputError(
      'invalid_option',
      `method must be one of ${METHODS.join(', ')}, got ${String(method)}`,
      'method',
    );
  }
  const woodieOpen = options?.woodieOpen ?? false;
  if (typeof woodieOpen !== 'boolean') {
    throw new InputError('invalid_option', `woodieOpen must be a boolean, got ${String(woodieOpen)}`, 'woodieOpen');
  }
  return { method, useOpen: method === 'woodie' && woodieOpen };
}

// Slots of the scratch array the levels are computed into.
const PP = 0;
const R1 = 1;
const R2 = 2;
const R3 = 3;
const S1 = 4;
const S2 = 5;
const S3 = 6;
const R4 = 7;
const S4 = 8;

/**
 * Writes the levels of one bar into `lv` from the previous bar's high `h`, low `l`, close `c`
 * (and the current open `o` for Woodie's open pivot). Used by the streaming class; the batch
 * loops inline the same expressions.
 */
function levelsInto(
  method: PivotMethod,
  h: number,
  l: number,
  c: number,
  o: number,
  useOpen: boolean,
  lv: Float64Array,
) {
  const range = h - l;
  if (method === 'woodie') {
    const pp = (h + l + 2 * (useOpen ? o : c)) / 4;
    lv[PP] = pp;
    lv[R1] = 2 * pp - l;
    lv[S1] = 2 * pp - h;
    lv[R2] = pp + range;
    lv[S2] = pp - range;
    lv[R3] = h + 2 * (pp - l);
    lv[S3] = l - 2 * (h - pp);
    return;
  }
  const pp = (h + l + c) / 3;
  lv[PP] = pp;
  if (method === 'classic') {
    lv[R1] = 2 * pp - l;
    lv[S1] = 2 * pp - h;
    lv[R2] = pp + range;
    lv[S2] = pp - range;
    lv[R3] = h + 2 * (pp - l);
    lv[S3] = l - 2 * (h - pp);
  } else if (method === 'fibonacci') {
    lv[R1] = pp + 0.382 * range;
    lv[S1] = pp - 0.382 * range;
    lv[R2] = pp + 0.618 * range;
    lv[S2] = pp - 0.618 * range;
    lv[R3] = pp + range;
    lv[S3] = pp - range;
  } else {
    lv[R1] = c + (range * 1.1) / 12;
    lv[S1] = c - (range * 1.1) / 12;
    lv[R2] = c + (range * 1.1) / 6;
    lv[S2] = c - (range * 1.1) / 6;
    lv[R3] = c + (range * 1.1) / 4;
    lv[S3] = c - (range * 1.1) / 4;
    lv[R4] = c + (range * 1.1) / 2;
    lv[S4] = c - (range * 1.1) / 2;
  }
}

function pivotPointsImpl(candles: PivotCandles, options: PivotOptions & { method: 'camarilla' }): CamarillaLevels;
function pivotPointsImpl(candles: PivotCandles, options?: PivotOptions): PivotLevels;
function pivotPointsImpl(candles: PivotCandles, options?: PivotOptions): PivotLevels | CamarillaLevels {
  const { method, useOpen } = paramsOf(options);
  const n = checkColumns(candles, useOpen ? HLCO_FIELDS : HLC_FIELDS);
  const { high, low, close } = candles;
  const open = useOpen ? candles.open : undefined;
  const pp = nanArray(n);
  const r1 = nanArray(n);
  const r2 = nanArray(n);
  const r3 = nanArray(n);
  const s1 = nanArray(n);
  const s2 = nanArray(n);
  const s3 = nanArray(n);
  const camarilla = method === 'camarilla';
  const r4 = camarilla ? nanArray(n) : undefined;
  const s4 = camarilla ? nanArray(n) : undefined;
  // One loop per method, with levelsInto's expressions inlined (the streaming class calls
  // levelsInto itself; both perform the same operations in the same order).
  if (method === 'woodie') {
    for (let i = 1; i < n; i++) {
      const h = high[i - 1];
      const l = low[i - 1];
      const range = h - l;
      const p = (h + l + 2 * (open ? open[i] : close[i - 1])) / 4;
      pp[i] = p;
      r1[i] = 2 * p - l;
      s1[i] = 2 * p - h;
      r2[i] = p + range;
      s2[i] = p - range;
      r3[i] = h + 2 * (p - l);
      s3[i] = l - 2 * (h - p);
    }
  } else if (method === 'classic') {
    for (let i = 1; i < n; i++) {
      const h = high[i - 1];
      const l = low[i - 1];
      const range = h - l;
      const p = (h + l + close[i - 1]) / 3;
      pp[i] = p;
      r1[i] = 2 * p - l;
      s1[i] = 2 * p - h;
      r2[i] = p + range;
      s2[i] = p - range;
      r3[i] = h + 2 * (p - l);
      s3[i] = l - 2 * (h - p);
    }
  } else if (method === 'fibonacci') {
    for (let i = 1; i < n; i++) {
      const h = high[i - 1];
      const l = low[i - 1];
      const range = h - l;
      const p = (h + l + close[i - 1]) / 3;
      pp[i] = p;
      r1[i] = p + 0.382 * range;
      s1[i] = p - 0.382 * range;
      r2[i] = p + 0.618 * range;
      s2[i] = p - 0.618 * range;
      r3[i] = p + range;
      s3[i] = p - range;
    }
  } else if (r4 && s4) {
    for (let i = 1; i < n; i++) {
      const h = high[i - 1];
      const l = low[i - 1];
      const c = close[i - 1];
      const range = h - l;
      pp[i] = (h + l + c) / 3;
      r1[i] = c + (range * 1.1) / 12;
      s1[i] = c - (range * 1.1) / 12;
      r2[i] = c + (range * 1.1) / 6;
      s2[i] = c - (range * 1.1) / 6;
      r3[i] = c + (range * 1.1) / 4;
      s3[i] = c - (range * 1.1) / 4;
      r4[i] = c + (range * 1.1) / 2;
      s4[i] = c - (range * 1.1) / 2;
    }
  }
  return r4 && s4 ? { pp, r1, r2, r3, s1, s2, s3, r4, s4 } : { pp, r1, r2, r3, s1, s2, s3 };
}

/**
 * Floor-trader pivot points: support and resistance levels for bar `i` computed from bar
 * `i - 1`'s high `H`, low `L` and close `C` (apply to daily candles to get each day's levels
 * from the day before; aggregate intraday candles to the pivot timeframe first).
 *
 * Formulas (as published, e.g. TradingView "Pivot Points Standard"; range = `H - L`):
 * - classic (floor): `PP = (H + L + C) / 3`, `R1 = 2PP - L`, `S1 = 2PP - H`, `R2 = PP + range`,
 *   `S2 = PP - range`, `R3 = H + 2(PP - L)`, `S3 = L - 2(H - PP)` (TradingView's "Traditional";
 *   its "Classic" draws R3/S3 at `PP ± 2 range` instead).
 * - fibonacci: `PP` as classic; `R/S 1, 2, 3 = PP ± 0.382, 0.618, 1.0 × range`.
 * - camarilla: `PP` as classic; `R/S 1..4 = C ± range × 1.1/12, 1.1/6, 1.1/4,
 *   1.1/2`, around the close, not PP.
 * - woodie: `PP = (H + L + 2C) / 4` (or `(H + L + 2 × open[i]) / 4` with `woodieOpen`);
 *   `R1 = 2PP - L`, `S1 = 2PP - H`, `R2 = PP + range`, `S2 = PP - range`,
 *   `R3 = H + 2(PP - L)`, `S3 = L - 2(H - PP)`.
 * Returns `{ pp, r1, r2, r3, s1, s2, s3 }`, plus `r4`/`s4` for camarilla only (the one method
 * whose published set has a fourth level; the others have no agreed one).
 * Default method 'classic'. Lookback: 1.
 */
export const pivotPoints = /* @__PURE__ */ withLookback(pivotPointsImpl, (options?: PivotOptions) => {
  paramsOf(options);
  return 1;
});

/** Streaming {@link pivotPoints}; takes candles with `high`, `low`, `close` (and `open` for `woodieOpen`). */
export class PivotPoints extends StreamBase<CandleLike, PivotLevels<number>> {
  readonly method: PivotMethod;
  private readonly useOpen: boolean;
  private readonly lv: Float64Array;
  private h = 0;
  private l = 0;
  private c = 0;
  private pH = 0;
  private pL = 0;
  private pC = 0;
  private readonly fields: readonly string[];

  constructor(options?: PivotOptions) {
    const { method, useOpen } = paramsOf(options);
    const lv = new Float64Array(9).fill(Number.NaN);
    super(1, levelsOf(method, lv));
    this.fields = useOpen ? HLCO_FIELDS : HLC_FIELDS;
    this.method = method;
    this.useOpen = useOpen;
    this.lv = lv;
  }

  protected override save(): void {
    this.pH = this.h;
    this.pL = this.l;
    this.pC = this.c;
  }

  protected override restore(): void {
    this.h = this.pH;
    this.l = this.pL;
    this.c = this.pC;
  }

  update(candle: CandleLike): PivotLevels<number> {
    checkCandle(candle, this.fields);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): PivotLevels<number> {
    checkCandle(candle, this.fields);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): PivotLevels<number> {
    if (this.n > 1) {
      const o = this.useOpen ? (candle.open as number) : 0;
      levelsInto(this.method, this.h, this.l, this.c, o, this.useOpen, this.lv);
    }
    this.h = candle.high as number;
    this.l = candle.low as number;
    this.c = candle.close as number;
    return levelsOf(this.method, this.lv);
  }
}

/** The levels of `method` read from `lv` (indexed by PP, R1, ...). */
function levelsOf(method: PivotMethod, lv: Float64Array): PivotLevels<number> | CamarillaLevels<number> {
  if (method === 'camarilla') {
    return {
      pp: lv[PP],
      r1: lv[R1],
      r2: lv[R2],
      r3: lv[R3],
      s1: lv[S1],
      s2: lv[S2],
      s3: lv[S3],
      r4: lv[R4],
      s4: lv[S4],
    };
  }
  return { pp: lv[PP], r1: lv[R1], r2: lv[R2], r3: lv[R3], s1: lv[S1], s2: lv[S2], s3: lv[S3] };
}
