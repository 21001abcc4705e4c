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
 * A price with six significant digits (at least two decimals, at most ten), trailing zeros
 * beyond two decimals dropped: `64250.00`, `1.0834`, `0.000123456`.
 */
export function formatPrice(x: number): string {
  return plain(x, priceDecimals(x), 2);
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
 * How a fact's number is written: a price (six significant digits, two to ten decimals), a
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

/** Decimals of a price: six significant digits, at least two, at most ten. */
function priceDecimals(x: number): number {
  const a = Math.abs(x);
  const mag = a > 0 ? Math.floor(Math.log10(a)) : 0;
  return Math.min(10, Math.max(2, 5 - mag));
}

/** The locale-neutral text of a number in a format (the text of a fact's value). */
export function formatNeutral(x: number, format: FactFormat): string {
  switch (format) {
    case 'price':
      return formatPrice(x);
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

/** Writes numbers for one locale (see {@link formatLocalized}). */
export type NumberWriter = (x: number, format: FactFormat) => string;

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
  return (x, format) => {
    if (!Number.isFinite(x)) return formatNeutral(x, format);
    switch (format) {
      case 'price': {
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
 * `+1.23%` in English. Never `-0`. Non-finite numbers keep their neutral text.
 */
export function formatLocalized(x: number, format: FactFormat, locale: string): string {
  return numberWriter(locale)(x, format);
}
