/**
 * Number formatting of the overview. The facts carry a locale-neutral text of each number
 * (ASCII digits, `.` as the decimal separator, no grouping, `-` for negatives, never an
 * exponent) and its {@link FactFormat}; the narrative writes it for its locale with
 * {@link formatLocalized}, with the same decimals.
 */

function fixed(x: number, decimals: number): string {
  const s = x.toFixed(decimals);
  // -0.00 reads as 0.00
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

function plain(x: number, maxDecimals: number, minDecimals: number): string {
  if (Math.abs(x) >= 1e21) return BigInt(Math.round(x)).toString();
  let s = fixed(x, maxDecimals);
  if (s.includes('.')) {
    const keep = s.indexOf('.') + 1 + minDecimals;
    let end = s.length;
    while (end > keep && s[end - 1] === '0') end--;
    if (s[end - 1] === '.') end--;
    s = s.slice(0, end);
  }
  return s;
}

/**
 * A price as the market quotes it. With the market's `tick` (its smallest price step), rounded to
 * the nearest tick and written with the tick's decimals: `20.37` at 0.01, `4512.25` at 0.25,
 * `0.00162000` at 0.00000001. A price under ten ticks (a sub-cent price of a 0.01 market), or one
 * without a tick, keeps six significant digits (at least two decimals, at most fifteen, trailing zeros
 * beyond two dropped): `64250.00`, `1.0834`, `0.000123456`.
 */
export function formatPrice(x: number, tick?: number | null): string {
  const t = quotedTick(x, tick);
  if (t === null) return plain(x, priceDecimals(x), 2);
  return fixed(roundToTick(x, t), tickDecimals(t));
}

/** The tick a price is written at: `tick` when it is usable and the price spans ten of them, else null. */
function quotedTick(x: number, tick: number | null | undefined): number | null {
  if (tick === null || tick === undefined || !(tick > 0) || !Number.isFinite(tick)) return null;
  return Math.abs(x) >= 10 * tick ? tick : null;
}

/**
 * The decimals needed to write multiples of a tick exactly: 2 for 0.01 and 0.25, 1 for 0.5, 0 for
 * 1 or 5, 8 for 0.00000001 (at most 12).
 */
export function tickDecimals(tick: number): number {
  for (let d = 0; d < 12; d++) {
    const scaled = tick * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

/**
 * The multiple of `tick` nearest to `x` (half a tick rounds away from zero), free of binary noise
 * (`roundToTick(20.372, 0.01)` is `20.37`, not `20.370000000000001`). Never moves a price by more
 * than half a tick. A non-positive or non-finite tick leaves `x` as it is.
 */
export function roundToTick(x: number, tick: number): number {
  if (!(tick > 0) || !Number.isFinite(tick) || !Number.isFinite(x)) return x;
  const n = Math.sign(x) * Math.round(Math.abs(x) / tick);
  return Number((n * tick).toFixed(tickDecimals(tick)));
}

/**
 * The tick size of an asset class when its venue does not say: 0.01 for stocks (the US and most
 * exchanges' tick above one unit of currency), null (six significant digits) for coins, fx and
 * on-chain tokens, whose steps vary by market.
 */
export function defaultTickSize(assetClass: string | null | undefined): number | null {
  return assetClass === 'stocks' ? 0.01 : null;
}

/** A percentage with two decimals and a sign when positive and `signed`: `+1.25%`, `-0.40%`. */
export function formatPercent(x: number, signed = false): string {
  const s = fixed(x, 2);
  return `${signed && !s.startsWith('-') && s !== '0.00' ? '+' : ''}${s}%`;
}

/** A number with `decimals` decimals (trailing zeros kept): `54.3`, `0.42`. */
export function formatNumber(x: number, decimals: number): string {
  return fixed(x, decimals);
}

/** An integer: `42`. */
export function formatInteger(x: number): string {
  return fixed(Math.round(x), 0);
}

/**
 * How a fact's number is written: a price (at its market's tick, else six significant digits), a
 * percentage with two decimals (signed: `+` when positive), a whole percentage (the value is
 * already in percent), a number with one or two decimals, or an integer.
 */
export type FactFormat =
  | 'price'
  | 'percent'
  | 'signed_percent'
  | 'whole_percent'
  | 'decimal_1'
  | 'decimal_2'
  | 'integer';

/** Decimals of a price: six significant digits, at least two, at most fifteen (prices down to 1e-10). */
function priceDecimals(x: number): number {
  const a = Math.abs(x);
  const mag = a > 0 ? Math.floor(Math.log10(a)) : 0;
  return Math.min(15, Math.max(2, 5 - mag));
}

/** The locale-neutral text of a number in a format (the text of a fact's value); a price at its `tick` when given. */
export function formatNeutral(x: number, format: FactFormat, tick?: number | null): string {
  switch (format) {
    case 'price':
      return formatPrice(x, tick);
    case 'percent':
      return formatPercent(x);
    case 'signed_percent':
      return formatPercent(x, true);
    case 'whole_percent':
      return `${formatInteger(x)}%`;
    case 'decimal_1':
      return formatNumber(x, 1);
    case 'decimal_2':
      return formatNumber(x, 2);
    case 'integer':
      return formatInteger(x);
  }
}

/** `Intl.NumberFormat` options of ES2023 that the ES2022 typings lack; Node >= 20 implements them. */
interface NumberFormatOptions extends Omit<Intl.NumberFormatOptions, 'useGrouping' | 'signDisplay'> {
  useGrouping?: boolean | 'min2' | 'auto' | 'always';
  signDisplay?: 'auto' | 'never' | 'always' | 'exceptZero' | 'negative';
}

/** Writes numbers for one locale (see {@link formatLocalized}); a price at its `tick` when given. */
export type NumberWriter = (x: number, format: FactFormat, tick?: number | null) => string;

/**
 * A writer of numbers for one locale, as {@link formatLocalized} writes them, that builds each
 * `Intl.NumberFormat` it needs once (a narrative writes many numbers in one locale).
 */
export function numberWriter(locale: string): NumberWriter {
  const formatters = new Map<string, Intl.NumberFormat>();
  // Digit groups from five integer digits only (`useGrouping: 'min2'`); a sign only on negatives
  // that do not round to zero.
  const formatter = (key: string, options: NumberFormatOptions): Intl.NumberFormat => {
    let f = formatters.get(key);
    if (f === undefined) {
      const all: NumberFormatOptions = { useGrouping: 'min2', signDisplay: 'negative', ...options };
      f = new Intl.NumberFormat(locale, all as Intl.NumberFormatOptions);
      formatters.set(key, f);
    }
    return f;
  };
  return (x, format, tick) => {
    if (!Number.isFinite(x)) return formatNeutral(x, format, tick);
    switch (format) {
      case 'price': {
        const t = quotedTick(x, tick);
        if (t !== null) {
          const d = tickDecimals(t);
          return formatter(`t${d}`, { minimumFractionDigits: d, maximumFractionDigits: d }).format(roundToTick(x, t));
        }
        const d = priceDecimals(x);
        return formatter(`p${d}`, { minimumFractionDigits: 2, maximumFractionDigits: d }).format(x);
      }
      case 'percent':
      case 'signed_percent':
      case 'whole_percent': {
        const d = format === 'whole_percent' ? 0 : 2;
        const f = formatter(format, {
          style: 'percent',
          minimumFractionDigits: d,
          maximumFractionDigits: d,
          signDisplay: format === 'signed_percent' ? 'exceptZero' : 'negative',
        });
        return f.format((format === 'whole_percent' ? Math.round(x) : x) / 100);
      }
      case 'decimal_1':
      case 'decimal_2': {
        const d = format === 'decimal_1' ? 1 : 2;
        return formatter(format, { minimumFractionDigits: d, maximumFractionDigits: d }).format(x);
      }
      case 'integer':
        return formatter(format, { maximumFractionDigits: 0 }).format(Math.round(x));
    }
  };
}

/**
 * A number written for a locale with `Intl.NumberFormat` (its decimal separator, digit groups
 * from five integer digits so that short numbers read alike everywhere, its percent sign), with
 * the decimals of `formatNeutral`: `82.580,00` and `+1,23 %` in German, `82,580.00` and
 * `+1.23%` in English; a price at its `tick` when given (see {@link formatPrice}). Never `-0`.
 * Non-finite numbers keep their neutral text.
 */
export function formatLocalized(x: number, format: FactFormat, locale: string, tick?: number | null): string {
  return numberWriter(locale)(x, format, tick);
}
