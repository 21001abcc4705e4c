/**
 * Exact decimal arithmetic for money sums (notional volume), on BigInt: a value is `units * 10^-scale`.
 * A double enters by its shortest round-trip decimal form (`0.1` is `0.1`, as the venue sent it), so a
 * sum of products is exact and rounded once, when read back as a number. The server does not depend on
 * decimal.js; the two operations volume needs (product, sum) are small enough to do here.
 */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_FORM = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/** The zero of {@link addExact}. */
export const EXACT_ZERO: ExactDecimal = Object.freeze({ units: 0n, scale: 0 });

/** A finite double as the exact decimal of its shortest round-trip form; throws on NaN or infinity. */
export function exactOf(x: number): ExactDecimal {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const m = DECIMAL_FORM.exec(String(x));
  if (m === null) throw new RangeError(`unreadable number: ${x}`);
  const [, sign, int, frac = '', exp = '0'] = m;
  let units = BigInt(`${int}${frac}`);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

function rescale(a: ExactDecimal, scale: number): bigint {
  return a.units * 10n ** BigInt(scale - a.scale);
}

/** a + b, exactly. */
export function addExact(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

/** a * b, exactly. */
export function mulExact(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** The absolute value. */
export function absExact(a: ExactDecimal): ExactDecimal {
  return a.units < 0n ? { units: -a.units, scale: a.scale } : a;
}

/** -1, 0 or 1 as a < b, a = b, a > b. */
export function compareExact(a: ExactDecimal, b: ExactDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The exact decimal as text (`-12.5`, `0.001`), no exponent. */
export function exactText(a: ExactDecimal): string {
  const negative = a.units < 0n;
  const digits = (negative ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const int = digits.slice(0, digits.length - a.scale);
  const frac = digits.slice(digits.length - a.scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
}

/** The exact decimal rounded once to the nearest double (`-0` reads as `0`). */
export function exactToNumber(a: ExactDecimal): number {
  return Number(exactText(a)) + 0;
}
