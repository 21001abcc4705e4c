/** Formatting of the numbers the API sends, in the page's locale. `null` is shown as a dash, never 0. */

const DASH = '–';

/** Significant decimals for a price: more for small prices, at most 8. */
export function priceDecimals(value: number): number {
  const abs = Math.abs(value);
  if (abs === 0 || !Number.isFinite(abs)) return 2;
  if (abs >= 1000) return 2;
  if (abs >= 1) return 4;
  return Math.min(8, 2 - Math.floor(Math.log10(abs)) + 2);
}

/** A price with the decimals its size calls for. */
export function price(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const d = priceDecimals(value);
  return value.toLocaleString(locale, { minimumFractionDigits: d > 4 ? d : Math.min(d, 2), maximumFractionDigits: d });
}

/** A percentage already in percent units (`1.5` is 1.5 %), signed. */
export function pct(value: number | null | undefined, locale: string, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const sign = value > 0 ? '+' : '';
  return `${sign}${value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })} %`;
}

/** A probability 0..1 as a whole percentage. */
export function prob(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return `${(value * 100).toLocaleString(locale, { maximumFractionDigits: 0 })} %`;
}

/** A plain number with fixed decimals. */
export function num(value: number | null | undefined, locale: string, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `extreme_greed` as "extreme greed". */
export function words(value: string | null | undefined): string {
  return value === null || value === undefined ? DASH : value.replace(/_/g, ' ');
}
