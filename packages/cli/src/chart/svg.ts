import type { Candles } from '@marketlens/core';
import { price } from '../output/format.js';

/** A horizontal level of the chart (the same kinds as the terminal chart). */
export interface ChartLevel {
  price: number;
  label: string;
  kind: 'support' | 'resistance' | 'entry' | 'stop' | 'target';
}

/** A price band drawn as a rectangle across the chart (a zone, the entry band). */
export interface ChartBand {
  low: number;
  high: number;
  kind: 'support' | 'resistance' | 'entry';
}

export interface ChartInput {
  candles: Candles;
  /** Candles drawn: the last `bars`. */
  bars: number;
  width: number;
  height: number;
  title: string;
  levels: readonly ChartLevel[];
  bands: readonly ChartBand[];
}

/** Colours of the chart; tests read pixels against them. */
export const CHART_COLORS = {
  background: '#101418',
  grid: '#232a31',
  text: '#c9d1d9',
  up: '#26a69a',
  down: '#ef5350',
  support: '#29b6f6',
  resistance: '#ab47bc',
  entry: '#42a5f5',
  stop: '#ff1744',
  target: '#ffd600',
} as const;

/** Pixel geometry of a chart: where candle `k` (0 = first drawn) and a price fall. */
export interface ChartLayout {
  plot: { left: number; top: number; right: number; bottom: number };
  lo: number;
  hi: number;
  from: number;
  count: number;
  x(k: number): number;
  y(p: number): number;
  candleWidth: number;
}

const MARGIN = { left: 12, top: 36, right: 150, bottom: 28 };

/** The layout of {@link renderSvg}: the price range covers the candles and every level and band. */
export function chartLayout(input: ChartInput): ChartLayout {
  const n = input.candles.close.length;
  const count = Math.max(1, Math.min(input.bars, n));
  const from = n - count;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = from; i < n; i++) {
    lo = Math.min(lo, input.candles.low[i]);
    hi = Math.max(hi, input.candles.high[i]);
  }
  for (const l of input.levels) {
    lo = Math.min(lo, l.price);
    hi = Math.max(hi, l.price);
  }
  for (const b of input.bands) {
    lo = Math.min(lo, b.low);
    hi = Math.max(hi, b.high);
  }
  if (!(hi > lo)) hi = lo + 1;
  const pad = (hi - lo) * 0.04;
  lo -= pad;
  hi += pad;
  const plot = {
    left: MARGIN.left,
    top: MARGIN.top,
    right: input.width - MARGIN.right,
    bottom: input.height - MARGIN.bottom,
  };
  const step = (plot.right - plot.left) / count;
  return {
    plot,
    lo,
    hi,
    from,
    count,
    x: (k) => plot.left + step * (k + 0.5),
    y: (p) => plot.top + ((hi - p) / (hi - lo)) * (plot.bottom - plot.top),
    candleWidth: Math.max(1, step * 0.7),
  };
}

const r2 = (x: number): string => (Math.round(x * 100) / 100).toString();

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A self-contained SVG of the chart: candles, zone and entry bands, stop, target and level lines
 * labelled at the right edge, a price axis, and a title. No scripts, no external resources.
 */
export function renderSvg(input: ChartInput): string {
  const L = chartLayout(input);
  const c = input.candles;
  const { plot } = L;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${input.width}" height="${input.height}" viewBox="0 0 ${input.width} ${input.height}">`,
    `<rect x="0" y="0" width="${input.width}" height="${input.height}" fill="${CHART_COLORS.background}"/>`,
    `<text x="${plot.left}" y="22" fill="${CHART_COLORS.text}" font-family="sans-serif" font-size="14">${escapeXml(input.title)}</text>`,
  ];
  // grid and price axis: five ticks
  for (let k = 0; k <= 4; k++) {
    const p = L.lo + ((L.hi - L.lo) * k) / 4;
    const y = r2(L.y(p));
    parts.push(
      `<line x1="${plot.left}" y1="${y}" x2="${plot.right}" y2="${y}" stroke="${CHART_COLORS.grid}" stroke-width="1"/>`,
      `<text x="${plot.right + 6}" y="${y}" dy="4" fill="${CHART_COLORS.text}" font-family="sans-serif" font-size="11">${price(p)}</text>`,
    );
  }
  for (const b of input.bands) {
    const y1 = L.y(b.high);
    const y2 = L.y(b.low);
    parts.push(
      `<rect x="${plot.left}" y="${r2(y1)}" width="${r2(plot.right - plot.left)}" height="${r2(Math.max(1, y2 - y1))}" fill="${CHART_COLORS[b.kind]}" fill-opacity="0.18"/>`,
    );
  }
  for (let k = 0; k < L.count; k++) {
    const i = L.from + k;
    const up = c.close[i] >= c.open[i];
    const color = up ? CHART_COLORS.up : CHART_COLORS.down;
    const x = L.x(k);
    const top = L.y(Math.max(c.open[i], c.close[i]));
    const bottom = L.y(Math.min(c.open[i], c.close[i]));
    parts.push(
      `<line x1="${r2(x)}" y1="${r2(L.y(c.high[i]))}" x2="${r2(x)}" y2="${r2(L.y(c.low[i]))}" stroke="${color}" stroke-width="1"/>`,
      `<rect x="${r2(x - L.candleWidth / 2)}" y="${r2(top)}" width="${r2(L.candleWidth)}" height="${r2(Math.max(1, bottom - top))}" fill="${color}"/>`,
    );
  }
  for (const l of input.levels) {
    // snapped to the pixel grid: a 2 px line on an integer y covers two whole pixel rows (crisp)
    const y = Math.round(L.y(l.price));
    const dash =
      l.kind === 'support' || l.kind === 'resistance'
        ? ' stroke-dasharray="2 4"'
        : l.kind === 'entry'
          ? ''
          : ' stroke-dasharray="8 4"';
    parts.push(
      `<line x1="${plot.left}" y1="${y}" x2="${plot.right}" y2="${y}" stroke="${CHART_COLORS[l.kind]}" stroke-width="2"${dash}/>`,
      `<text x="${plot.right + 6}" y="${y}" dy="-4" fill="${CHART_COLORS[l.kind]}" font-family="sans-serif" font-size="11">${escapeXml(l.label)}</text>`,
    );
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
