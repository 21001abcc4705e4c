import type { Candles } from '@marketlens/core';
import { type PriceText, priceAt } from './format.js';
import type { Style } from './style.js';

/** A horizontal line drawn across the terminal chart. */
export interface TermLevel {
  price: number;
  label: string;
  kind: 'support' | 'resistance' | 'entry' | 'stop' | 'target';
}

/**
 * A candlestick chart of the last `width` candles in `height` text rows: `│` wicks, `█` bodies
 * (green up, red down on colour), levels as dotted rows labelled on the right, prices on the axis
 * written by `price` (the market's tick). Levels outside the candles' range are left out so the
 * candles keep the height.
 */
export function termChart(
  candles: Candles,
  style: Style,
  options: { width: number; height: number; levels?: readonly TermLevel[]; price?: PriceText },
): string {
  const price = options.price ?? priceAt(null);
  const n = candles.close.length;
  const width = Math.max(10, Math.min(options.width, n));
  const height = Math.max(5, options.height);
  const from = n - width;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = from; i < n; i++) {
    lo = Math.min(lo, candles.low[i]);
    hi = Math.max(hi, candles.high[i]);
  }
  if (!(hi > lo)) hi = lo + 1;
  const row = (p: number) => Math.min(height - 1, Math.max(0, Math.round(((hi - p) / (hi - lo)) * (height - 1))));
  const grid: string[][] = Array.from({ length: height }, () => Array.from({ length: width }, () => ' '));
  const labels: string[] = Array.from({ length: height }, () => '');
  for (const level of options.levels ?? []) {
    if (level.price < lo || level.price > hi) continue;
    const r = row(level.price);
    const paint = levelPaint(style, level.kind);
    for (let c = 0; c < width; c++) grid[r][c] = paint('·');
    labels[r] = labels[r] === '' ? paint(level.label) : `${labels[r]}, ${paint(level.label)}`;
  }
  for (let c = 0; c < width; c++) {
    const i = from + c;
    const up = candles.close[i] >= candles.open[i];
    const paint = up ? style.green : style.red;
    const top = row(candles.high[i]);
    const bottom = row(candles.low[i]);
    const bodyTop = row(Math.max(candles.open[i], candles.close[i]));
    const bodyBottom = row(Math.min(candles.open[i], candles.close[i]));
    for (let r = top; r <= bottom; r++) grid[r][c] = paint(r >= bodyTop && r <= bodyBottom ? '█' : '│');
  }
  const axis = (r: number) => price(hi - (r / (height - 1)) * (hi - lo));
  const axisWidth = Math.max(axis(0).length, axis(height - 1).length);
  const lines = grid.map((cells, r) => {
    const tick = r === 0 || r === height - 1 || r === Math.floor(height / 2) ? axis(r) : '';
    return `${style.dim(tick.padStart(axisWidth))} ┤${cells.join('')}${labels[r] === '' ? '' : ` ${labels[r]}`}`;
  });
  return `${lines.join('\n')}\n`;
}

function levelPaint(style: Style, kind: TermLevel['kind']): (s: string) => string {
  switch (kind) {
    case 'support':
      return style.cyan;
    case 'resistance':
      return style.magenta;
    case 'entry':
      return style.blue;
    case 'stop':
      return style.red;
    case 'target':
      return style.yellow;
  }
}
