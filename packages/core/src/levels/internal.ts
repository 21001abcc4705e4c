import { InputError } from '../errors.js';
import { atr } from '../indicators/atr.js';
import { checkColumns, checkInt } from '../indicators/internal/validate.js';
import type { Candles } from '../types.js';

/** The columns levels, plans and simulations read. @internal */
export const CANDLE_FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** A zero-copy view of the first `len` values of a column (a copy for other array-likes). */
function prefixOf(col: ArrayLike<number>, len: number): Float64Array {
  if (col instanceof Float64Array) return len === col.length ? col : col.subarray(0, len);
  const out = new Float64Array(len);
  for (let i = 0; i < len; i++) out[i] = col[i];
  return out;
}

/**
 * Validates `candles` and returns the view of candles `0..end` (`end` = `asOf`, default the last
 * candle). Candles after `asOf` are never read, so an analysis "as of" an index is the analysis of
 * that prefix. Only the `window` candles ending at `end` (default all) are checked for finite values:
 * they are the only ones the caller reads (a walk-forward stays linear per step).
 * @internal
 */
export function prefixCandles(
  candles: Candles,
  asOf: number | undefined,
  window = Number.POSITIVE_INFINITY,
): { view: Candles; end: number } {
  if (candles == null || typeof candles !== 'object' || candles.close == null) {
    throw new InputError('empty_input', 'candles must be an object of columns time, open, high, low, close, volume');
  }
  const n = candles.close.length;
  if (n === 0) throw new InputError('empty_input', 'candles.close is empty', 'close');
  const end = asOf === undefined ? n - 1 : checkInt('asOf', asOf, 0, n - 1);
  const len = end + 1;
  const record = candles as unknown as Record<string, unknown>;
  for (const f of CANDLE_FIELDS) {
    const col = record[f];
    if (col == null || typeof (col as ArrayLike<number>).length !== 'number') {
      throw new InputError('empty_input', `candles.${f} is missing`, f);
    }
    if ((col as ArrayLike<number>).length !== n) {
      const got = (col as ArrayLike<number>).length;
      throw new InputError('length_mismatch', `candles.${f} has ${got} values but candles.close has ${n}`, f);
    }
  }
  const view: Candles = {
    time: prefixOf(candles.time, len),
    open: prefixOf(candles.open, len),
    high: prefixOf(candles.high, len),
    low: prefixOf(candles.low, len),
    close: prefixOf(candles.close, len),
    volume: prefixOf(candles.volume, len),
  };
  const start = Math.max(0, len - window);
  if (start === 0) checkColumns(view, CANDLE_FIELDS);
  else {
    const part: Record<string, Float64Array> = {};
    for (const f of CANDLE_FIELDS) part[f] = view[f].subarray(start);
    checkColumns(part, CANDLE_FIELDS);
  }
  return { view, end };
}

/**
 * The ATR column to use: the caller's precomputed column (checked for length; only entries
 * `0..end` are read) or the Wilder ATR of the prefix.
 * @internal
 */
export function atrColumn(
  view: Candles,
  fullLength: number,
  period: number,
  given?: ArrayLike<number>,
): ArrayLike<number> {
  if (given === undefined) return atr(view, { period });
  if (
    given == null ||
    typeof given.length !== 'number' ||
    (given.length !== fullLength && given.length !== view.close.length)
  ) {
    throw new InputError(
      'length_mismatch',
      `atr has ${String(given?.length)} values but candles have ${fullLength}`,
      'atr',
    );
  }
  return given;
}

/** The value if it is a finite positive number, else null. @internal */
export function positiveOrNull(x: number): number | null {
  return Number.isFinite(x) && x > 0 ? x : null;
}
