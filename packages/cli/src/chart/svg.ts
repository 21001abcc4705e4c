import { type Candles, tickDecimals } from '@marketlens/core';

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
  /** The market's tick size: gridlines fall on prices it can quote. Null or absent: any round price. */
  tick?: number | null;
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

/** Vertical room of one label line (11 px text): label baselines closer than this overlap. */
export const LABEL_GAP = 13;

/**
 * A round step for gridlines over `[lo, hi]`: 1, 2, 2.5 or 5 times a power of ten, the smallest
 * that gives at most `most` lines (prices a chartist reads at a glance: 20.00, 20.50, 21.00), and
 * with the market's `tick` a multiple of it.
 */
export function gridStep(lo: number, hi: number, most = 6, tick: number | null = null): number {
  const raw = (hi - lo) / most;
  if (!(raw > 0) || !Number.isFinite(raw)) return tick ?? 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const step = Number((m * power).toPrecision(12));
    // With a tick, only steps the market can quote (2.5 cents is no step of a 0.01 market).
    const quotable = tick === null || Math.abs(step / tick - Math.round(step / tick)) < 1e-9;
    if (step >= raw && quotable && (tick === null || step >= tick)) return step;
  }
  return tick !== null && 10 * power < tick ? tick : 10 * power;
}

/** The multiples of `step` inside `[lo, hi]`, free of binary noise. */
export function gridPrices(lo: number, hi: number, step: number): number[] {
  const decimals = tickDecimals(step);
  const out: number[] = [];
  for (let k = Math.ceil(lo / step); k * step <= hi; k++) out.push(Number((k * step).toFixed(decimals)));
  return out;
}

/**
 * Baselines for labels wanted at `ys`, moved as little as needed so that any two are at least
 * {@link LABEL_GAP} apart and all lie within `[top, bottom]` (order kept). Returned in the input's order.
 */
export function placeLabels(ys: readonly number[], top: number, bottom: number): number[] {
  const order = ys.map((y, k) => ({ y, k })).sort((a, b) => a.y - b.y || a.k - b.k);
  const n = order.length;
  const at = order.map((o) => o.y);
  // Downwards from the top, then back up from the bottom: the result keeps the gap and the bounds
  // whenever they leave room for every label.
  for (let i = 0; i < n; i++) at[i] = Math.max(at[i], i === 0 ? top : at[i - 1] + LABEL_GAP);
  for (let i = n - 1; i >= 0; i--) at[i] = Math.min(at[i], i === n - 1 ? bottom : at[i + 1] - LABEL_GAP);
  const out = new Array<number>(n);
  order.forEach((o, i) => {
    out[o.k] = Math.round(at[i]);
  });
  return out;
}

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
  // Level labels first (they win a place), spread so that none overlaps; grid labels only where free.
  const placed = placeLabels(
    input.levels.map((l) => Math.round(L.y(l.price)) - 4),
    plot.top + LABEL_GAP,
    input.height - 4,
  );
  const tick = input.tick ?? null;
  const step = gridStep(L.lo, L.hi, 6, tick);
  // Written with the market's decimals (17.00 for a stock), or the step's when finer.
  const labelTick = tick !== null && tickDecimals(tick) > tickDecimals(step) ? tick : step;
  for (const p of gridPrices(L.lo, L.hi, step)) {
    const y = L.y(p);
    parts.push(
      `<line x1="${plot.left}" y1="${r2(y)}" x2="${plot.right}" y2="${r2(y)}" stroke="${CHART_COLORS.grid}" stroke-width="1"/>`,
    );
    if (placed.every((q) => Math.abs(q - (y + 4)) >= LABEL_GAP)) {
      parts.push(
        `<text x="${plot.right + 6}" y="${r2(y + 4)}" fill="${CHART_COLORS.text}" font-family="sans-serif" font-size="11">${p.toFixed(tickDecimals(labelTick))}</text>`,
      );
    }
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
  input.levels.forEach((l, k) => {
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
      `<text x="${plot.right + 6}" y="${placed[k]}" fill="${CHART_COLORS[l.kind]}" font-family="sans-serif" font-size="11">${escapeXml(l.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
