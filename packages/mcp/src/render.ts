/**
 * Readable text for tool results. A missing figure is written `unavailable`, never 0: an unpriced
 * position's mark and PnL are unknown, not zero.
 */

/** The word for a figure that is not known. */
export const UNAVAILABLE = 'unavailable';

/** A number with up to `digits` decimals (fewer for large values), or `unavailable`. */
export function num(x: number | null | undefined, digits = 8): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return UNAVAILABLE;
  const abs = Math.abs(x);
  const d = abs >= 1000 ? 2 : abs >= 1 ? Math.min(digits, 4) : digits;
  return Number(x.toFixed(d)).toString();
}

/** US dollars, e.g. `$1,234.50`, or `unavailable`. */
export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return UNAVAILABLE;
  const sign = x < 0 ? '-' : '';
  return `${sign}$${Math.abs(x).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A signed amount (PnL), e.g. `+12.5`, or `unavailable`. */
export function signed(x: number | null | undefined, digits = 8): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return UNAVAILABLE;
  return `${x > 0 ? '+' : ''}${num(x, digits)}`;
}

/** A percentage, e.g. `+3.21%`, or `unavailable`. */
export function pct(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return UNAVAILABLE;
  return `${x > 0 ? '+' : ''}${x.toFixed(2)}%`;
}

/** A 0..1 fraction as a percentage, e.g. `72%`. */
export function share(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return UNAVAILABLE;
  return `${Math.round(x * 100)}%`;
}

/** Lines joined; empty sections (null) left out. */
export function lines(...parts: (string | null | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === 'string').join('\n');
}
