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

/**
 * The tick a price is shown at when the venue does not say: 0.01 for stocks (the rule of core's
 * `defaultTickSize`), none for coins, fx and on-chain tokens, whose steps vary by market.
 */
export function tickOf(assetClass: string | null | undefined): number | null {
  return assetClass === 'stocks' ? 0.01 : null;
}

/** The decimals that write multiples of `tick` exactly: 2 for 0.01 and 0.25, 0 for 1 (at most 12). */
export function tickDecimals(tick: number): number {
  for (let d = 0; d < 12; d++) {
    const scaled = tick * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

/**
 * A price as the market quotes it: with a `tick`, rounded to the nearest tick and written with the
 * tick's decimals (`80.18` for 80.177 at 0.01), unless it spans fewer than ten ticks (a sub-cent
 * price); otherwise with the decimals its size calls for.
 */
export function price(value: number | null | undefined, locale: string, tick: number | null = null): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  if (tick !== null && tick > 0 && Math.abs(value) >= 10 * tick) {
    const d = tickDecimals(tick);
    const rounded = Math.sign(value) * Math.round(Math.abs(value) / tick) * tick;
    return rounded.toLocaleString(locale, { minimumFractionDigits: d, maximumFractionDigits: d });
  }
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
