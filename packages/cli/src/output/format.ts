import { formatPrice } from '@marketlens/core';
import { visibleWidth } from './style.js';

/** Column alignment of {@link table}. */
export type Align = 'left' | 'right';

/**
 * Aligns rows into columns separated by two spaces; the first row is the header. Cells may hold
 * ANSI colour: widths are measured without it. Trailing spaces are trimmed.
 */
export function table(rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, k) => {
      widths[k] = Math.max(widths[k] ?? 0, visibleWidth(cell));
    });
  }
  const lines = rows.map((row) =>
    row
      .map((cell, k) => {
        const pad = ' '.repeat(widths[k] - visibleWidth(cell));
        return align[k] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

/** A number with `digits` decimals; `n/a` for null or non-finite. */
export function num(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits);
}

/**
 * A price as its market quotes it: at the market's `tick` (rounded to it, with its decimals; a
 * price under ten ticks keeps six significant digits, see core's `formatPrice`), else with as
 * many decimals as its magnitude needs (2 above 100, up to 8 for tiny prices).
 */
export function price(x: number | null | undefined, tick: number | null = null): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  if (tick !== null && tick > 0 && Math.abs(x) >= 10 * tick) return formatPrice(x, tick);
  if (tick !== null && tick > 0) return formatPrice(x);
  const a = Math.abs(x);
  const digits = a >= 100 ? 2 : a >= 1 ? 4 : a >= 0.01 ? 6 : 8;
  return x.toFixed(digits);
}

/** A signed percentage: `+1.23%`. */
export function pct(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return `${x > 0 ? '+' : ''}${x.toFixed(digits)}%`;
}

/** `2024-05-01 14:00` (UTC) from epoch ms or an ISO date-time (as REST writes times). */
export function utc(t: number | string): string {
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

/** Writes prices at one market's tick (see {@link price}). */
export type PriceText = (x: number | null | undefined) => string;

/** A {@link PriceText} for a market with this tick size (null: by magnitude). */
export function priceAt(tick: number | null): PriceText {
  return (x) => price(x, tick);
}
