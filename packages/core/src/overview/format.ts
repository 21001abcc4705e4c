/**
 * Locale-neutral number formatting of the overview facts: ASCII digits, `.` as the decimal
 * separator, no grouping, `-` for negatives, never an exponent. The same string is rendered in
 * every locale, so a number in the text is always, character for character, one of the facts'
 * formatted values.
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
  const a = Math.abs(x);
  const mag = a > 0 ? Math.floor(Math.log10(a)) : 0;
  const decimals = Math.min(10, Math.max(2, 5 - mag));
  return plain(x, decimals, 2);
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
