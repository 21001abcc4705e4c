import type { Candles } from '@marketlens/core';
import { CandleFileError } from './errors.js';

/** How numeric timestamps are read: `auto` decides per value by magnitude (s, ms or µs). */
export type TimeUnit = 'auto' | 's' | 'ms' | 'us';

/** Numeric epoch to ms. `auto`: below 1e11 seconds, below 1e14 milliseconds, else microseconds. */
export function epochToMs(value: number, unit: TimeUnit): number {
  switch (unit) {
    case 's':
      return value * 1000;
    case 'ms':
      return value;
    case 'us':
      return Math.floor(value / 1000);
    default:
      return value < 1e11 ? value * 1000 : value < 1e14 ? value : Math.floor(value / 1000);
  }
}

function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Parses a date-time text to ms UTC, or NaN. Fast path for `YYYY-MM-DD`, `YYYY-MM-DD[ T]HH:MM[:SS[.fff]]`
 * with an optional `Z` or `±HH:MM`; anything else goes through `Date.parse` (a text without a zone
 * is read as UTC). A plain number is an epoch (see {@link epochToMs}).
 */
export function parseTime(text: string, unit: TimeUnit): number {
  // Fast path for epochs, the common case of big files: Number() accepts surrounding blanks.
  const c0 = text.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57 && text.length !== 8 && text.charCodeAt(4) !== 45) {
    const n = Number(text);
    if (Number.isFinite(n)) return epochToMs(n, unit);
  }
  const s = text.trim();
  if (s.length >= 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) {
    const y = digits(s, 0, 4);
    const mo = digits(s, 5, 2);
    const d = digits(s, 8, 2);
    if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31) {
      if (s.length === 10) return Date.UTC(y, mo - 1, d);
      const sep = s.charCodeAt(10);
      if ((sep === 32 || sep === 84) && s.length >= 16 && s.charCodeAt(13) === 58) {
        const h = digits(s, 11, 2);
        const mi = digits(s, 14, 2);
        let i = 16;
        let sec = 0;
        let ms = 0;
        if (s.charCodeAt(i) === 58) {
          sec = digits(s, 17, 2);
          i = 19;
          if (s.charCodeAt(i) === 46) {
            let j = i + 1;
            let frac = 0;
            let scale = 1;
            while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) {
              if (scale < 1000) {
                frac = frac * 10 + (s.charCodeAt(j) - 48);
                scale *= 10;
              }
              j++;
            }
            ms = Math.round((frac * 1000) / scale);
            i = j;
          }
        }
        if (h >= 0 && h < 24 && mi >= 0 && mi < 60 && sec >= 0 && sec < 61) {
          const base = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
          if (i === s.length) return base;
          const rest = s.slice(i);
          if (rest === 'Z' || rest === 'z') return base;
          const tz = /^([+-])(\d{2}):?(\d{2})$/.exec(rest);
          if (tz !== null) return base - (tz[1] === '-' ? -1 : 1) * (Number(tz[2]) * 60 + Number(tz[3])) * 60_000;
        }
      }
    }
  }
  if (/^\d{8}$/.test(s)) {
    // YYYYMMDD (an 8-digit epoch would be 1970-1973 in seconds: read as a date instead).
    const y = Number(s.slice(0, 4));
    const mo = Number(s.slice(4, 6));
    const d = Number(s.slice(6, 8));
    if (y >= 1900 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31) return Date.UTC(y, mo - 1, d);
  }
  if (/^-?\d+(\.\d+)?$/.test(s)) return epochToMs(Number(s), unit);
  const hasZone = /(Z|[+-]\d{2}:?\d{2}|GMT|UTC)$/i.test(s);
  const parsed = Date.parse(hasZone ? s : `${s} UTC`);
  return Number.isFinite(parsed) ? parsed : Date.parse(s);
}

/**
 * Accumulates candle rows into growable `Float64Array` columns, checking each row: finite values,
 * positive prices, non-negative volume, and times strictly monotone (ascending, or a whole file
 * descending, reversed at the end).
 */
export class CandleBuilder {
  private cap = 1024;
  private n = 0;
  private time: Float64Array<ArrayBuffer> = new Float64Array(this.cap);
  private open = new Float64Array(this.cap);
  private high = new Float64Array(this.cap);
  private low = new Float64Array(this.cap);
  private close = new Float64Array(this.cap);
  private volume = new Float64Array(this.cap);
  private direction = 0;
  private lastLine = 0;

  constructor(private readonly maxRows: number) {}

  get length(): number {
    return this.n;
  }

  /** Adds one row read from `line`; throws a {@link CandleFileError} naming the line. */
  push(line: number, t: number, o: number, h: number, l: number, c: number, v: number): void {
    if (!Number.isFinite(t))
      throw new CandleFileError('bad_time', line, 'the time is not a valid date or epoch', 'time');
    if (!(o > 0) || !Number.isFinite(o)) throw badValue(line, 'open', o);
    if (!(h > 0) || !Number.isFinite(h)) throw badValue(line, 'high', h);
    if (!(l > 0) || !Number.isFinite(l)) throw badValue(line, 'low', l);
    if (!(c > 0) || !Number.isFinite(c)) throw badValue(line, 'close', c);
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new CandleFileError('bad_value', line, `volume must be a finite number >= 0, got ${v}`, 'volume');
    }
    if (this.n > 0) {
      const prev = this.time[this.n - 1];
      const dir = t > prev ? 1 : t < prev ? -1 : 0;
      if (dir === 0 || (this.direction !== 0 && dir !== this.direction)) {
        throw new CandleFileError(
          'out_of_order',
          line,
          `time ${new Date(t).toISOString()} does not follow ${new Date(prev).toISOString()} (line ${this.lastLine}) in order`,
          'time',
        );
      }
      this.direction = dir;
    }
    if (this.n >= this.maxRows) {
      throw new CandleFileError('too_large', line, `more than ${this.maxRows} rows (raise maxRows to import more)`);
    }
    if (this.n === this.cap) this.grow();
    const i = this.n++;
    this.time[i] = t;
    this.open[i] = o;
    this.high[i] = h;
    this.low[i] = l;
    this.close[i] = c;
    this.volume[i] = v;
    this.lastLine = line;
  }

  private grow(): void {
    const cap = Math.min(this.cap * 2, this.maxRows);
    const g = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const out = new Float64Array(cap);
      out.set(a);
      return out;
    };
    this.time = g(this.time);
    this.open = g(this.open);
    this.high = g(this.high);
    this.low = g(this.low);
    this.close = g(this.close);
    this.volume = g(this.volume);
    this.cap = cap;
  }

  /** The columns, oldest first; `reversed` when the file was newest first. */
  finish(): { candles: Candles; reversed: boolean } {
    const n = this.n;
    // A view when little capacity is spare (no copy at the peak of a big import), else a tight copy.
    const cut = (a: Float64Array): Float64Array => (n >= this.cap * 0.75 ? a.subarray(0, n) : a.slice(0, n));
    const candles: Candles = {
      time: cut(this.time),
      open: cut(this.open),
      high: cut(this.high),
      low: cut(this.low),
      close: cut(this.close),
      volume: cut(this.volume),
    };
    const reversed = this.direction < 0;
    if (reversed) for (const col of Object.values(candles)) col.reverse();
    return { candles, reversed };
  }
}

function badValue(line: number, column: string, value: number): CandleFileError {
  return new CandleFileError('bad_value', line, `${column} must be a finite price > 0, got ${value}`, column);
}
